// Owns how much of a recorded tool output the model is shown: the log keeps
// the whole output, the view shows its head and tail within the tool's
// `max_output_bytes`, with a marker saying what was cut and how `recall`
// reads it. A view setting, so changing it later never touches the log. Pure.
import { isKind, type Event, type ToolCallResponse } from "../events/index.js";
import { grouped } from "../numbers.js";

/** The view's cap, in bytes, of one tool's output. */
export type OutputCap = (toolName: string) => number;

/** What the view shows of a long output: head and tail, and where the cut middle sits in the recorded output. */
export interface OutputCut {
  head: string;
  tail: string;
  /** The cut middle, in characters of the recorded output (what recall's offset and length count). */
  offset: number;
  length: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The longest prefix (or suffix) of `text` within `bytes` UTF-8 bytes, never splitting a character. */
function within(text: string, bytes: number, from: "start" | "end"): string {
  const encoded = encoder.encode(text);
  if (encoded.length <= bytes) return text;
  const slice = from === "start" ? encoded.subarray(0, bytes) : encoded.subarray(encoded.length - bytes);
  const decoded = decoder.decode(slice);
  // A character cut at the edge decodes as U+FFFD: leave it out.
  return from === "start" ? decoded.replace(/\uFFFD$/, "") : decoded.replace(/^\uFFFD/, "");
}

/** The cut of an output longer than `cap` bytes: half the cap from its head, half from its tail; undefined when it fits. */
export function cutOutput(content: string, cap: number): OutputCut | undefined {
  // Most outputs are short: a character is at most 3 bytes in a JS string's UTF-16 unit.
  if (content.length * 3 <= cap || encoder.encode(content).length <= cap) return undefined;
  const head = within(content, Math.floor(cap / 2), "start");
  const tail = within(content, Math.ceil(cap / 2), "end");
  return { head, tail, offset: head.length, length: content.length - head.length - tail.length };
}

/** The marker between head and tail: byte-stable for one output and one cap, so the prompt cache holds. */
export function cutMarker(callId: string, cut: OutputCut, total: number): string {
  const recall = JSON.stringify({ call: callId, offset: cut.offset, length: cut.length });
  return `\n[… ${grouped(cut.length)} of ${grouped(total)} characters cut from the middle of this output; recall ${recall} reads them]\n`;
}

/** The view of one response: its head, the marker and its tail when it is over the cap. */
function cutResponse(e: ToolCallResponse, cap: number): ToolCallResponse {
  const cut = cutOutput(e.content, cap);
  if (!cut) return e;
  return { ...e, content: cut.head + cutMarker(e.id, cut, e.content.length) + cut.tail };
}

/**
 * The view with every tool output over its tool's cap shown as head and
 * tail. `cut` says whether any was: recall then has something to read.
 */
export function capToolOutputs(
  events: readonly Event[],
  capOf: OutputCap,
): { events: readonly Event[]; cut: number } {
  const names = new Map<string, string>();
  let cut = 0;
  const out = events.map((e) => {
    if (isKind(e, "tool_call_request")) names.set(e.id, e.name);
    if (!isKind(e, "tool_call_response")) return e;
    const shown = cutResponse(e, capOf(names.get(e.id) ?? ""));
    if (shown !== e) cut += 1;
    return shown;
  });
  return { events: cut ? out : events, cut };
}
