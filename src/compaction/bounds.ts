// Owns range bounds and their resolution against a stream: the shared target
// of both user grammars (rule bounds in `rules.ts`, CLI positions in
// `positions.ts`). Everything here is 0-based.
import type { Event } from "../events/index.js";
import { groupTurns } from "../events/index.js";
import { indexCompactions } from "./activation.js";
import { timestampKey } from "./policy.js";

/** A position in the stream before it is resolved. */
export type RangeBound =
  | { kind: "absolute"; index: number }
  /** `offset` turns before the last turn: 0 is the last turn. */
  | { kind: "from_end"; offset: number }
  /** The first turn that started at or after `now - ms`. */
  | { kind: "ago"; ms: number }
  /** The turn after the most recent compaction's range; 0 when there is none. */
  | { kind: "last_compaction" };

/** A `keep_first`/`keep_last` value: a count of turns, or a position. */
export type KeepBound = { kind: "count"; turns: number } | RangeBound;

export interface StreamFacts {
  turnCount: number;
  /** Start time (timestampKey) of each raw turn. */
  turnStarts: number[];
  /** `to_turn + 1` of the most recent compaction not reset, or 0. */
  afterLastCompaction: number;
  /** The current time in milliseconds since the epoch. */
  now: number;
}

export function streamFacts(events: readonly Event[], now: number): StreamFacts {
  const turns = groupTurns(events);
  const live = indexCompactions(events).entries.filter((e) => e.state.kind !== "reset");
  const latest = live.at(-1);
  return {
    turnCount: turns.length,
    turnStarts: turns.map((t) => timestampKey(t.events[0]?.timestamp)),
    afterLastCompaction: latest ? latest.event.to_turn + 1 : 0,
    now,
  };
}

/** Resolve a bound to a raw turn index; may lie outside 0..turnCount-1. */
export function resolveBound(bound: RangeBound, facts: StreamFacts): number {
  switch (bound.kind) {
    case "absolute":
      return bound.index;
    case "from_end":
      return facts.turnCount - 1 - bound.offset;
    case "ago": {
      const since = facts.now - bound.ms;
      const at = facts.turnStarts.findIndex((start) => start >= since);
      return at === -1 ? facts.turnCount : at;
    }
    case "last_compaction":
      return facts.afterLastCompaction;
  }
}

/**
 * Resolve a bound used as the end of a range. A time or the last compaction
 * names the first turn after the range, so the range ends one turn earlier.
 */
export function resolveEnd(bound: RangeBound, facts: StreamFacts): number {
  const at = resolveBound(bound, facts);
  return bound.kind === "ago" || bound.kind === "last_compaction" ? at - 1 : at;
}

const DURATION = /^(\d+)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$/i;
const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `5h`, `2days`, `30m`… in milliseconds, or undefined when `text` is not a duration. */
export function parseDuration(text: string): number | undefined {
  const m = DURATION.exec(text.trim());
  if (!m) return undefined;
  const unit = m[2]!.toLowerCase();
  const key = unit.startsWith("mi") || unit === "m" ? "m" : unit[0]!;
  return Number(m[1]) * UNIT_MS[key]!;
}

export interface TurnRange {
  from: number;
  to: number;
}

export type RangeResolution = { ok: true; range: TurnRange } | { ok: false; reason: string };

export interface RangeRequest {
  /** The window the rule applies to; the whole conversation when absent. */
  from?: RangeBound;
  to?: RangeBound;
  keepFirst?: KeepBound;
  keepLast?: KeepBound;
}

/**
 * Resolve a window and keep bounds to the turns to compact. Resolution is
 * asymmetric, as JP's is: an end past the last turn is clamped back onto it,
 * but a start past the end, or an end that would keep more turns than exist,
 * means there is nothing to compact; neither is clamped onto a real turn.
 */
export function resolveRange(request: RangeRequest, facts: StreamFacts): RangeResolution {
  const last = facts.turnCount - 1;
  if (facts.turnCount === 0) return { ok: false, reason: "the conversation has no turns" };
  let from = request.from ? resolveBound(request.from, facts) : 0;
  let to = request.to ? resolveEnd(request.to, facts) : last;
  // A kept position is itself kept: keep_first = @3 keeps turns 1..3, keep_last = -1 keeps the last.
  if (request.keepFirst) {
    const keep = request.keepFirst;
    if (keep.kind === "count") from += keep.turns;
    else if (keep.kind === "absolute" || keep.kind === "from_end")
      from = Math.max(from, resolveBound(keep, facts) + 1);
    else from = Math.max(from, resolveBound(keep, facts));
  }
  if (request.keepLast) {
    const keep = request.keepLast;
    if (keep.kind === "absolute" && keep.index > last)
      return {
        ok: false,
        reason: `keep_last @${keep.index + 1} is after the last turn (${last + 1}): it keeps no turn`,
      };
    to = keep.kind === "count" ? to - keep.turns : Math.min(to, resolveBound(keep, facts) - 1);
  }
  if (from > last) return { ok: false, reason: `the range starts after the last turn (${last + 1})` };
  if (to < 0)
    return {
      ok: false,
      reason: `the range ends before the first turn: it would keep more turns than the ${facts.turnCount} there are`,
    };
  from = Math.max(0, from);
  to = Math.min(to, last);
  if (from > to) return { ok: false, reason: "no turn is left between the kept turns" };
  return { ok: true, range: { from, to } };
}
