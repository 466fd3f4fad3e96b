import { describe, expect, it } from "vitest";
import {
  groupTurns,
  NO_TURN,
  turnCount,
  turnIndices,
  UnknownEvent,
  type Event,
} from "../../src/events/index.js";

const ts = "2026-01-01T00:00:00Z";
const start: Event = { type: "turn_start", timestamp: ts };
const req = (content: string): Event => ({ type: "chat_request", timestamp: ts, content });
const msg = (message: string): Event => ({ type: "chat_response", timestamp: ts, message });
const delta: Event = { type: "config_delta", timestamp: ts, delta: {} };
const compaction: Event = {
  type: "compaction",
  timestamp: ts,
  id: "c1",
  from_turn: 0,
  to_turn: 0,
  source: "user",
};
const unknown: Event = new UnknownEvent({ type: "future_kind", timestamp: ts, x: 1 });

describe("turn indexing", () => {
  it("puts events before the first turn_start in an implicit turn 0", () => {
    expect(turnIndices([req("a"), msg("b"), start, req("c")])).toEqual([0, 0, 1, 1]);
  });

  it("does not open a new turn when the first turn_start finds turn 0 empty", () => {
    expect(turnIndices([start, req("a"), msg("b")])).toEqual([0, 0, 0]);
    expect(turnCount([start, req("a")])).toBe(1);
  });

  it("treats a stream without any turn_start as one turn", () => {
    expect(turnIndices([req("a"), msg("b"), req("c"), msg("d")])).toEqual([0, 0, 0, 0]);
    expect(turnCount([req("a"), msg("b"), req("c")])).toBe(1);
  });

  it("opens a new turn at each turn_start once the current turn holds an event", () => {
    expect(turnIndices([start, req("a"), start, req("b"), start, req("c")])).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it("counts a turn holding only a turn_start as holding an event", () => {
    expect(turnIndices([start, start, req("a")])).toEqual([0, 1, 1]);
  });

  it("gives global entries no turn and never lets them open or fill one", () => {
    const events = [delta, start, req("a"), compaction, unknown, start, req("b")];
    expect(turnIndices(events)).toEqual([NO_TURN, 0, 0, NO_TURN, NO_TURN, 1, 1]);
    // Only global entries before a turn_start: turn 0 is still empty, so the turn_start joins it.
    expect(turnIndices([delta, compaction, start, req("a")])).toEqual([NO_TURN, NO_TURN, 0, 0]);
  });

  it("counts no turns in an empty or global-only stream", () => {
    expect(turnCount([])).toBe(0);
    expect(turnCount([delta, unknown])).toBe(0);
  });

  it("groups turn events and leaves global entries out", () => {
    const turns = groupTurns([req("a"), delta, start, req("b"), msg("c")]);
    expect(turns.map((t) => [t.index, t.events.length])).toEqual([
      [0, 1],
      [1, 3],
    ]);
  });
});
