// Owns turn indexing exactly as JP counts turns (docs/architecture.md §3): events before the
// first turn_start form an implicit turn 0; a turn_start opens a new turn only
// when the current turn already holds an event; global entries belong to no turn.
import type { Event } from "./kinds.js";
import { inTurn } from "./places.js";

/** The turn index given to global entries, which belong to no turn. */
export const NO_TURN = -1;

/** Global entries (config deltas, compactions, resets, unknown kinds) belong to no turn. */
export function isGlobal(event: Event): boolean {
  return !inTurn(event.type);
}

/** Incremental turn counter, so callers streaming a log need not hold it all. */
export class TurnCounter {
  /** Index of the turn the next turn event lands in. */
  current = 0;
  /** Whether the current turn holds at least one event. */
  holdsEvent = false;

  constructor(state?: { current: number; holdsEvent: boolean }) {
    if (state) {
      this.current = state.current;
      this.holdsEvent = state.holdsEvent;
    }
  }

  /** The 0-based turn of `event`, or NO_TURN for a global entry. */
  next(event: Event): number {
    if (isGlobal(event)) return NO_TURN;
    if (event.type === "turn_start" && this.holdsEvent) {
      this.current += 1;
    }
    this.holdsEvent = true;
    return this.current;
  }

  /** Number of turns seen so far. */
  get count(): number {
    return this.holdsEvent ? this.current + 1 : this.current;
  }
}

/** The 0-based turn index of every event (NO_TURN for global entries). */
export function turnIndices(events: readonly Event[]): number[] {
  const counter = new TurnCounter();
  return events.map((e) => counter.next(e));
}

export function turnCount(events: readonly Event[]): number {
  const counter = new TurnCounter();
  for (const e of events) counter.next(e);
  return counter.count;
}

export interface Turn {
  /** 0-based raw turn index. */
  index: number;
  events: Event[];
}

/** Group the turn events of a stream; global entries are left out. */
export function groupTurns(events: readonly Event[]): Turn[] {
  const turns: Turn[] = [];
  const counter = new TurnCounter();
  for (const e of events) {
    const t = counter.next(e);
    if (t === NO_TURN) continue;
    let turn = turns[turns.length - 1];
    if (!turn || turn.index !== t) {
      turn = { index: t, events: [] };
      turns.push(turn);
    }
    turn.events.push(e);
  }
  return turns;
}

/** The one spelling of turns in output: `turn 3`, `turns 2–8` (0-based in, 1-based out). */
export function turnsLabel(from: number, to: number): string {
  return from === to ? `turn ${from + 1}` : `turns ${from + 1}–${to + 1}`;
}

/** Turns (0-based, any order) as a person reads them: "turn 2", "turns 1–3, 5". */
export function turnList(turns: readonly number[]): string {
  const runs: [number, number][] = [];
  for (const t of [...new Set(turns)].sort((a, b) => a - b)) {
    const last = runs.at(-1);
    if (last && last[1] === t - 1) last[1] = t;
    else runs.push([t, t]);
  }
  if (runs.length === 1) return turnsLabel(runs[0]![0], runs[0]![1]);
  return `turns ${runs.map(([a, b]) => (a === b ? `${a + 1}` : `${a + 1}–${b + 1}`)).join(", ")}`;
}
