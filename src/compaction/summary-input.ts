// Owns making a summarizer's input fit its model's window, so a conversation
// already over its window can still be compacted: first mechanical cuts (long
// tool outputs and arguments to their head and tail), then, if that is not
// enough, parts of whole turns that each fit, summarized one by one and then
// together. A fixed number of steps: it never loops. Pure.
import { groupTurns, isKind, type Event } from "../events/index.js";

/** What was done to make the input fit, and the parts to summarize (one when no split was needed). */
export interface FittedInput {
  parts: Event[][];
  /** One line per step taken, for the user; empty when the input fit as it was. */
  steps: string[];
}

/** A long text cut to its head and tail, with a marker of what was cut. */
function headAndTail(text: string, keep: number): string {
  if (text.length <= keep) return text;
  const head = Math.ceil((keep * 2) / 3);
  const tail = keep - head;
  return `${text.slice(0, head)}\n[… ${text.length - keep} characters cut to fit the summary …]\n${text.slice(text.length - tail)}`;
}

/** The events with each tool output and each call's arguments at most `keep` characters; how many were cut. */
function cutToolTraffic(events: readonly Event[], keep: number): { events: Event[]; cut: number } {
  let cut = 0;
  const out = events.map((e): Event => {
    if (isKind(e, "tool_call_response") && e.content.length > keep) {
      cut += 1;
      return { ...e, content: headAndTail(e.content, keep) };
    }
    if (isKind(e, "tool_call_request")) {
      const args = JSON.stringify(e.arguments);
      if (args.length > keep) {
        cut += 1;
        return { ...e, arguments: { cut_to_fit: headAndTail(args, keep) } };
      }
    }
    if (isKind(e, "chat_request") && e.content.length > keep * 8) {
      cut += 1;
      return { ...e, content: headAndTail(e.content, keep * 8) };
    }
    return e;
  });
  return { events: out, cut };
}

/** The most characters one tool output keeps after the mechanical cut. */
const OUTPUT_KEEP = 2_000;

/**
 * `events` made to fit `maxChars` as `measure` counts a summarizer's input:
 * as they are; else with long tool traffic cut; else in parts of whole turns
 * (a turn larger than a part on its own is cut harder, to a part's size).
 */
export function fitSummaryInput(
  events: readonly Event[],
  maxChars: number,
  measure: (events: readonly Event[]) => number,
): FittedInput {
  if (measure(events) <= maxChars) return { parts: [[...events]], steps: [] };
  const stripped = cutToolTraffic(events, OUTPUT_KEEP);
  const stripStep = `cut ${stripped.cut} long tool output${stripped.cut === 1 ? "" : "s"} and argument${stripped.cut === 1 ? "" : "s"} to their head and tail`;
  if (measure(stripped.events) <= maxChars) return { parts: [stripped.events], steps: [stripStep] };
  const parts: Event[][] = [];
  let current: Event[] = [];
  let size = 0;
  for (const turn of groupTurns(stripped.events)) {
    let events = turn.events;
    let turnSize = measure(events);
    // A turn too big for a part on its own: its tool traffic is cut to share the part evenly.
    if (turnSize > maxChars) {
      const calls = Math.max(1, events.filter((e) => isKind(e, "tool_call_response")).length);
      events = cutToolTraffic(events, Math.max(200, Math.floor(maxChars / (calls * 3)))).events;
      turnSize = measure(events);
    }
    // Sizes add up turn by turn (a transcript joins its turns): each turn is measured once.
    if (current.length && size + turnSize > maxChars) {
      parts.push(current);
      current = [];
      size = 0;
    }
    current.push(...events);
    size += turnSize + 2;
  }
  if (current.length) parts.push(current);
  return {
    parts,
    steps: [
      stripStep,
      `summarized in ${parts.length} parts of whole turns, then the parts' summaries together`,
    ],
  };
}
