// Owns counting one request: the system prompt, the tool definitions and the
// projected turns with their outputs capped as the view caps them, item by
// item. The dry run, the compact tool's preview, `show --context` and
// automatic compaction's budget all count with this, so they say one number.
import { capToolOutputs, isWorkRecord, type OutputCap, type Projection } from "../compaction/index.js";
import { isKind, turnsLabel, type Event } from "../events/index.js";
import type { ToolDefinition } from "../tool-definition.js";
import type { TokenCounter } from "./count.js";

export const CONTEXT_PARTS = [
  "system prompt",
  "tool definitions",
  "user",
  "assistant",
  "reasoning",
  "tool calls",
  "tool outputs",
  "summaries",
  "records",
] as const;
export type ContextPart = (typeof CONTEXT_PARTS)[number];

export interface ContextItem {
  part: ContextPart;
  /** Where it is: the raw turn(s) as `print` numbers them, or nothing for the prompt and tools. */
  where: string;
  /** What it is: a tool's name and call id, or the part itself. */
  what: string;
  tokens: number;
}

/** What every request carries besides the conversation, and how its tool outputs are capped. */
export interface RequestFrame {
  system?: string;
  tools: readonly ToolDefinition[];
  /** Tools offered only once the view has a compaction or a cut output (recall). */
  whenCompacted?: readonly ToolDefinition[];
  capOf: OutputCap;
}

/** The tools a view is offered: `whenCompacted` join once it has a compaction or a cut output. */
function toolsFor(frame: RequestFrame, view: Projection, cutOutputs: number): readonly ToolDefinition[] {
  const compacted = view.stats.activeCompactions > 0 || cutOutputs > 0;
  return compacted ? [...frame.tools, ...(frame.whenCompacted ?? [])] : frame.tools;
}

/** The frame's items: the system prompt, then each tool's definition. */
function frameItems(
  frame: RequestFrame,
  tools: readonly ToolDefinition[],
  counter: TokenCounter,
): ContextItem[] {
  const items: ContextItem[] = [];
  if (frame.system)
    items.push({ part: "system prompt", where: "", what: "", tokens: counter.text(frame.system) });
  for (const t of tools)
    items.push({
      part: "tool definitions",
      where: "",
      what: t.name,
      tokens: counter.text(
        JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters }),
      ),
    });
  return items;
}

/** Every item a request holds, in request order: the frame, then the projected turns. */
export function requestItems(frame: RequestFrame, view: Projection, counter: TokenCounter): ContextItem[] {
  let cutOutputs = 0;
  const turnItems: ContextItem[] = [];
  for (const turn of view.turns) {
    const origin = turn.origin;
    const where =
      origin.kind === "kept" ? turnsLabel(origin.turn, origin.turn) : turnsLabel(origin.from, origin.to);
    const names = new Map<string, string>();
    const capped = capToolOutputs(turn.events, frame.capOf);
    cutOutputs += capped.cut;
    for (const e of capped.events) {
      const tokens = counter.event(e);
      if (tokens === 0) continue;
      if (isWorkRecord(e)) turnItems.push({ part: "records", where, what: "record of the work", tokens });
      else if (origin.kind === "summary")
        turnItems.push({ part: "summaries", where, what: "summary", tokens });
      else if (isKind(e, "chat_request")) turnItems.push({ part: "user", where, what: "", tokens });
      else if (isKind(e, "chat_response"))
        turnItems.push({
          part: e.reasoning !== undefined ? "reasoning" : "assistant",
          where,
          what: "",
          tokens,
        });
      else if (isKind(e, "tool_call_request")) {
        names.set(e.id, e.name);
        turnItems.push({ part: "tool calls", where, what: `${e.name} ${e.id}`, tokens });
      } else if (isKind(e, "tool_call_response"))
        turnItems.push({
          part: "tool outputs",
          where,
          what: `${names.get(e.id) ?? "unknown"} ${e.id}`,
          tokens,
        });
    }
  }
  return [...frameItems(frame, toolsFor(frame, view, cutOutputs), counter), ...turnItems];
}

/**
 * The tokens of a request: what its items add up to, counted without
 * naming each item, and the turns in one `events` call (a long one is counted
 * with progress).
 */
export function requestTokens(frame: RequestFrame, view: Projection, counter: TokenCounter): number {
  let cutOutputs = 0;
  const sent: Event[] = [];
  for (const turn of view.turns) {
    const capped = capToolOutputs(turn.events, frame.capOf);
    cutOutputs += capped.cut;
    for (const e of capped.events) sent.push(e);
  }
  let total = counter.events(sent);
  for (const item of frameItems(frame, toolsFor(frame, view, cutOutputs), counter)) total += item.tokens;
  return total;
}
