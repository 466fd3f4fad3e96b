import { beforeEach, describe, expect, it } from "vitest";
import { checkProviderView, describeViewProblem } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { at, resetClock, turn } from "../support/stream.js";

beforeEach(resetClock);

describe("checkProviderView", () => {
  it("accepts a well-formed stream", () => {
    expect(
      checkProviderView([...turn({ request: "q", tools: [{ id: "a", name: "grep" }] }), ...turn("t2")]),
    ).toEqual([]);
  });

  it("flags a response without an earlier request", () => {
    const events: Event[] = [
      { type: "chat_request", timestamp: at(0), content: "q" },
      { type: "tool_call_response", timestamp: at(1), id: "x", content: "c", is_error: false },
      { type: "tool_call_request", timestamp: at(2), id: "x", name: "n", arguments: {} },
    ];
    expect(checkProviderView(events)).toEqual([{ kind: "orphan_response", turn: 0, id: "x" }]);
  });

  it("flags an unanswered request in a finished turn, and in the last turn only when asked", () => {
    const open: Event[] = [
      { type: "chat_request", timestamp: at(0), content: "q" },
      { type: "tool_call_request", timestamp: at(1), id: "x", name: "n", arguments: {} },
    ];
    expect(checkProviderView(open)).toEqual([]);
    expect(checkProviderView(open, { lastTurnFinished: true })).toEqual([
      { kind: "missing_response", turn: 0, id: "x" },
    ]);
    expect(checkProviderView([...open, ...turn("next")])).toEqual([
      { kind: "missing_response", turn: 0, id: "x" },
    ]);
  });

  it("flags a turn with nothing a model can see", () => {
    const events: Event[] = [...turn("t1"), { type: "turn_start", timestamp: at(50) }, ...turn("t3")];
    const problems = checkProviderView(events);
    expect(problems).toEqual([{ kind: "empty_turn", turn: 1 }]);
    expect(describeViewProblem(problems[0]!)).toBe("turn 2 has nothing a model can see");
  });
});
