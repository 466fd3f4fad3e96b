// Owns which compactions are in force: not reset, not deferred (docs/architecture.md §5.1),
// and their "latest wins" order.
import type { Compaction, Event } from "../events/index.js";
import { isKind, TurnCounter } from "../events/index.js";
import { timestampKey } from "./policy.js";

export type CompactionState =
  { kind: "active" } | { kind: "deferred"; untilTurn: number } | { kind: "reset"; byIndex: number };

export interface CompactionEntry {
  event: Compaction;
  /** Index of the compaction event in the raw stream. */
  position: number;
  /** 1-based number in stream order, as `show` lists it and `--reset=N` takes it. */
  number: number;
  /** The raw turn in progress when it was recorded (-1 before any turn). */
  recordedInTurn: number;
  state: CompactionState;
}

export interface CompactionIndex {
  entries: CompactionEntry[];
  /** Number of raw turns in the stream. */
  turnCount: number;
}

/**
 * Builds the compaction index event by event, for one pass over a stream that
 * is read once (a log as it streams): `add` each event with its position and
 * the turns counted so far, then `finish` with the stream's turn count.
 */
export class CompactionIndexer {
  private readonly entries: CompactionEntry[] = [];

  add(event: Event, position: number, turnsSoFar: number): void {
    if (isKind(event, "compaction")) {
      this.entries.push({
        event,
        position,
        number: this.entries.length + 1,
        recordedInTurn: turnsSoFar - 1,
        state: { kind: "active" },
      });
    } else if (isKind(event, "compaction_reset")) {
      const ids = event.ids;
      for (const entry of this.entries) {
        if (entry.state.kind === "reset") continue;
        if (ids === undefined || ids.includes(entry.event.id))
          entry.state = { kind: "reset", byIndex: position };
      }
    }
  }

  finish(turnCount: number): CompactionIndex {
    const highestTurn = turnCount - 1;
    for (const entry of this.entries) {
      const until = entry.event.deferred_until_turn;
      if (entry.state.kind === "active" && until !== undefined && highestTurn < until) {
        entry.state = { kind: "deferred", untilTurn: until };
      }
    }
    return { entries: this.entries, turnCount };
  }
}

/** Every compaction in the stream with its state, in stream order. */
export function indexCompactions(events: Iterable<Event>): CompactionIndex {
  const indexer = new CompactionIndexer();
  const counter = new TurnCounter();
  let position = 0;
  for (const event of events) {
    counter.next(event);
    indexer.add(event, position++, counter.count);
  }
  return indexer.finish(counter.count);
}

/** Active compactions ordered newest first: latest timestamp, then later in the stream. */
export function newestFirst(entries: readonly CompactionEntry[]): CompactionEntry[] {
  return entries
    .filter((e) => e.state.kind === "active")
    .map((e) => ({ e, key: timestampKey(e.event.timestamp) }))
    .sort((a, b) => b.key - a.key || b.e.position - a.e.position)
    .map(({ e }) => e);
}
