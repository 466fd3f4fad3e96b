// Owns which events a fork copies.
import type { Event } from "./kinds.js";
import { NO_TURN, turnCount, turnIndices } from "./turns.js";

/**
 * The events of a fork. The whole stream is copied verbatim; with `lastTurns`
 * only the last N turns are kept, with every configuration change (so the fork
 * runs with the same settings). Compactions and resets are left behind then,
 * because their turn numbers refer to the original's turns.
 */
export function forkEvents(events: readonly Event[], lastTurns?: number): Event[] {
  if (lastTurns === undefined) return [...events];
  const firstKept = Math.max(0, turnCount(events) - lastTurns);
  const turns = turnIndices(events);
  return events.filter((e, i) => {
    const t = turns[i]!;
    if (t !== NO_TURN) return t >= firstKept;
    return e.type !== "compaction" && e.type !== "compaction_reset";
  });
}
