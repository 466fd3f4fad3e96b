// Owns the pure part of automatic compaction (docs/architecture.md §8): where whole earlier
// turns roll forward from, and how much of the turn in progress to strip, up
// to a `to_call`, so a request fits its budget while the newest traffic stays.
import type { Compaction, Event } from "../events/index.js";
import { groupTurns, isKind } from "../events/index.js";
import { indexCompactions } from "./activation.js";
import { project } from "./project.js";
import type { TurnRange } from "./bounds.js";

/** The earlier whole turns auto compaction may fold: after the last auto compaction of whole turns, up to the turn before the current one. */
export function earlierTurnsRange(events: readonly Event[]): TurnRange | undefined {
  const turns = groupTurns(events);
  const current = turns.length - 1;
  const previous = indexCompactions(events)
    .entries.filter(
      (e) => e.state.kind === "active" && e.event.source === "auto" && e.event.to_call === undefined,
    )
    .at(-1);
  const from = previous ? previous.event.to_turn + 1 : 0;
  const to = current - 1;
  return from <= to ? { from, to } : undefined;
}

/**
 * The earlier turns a summary made for the model's window may cover: after
 * the last summary someone wrote (never widened nor replaced), up to the turn
 * before the current one; undefined when each of them is summarized already.
 */
export function overWindowRange(events: readonly Event[]): TurnRange | undefined {
  const supplied = indexCompactions(events).entries.filter(
    (e) => e.state.kind === "active" && e.event.summary?.source === "supplied",
  );
  const from = Math.max(0, ...supplied.map((e) => e.event.to_turn + 1));
  const to = groupTurns(events).length - 2;
  const unsummarized = project(events).turns.some(
    (t) => t.origin.kind === "kept" && t.origin.turn >= from && t.origin.turn <= to,
  );
  return unsummarized ? { from, to } : undefined;
}

export interface StripOptions {
  budget: number;
  /** Tokens of the newest traffic of the turn that stay verbatim. */
  keepTail: number;
  /** Tokens of the request for a stream. */
  measure: (events: readonly Event[]) => number;
  /** Tokens of raw events, for the tail. */
  tokens: (events: readonly Event[]) => number;
  id: string;
  timestamp: string;
  /**
   * `tail` (default) strips every result older than the tail at once, so the
   * requests that follow append again for a long stretch and keep their cached
   * prefix; `just_under_budget` strips the fewest that fit, which rewrites the
   * prefix again on nearly every later request.
   */
  relief?: "tail" | "just_under_budget";
}

/**
 * A compaction of the turn in progress that strips the oldest tool results up
 * to a `to_call`: all of them older than `keepTail` tokens of newer traffic,
 * or (relief `just_under_budget`) the fewest that bring the request within budget. The turn's request is never
 * touched and every stripped result keeps its call, so nothing is orphaned.
 */
export function planCurrentTurnStrip(
  events: readonly Event[],
  options: StripOptions,
): Compaction | undefined {
  const turns = groupTurns(events);
  const current = turns.at(-1);
  if (!current) return undefined;
  const answered = new Set(current.events.filter((e) => isKind(e, "tool_call_response")).map((e) => e.id));
  const calls: { id: string; after: number }[] = [];
  current.events.forEach((e, i) => {
    if (isKind(e, "tool_call_response") && answered.has(e.id)) calls.push({ id: e.id, after: i + 1 });
  });
  // Calls whose stripping still leaves keepTail tokens of newer traffic verbatim.
  const allowed: typeof calls = [];
  for (const call of calls) {
    if (options.tokens(current.events.slice(call.after)) < options.keepTail) break;
    allowed.push(call);
  }
  const furthest = allowed.at(-1);
  if (!furthest) return undefined;
  const candidate = (upTo: { id: string }): Compaction => ({
    type: "compaction",
    timestamp: options.timestamp,
    id: options.id,
    from_turn: current.index,
    to_turn: current.index,
    to_call: upTo.id,
    tool_calls: { policy: "strip", request: false, response: true },
    source: "auto",
  });
  if (options.relief !== "just_under_budget") return candidate(furthest);
  // Each call's saving is what its result costs before and after stripping; two projections give them all,
  // and the fewest calls whose savings bring the request within budget follow by summing.
  const before = project(events).events;
  const after = project([...events, candidate(furthest)]).events;
  const resultTokens = (projected: readonly Event[]) => {
    const byId = new Map<string, number>();
    for (const e of projected) if (isKind(e, "tool_call_response")) byId.set(e.id, options.tokens([e]));
    return byId;
  };
  const costBefore = resultTokens(before);
  const costAfter = resultTokens(after);
  let total = options.measure(events);
  for (const call of allowed) {
    total -= (costBefore.get(call.id) ?? 0) - (costAfter.get(call.id) ?? 0);
    if (total <= options.budget) return candidate(call);
  }
  return candidate(furthest);
}
