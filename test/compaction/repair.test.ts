// Repairing what an interruption leaves: the last turn's unanswered tool calls.
import { describe, expect, it } from "vitest";
import { INTERRUPTED_TOOL_CALL, repairDanglingToolCalls } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";

const at = "2026-01-01T00:00:09Z";
const call = (id: string): Event => ({
  type: "tool_call_request",
  timestamp: at,
  id,
  name: "grep",
  arguments: {},
});
const result = (id: string): Event => ({
  type: "tool_call_response",
  timestamp: at,
  id,
  content: "ok",
  is_error: false,
});

describe("repairDanglingToolCalls", () => {
  it("answers each unanswered call of the last turn with an interrupted error, in call order", () => {
    const events: Event[] = [
      { type: "turn_start", timestamp: at },
      { type: "chat_request", timestamp: at, content: "q" },
      call("a"),
      result("a"),
      call("b"),
      call("c"),
    ];
    expect(repairDanglingToolCalls(events, at)).toEqual(
      ["b", "c"].map((id) => ({
        type: "tool_call_response",
        timestamp: at,
        id,
        content: INTERRUPTED_TOOL_CALL,
        is_error: true,
        metadata: { repair: "interrupted" },
      })),
    );
  });

  it("leaves earlier turns alone and has nothing to do for a complete log", () => {
    const earlier: Event[] = [
      { type: "turn_start", timestamp: at },
      call("lost"),
      { type: "turn_start", timestamp: at },
      { type: "chat_request", timestamp: at, content: "q2" },
    ];
    expect(repairDanglingToolCalls(earlier, at)).toEqual([]);
    expect(
      repairDanglingToolCalls([{ type: "turn_start", timestamp: at }, call("a"), result("a")], at),
    ).toEqual([]);
  });
});
