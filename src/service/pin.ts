// Owns pinning a turn: the pin event appended (or its undoing), checked
// against the conversation first. No compaction changes a pinned turn.
import { TurnCounter, type Event, type Pin } from "../events/index.js";
import { JpError } from "../errors.js";
import { streamShape } from "../compaction/index.js";

/** The pin event for 1-based `turn`, or the error saying why there is none to make. */
export function pinEvent(
  events: readonly Event[],
  turn: number,
  pinned: boolean,
  options: { timestamp: string; note?: string },
): Pin {
  const counter = new TurnCounter();
  for (const e of events) counter.next(e);
  const count = counter.count;
  if (!Number.isInteger(turn) || turn < 1 || turn > count)
    throw new JpError("pin.no_turn", `there is no turn ${turn}: the conversation has turns 1-${count}`, {
      hint: "`jp conversation print` numbers the turns",
      exitCode: 2,
    });
  const already = streamShape(events).pinned.has(turn - 1);
  if (already === pinned)
    throw new JpError("pin.unchanged", `turn ${turn} is ${pinned ? "already pinned" : "not pinned"}`, {
      exitCode: 2,
    });
  return {
    type: "pin",
    timestamp: options.timestamp,
    turn: turn - 1,
    pinned,
    source: "user",
    ...(options.note ? { note: options.note } : {}),
  };
}

/** The pinned turns, 1-based, ascending. */
export function pinnedTurns(events: readonly Event[]): number[] {
  return [...streamShape(events).pinned].map((t) => t + 1).sort((a, b) => a - b);
}
