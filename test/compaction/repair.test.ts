// Repairing what an interruption leaves: the last turn's unanswered tool calls.
import { describe, expect, it } from "vitest";
import {
  INTERRUPTED_TOOL_CALL,
  repairInterruptedTurn,
  UNANSWERED_REQUEST,
} from "../../src/compaction/index.js";
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

describe("repairInterruptedTurn", () => {
  it("answers each unanswered call of the last turn with an interrupted error, in call order", () => {
    const events: Event[] = [
      { type: "turn_start", timestamp: at },
      { type: "chat_request", timestamp: at, content: "q" },
      call("a"),
      result("a"),
      call("b"),
      call("c"),
    ];
    expect(repairInterruptedTurn(events, at)).toEqual(
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
    // The earlier call stays unanswered; the last turn's question, never answered, is marked failed.
    expect(repairInterruptedTurn(earlier, at)).toEqual([
      { type: "request_failed", timestamp: at, turn: 1, reason: UNANSWERED_REQUEST },
    ]);
    expect(
      repairInterruptedTurn([{ type: "turn_start", timestamp: at }, call("a"), result("a")], at),
    ).toEqual([]);
  });
});
