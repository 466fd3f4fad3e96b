// Repairing what an interruption leaves: the last turn's unanswered tool calls.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkProviderView } from "../../src/compaction/index.js";
import {
  healProviderView,
  INTERRUPTED_TOOL_CALL,
  isKind,
  LOST_TOOL_RESULT,
  NO_TURN,
  repairInterruptedTurn,
  turnIndices,
  UNANSWERED_REQUEST,
  type Event,
} from "../../src/events/index.js";
import { compactedStream } from "../support/arbitrary.js";

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

/** The definition, over the whole log: what the tail-only repair must give. */
function repairsByDefinition(events: readonly Event[]): Event[] {
  const turns = turnIndices(events);
  const last = Math.max(-1, ...turns);
  const answered = new Set(events.flatMap((e) => (isKind(e, "tool_call_response") ? [e.id] : [])));
  const inLast = (i: number) => turns[i] === last && last !== NO_TURN;
  const unanswered = events.filter(
    (e, i) => inLast(i) && isKind(e, "tool_call_request") && !answered.has(e.id),
  ) as Extract<Event, { type: "tool_call_request" }>[];
  const repairs: Event[] = [...new Set(unanswered.map((e) => e.id))].map((id) => ({
    type: "tool_call_response",
    timestamp: at,
    id,
    content: INTERRUPTED_TOOL_CALL,
    is_error: true,
    metadata: { repair: "interrupted" },
  }));
  const lastEvents = events.filter((_, i) => inLast(i));
  const asked = lastEvents.some((e) => e.type === "chat_request");
  const replied = lastEvents.some((e) => e.type !== "turn_start" && e.type !== "chat_request");
  const marked = events.some((e) => isKind(e, "request_failed") && e.turn === last);
  if (asked && !replied && !marked)
    repairs.push({ type: "request_failed", timestamp: at, turn: last, reason: UNANSWERED_REQUEST });
  return repairs;
}

describe("repairInterruptedTurn on any log cut anywhere", () => {
  it("repairs what the whole log says is unanswered, looking only at the last turn", () => {
    fc.assert(
      fc.property(compactedStream, fc.nat(), fc.boolean(), ({ events }, cut, failed) => {
        // A kill can land between any two events; a failure mark may follow the cut.
        const log = events.slice(0, cut % (events.length + 1));
        const turns = turnIndices(log);
        const last = Math.max(-1, ...turns);
        if (failed && last >= 0) log.push({ type: "request_failed", timestamp: at, turn: last, reason: "x" });
        expect(repairInterruptedTurn(log, at)).toEqual(repairsByDefinition(log));
      }),
      { numRuns: 500 },
    );
  });
});

describe("healProviderView", () => {
  const start: Event = { type: "turn_start", timestamp: at };
  const ask: Event = { type: "chat_request", timestamp: at, content: "q" };
  it("leaves out a result whose call was lost and answers a call whose result was lost, right after it", () => {
    const events = [start, ask, result("gone"), call("a"), start, ask, call("b"), result("b")];
    const healed = healProviderView(events, { lastTurnFinished: true });
    expect(checkProviderView(events, { lastTurnFinished: true })).toHaveLength(2);
    expect(checkProviderView(healed, { lastTurnFinished: true })).toEqual([]);
    expect(healed.slice(2, 4)).toEqual([
      call("a"),
      { type: "tool_call_response", timestamp: at, id: "a", content: LOST_TOOL_RESULT, is_error: true },
    ]);
  });

  it("returns a view that lost nothing as it came, and leaves the last turn's open calls to a turn in progress", () => {
    const whole = [start, ask, call("a"), result("a")];
    expect(healProviderView(whole, { lastTurnFinished: true })).toBe(whole);
    const open = [start, ask, call("a")];
    expect(healProviderView(open, { lastTurnFinished: false })).toBe(open);
  });
});
