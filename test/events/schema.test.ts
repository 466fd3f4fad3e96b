import { describe, expect, it } from "vitest";
import { kindOf, UnknownEvent, validateEvent } from "../../src/events/index.js";
import { stringContaining } from "../support/matchers.js";

const ts = "2026-01-01T00:00:00Z";

describe("validateEvent", () => {
  it("returns the input object itself, unknown fields included", () => {
    const value = { type: "chat_request", timestamp: ts, content: "hi", extra: { nested: [1] } };
    const result = validateEvent(value);
    expect(result.ok && result.event).toBe(value);
  });

  it("accepts unknown kinds as they are", () => {
    const value = { type: "something_new", payload: 1 };
    const result = validateEvent(value);
    // Wrapped, so that it never passes for a known kind; the line's own object is kept.
    expect(result.ok && result.event).toBeInstanceOf(UnknownEvent);
    expect(result.ok && result.event instanceof UnknownEvent && result.event.raw).toBe(value);
    expect(result.ok && kindOf(result.event)).toBe("something_new");
    expect(result.ok && JSON.stringify(result.event)).toBe(JSON.stringify(value));
  });

  it("rejects a known kind missing a required field, naming the field", () => {
    const result = validateEvent({ type: "tool_call_request", timestamp: ts, id: "1", arguments: {} });
    expect(result).toEqual({ ok: false, reason: stringContaining("`name`") });
  });

  it("rejects a chat_response holding two contents", () => {
    const result = validateEvent({ type: "chat_response", timestamp: ts, message: "a", reasoning: "b" });
    expect(result.ok).toBe(false);
  });

  it("validates every field of a compaction", () => {
    const good = {
      type: "compaction",
      timestamp: ts,
      id: "k1",
      from_turn: 1,
      to_turn: 3,
      to_call: "call_9",
      summary: { text: "s", source: "supplied", author: "assistant" },
      reasoning: "strip",
      tool_calls: { policy: "strip", request: true, response: false },
      tool_overrides: { search: { policy: "omit" } },
      deferred_until_turn: 5,
      source: "assistant",
      note: "why",
      stats: { tokens_before: 10, tokens_after: 5 },
    };
    expect(validateEvent(good).ok).toBe(true);
    expect(validateEvent({ ...good, tool_calls: { policy: "shred" } }).ok).toBe(false);
    expect(validateEvent({ ...good, from_turn: -1 }).ok).toBe(false);
    expect(validateEvent({ ...good, note: "x".repeat(201) }).ok).toBe(false);
  });

  it("rejects non-objects and objects without a type", () => {
    expect(validateEvent([1]).ok).toBe(false);
    expect(validateEvent({ timestamp: ts }).ok).toBe(false);
  });
});
