// Builders for small, readable event streams in tests.
import type { Compaction, Event } from "../../src/events/index.js";
import type { ModelRequest } from "../../src/llm/types.js";

export const at = (second: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

export interface ToolSpec {
  id: string;
  name: string;
  args?: Record<string, unknown>;
  result?: string;
  error?: boolean;
}

export interface TurnSpec {
  request?: string;
  reasoning?: string;
  tools?: ToolSpec[];
  message?: string;
  /** Leave out the turn_start (an implicit turn 0). */
  implicit?: boolean;
}

let clock = 0;
export function resetClock(): void {
  clock = 0;
}

/** The events of one turn, with increasing timestamps. */
export function turn(spec: TurnSpec | string): Event[] {
  const s: TurnSpec = typeof spec === "string" ? { request: spec, message: `answer to ${spec}` } : spec;
  const out: Event[] = [];
  if (!s.implicit) out.push({ type: "turn_start", timestamp: at(clock++) });
  out.push({ type: "chat_request", timestamp: at(clock++), content: s.request ?? "request" });
  if (s.reasoning)
    out.push({
      type: "chat_response",
      timestamp: at(clock++),
      reasoning: s.reasoning,
      metadata: { signature: "sig" },
    });
  for (const t of s.tools ?? []) {
    out.push({
      type: "tool_call_request",
      timestamp: at(clock++),
      id: t.id,
      name: t.name,
      arguments: t.args ?? { q: t.id },
    });
    out.push({
      type: "tool_call_response",
      timestamp: at(clock++),
      id: t.id,
      content: t.result ?? `result of ${t.id}`,
      is_error: t.error ?? false,
    });
  }
  if (s.message !== undefined)
    out.push({ type: "chat_response", timestamp: at(clock++), message: s.message });
  return out;
}

/** `n` simple turns named t1..tn. */
export function turns(n: number): Event[] {
  return Array.from({ length: n }, (_, i) => turn(`t${i + 1}`)).flat();
}

/** `n` turns of work named t1..tn, each with reasoning and a tool call: every policy has something to remove. */
export function workTurns(n: number): Event[] {
  return Array.from({ length: n }, (_, i) =>
    turn({
      request: `t${i + 1}`,
      reasoning: `thinking about t${i + 1}`,
      tools: [
        {
          id: `call_${i + 1}`,
          name: "search",
          result: `found for t${i + 1}: ${"a long line of output ".repeat(8)}`,
        },
      ],
      message: `answer to t${i + 1}`,
    }),
  ).flat();
}

export function compaction(
  fields: Partial<Compaction> & { from_turn: number; to_turn: number },
  second?: number,
): Compaction {
  return {
    type: "compaction",
    timestamp: at(second ?? clock++),
    id: fields.id ?? `c${clock}`,
    source: "user",
    ...fields,
  };
}

export const STRIP = { policy: "strip", request: true, response: true } as const;
export const OMIT = { policy: "omit" } as const;
export const KEEP = { policy: "strip", request: false, response: false } as const;
export const summary = (text: string, source: "derived" | "supplied" = "derived") => ({ text, source });

/** Provider requests for `model`: the events, with what a mapping test does not care about filled in. */
export const requestFor =
  (model: string) =>
  (events: Event[], more: Partial<ModelRequest> = {}): ModelRequest => ({
    model,
    events,
    tools: [],
    toolChoice: "auto",
    maxTokens: 1000,
    ...more,
  });
