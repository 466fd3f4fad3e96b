import { describe, expect, it } from "vitest";
import { capToolOutputs, cutOutput } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";

const ts = "2026-01-01T00:00:00Z";

describe("cutOutput", () => {
  it("leaves an output within the cap alone, however many characters it has", () => {
    expect(cutOutput("x".repeat(100), 100)).toBeUndefined();
    expect(cutOutput("é".repeat(50), 100)).toBeUndefined();
  });

  it("keeps half the cap from the head and half from the tail, never splitting a character", () => {
    const text = "é".repeat(100); // 200 bytes
    const cut = cutOutput(text, 101)!;
    expect(Buffer.byteLength(cut.head)).toBeLessThanOrEqual(50);
    expect(Buffer.byteLength(cut.tail)).toBeLessThanOrEqual(51);
    expect(cut.head).toBe("é".repeat(25));
    expect(cut.tail).toBe("é".repeat(25));
    // The middle, in characters of the whole: head + middle + tail is the output.
    expect(cut.head + text.slice(cut.offset, cut.offset + cut.length) + cut.tail).toBe(text);
  });
});

describe("capToolOutputs", () => {
  const events: Event[] = [
    { type: "turn_start", timestamp: ts },
    { type: "chat_request", timestamp: ts, content: "go" },
    { type: "tool_call_request", timestamp: ts, id: "a", name: "small", arguments: {} },
    { type: "tool_call_response", timestamp: ts, id: "a", content: "y".repeat(500), is_error: false },
    { type: "tool_call_request", timestamp: ts, id: "b", name: "big", arguments: {} },
    { type: "tool_call_response", timestamp: ts, id: "b", content: "z".repeat(500), is_error: true },
  ];

  it("cuts each output to its own tool's cap, with a byte-stable marker, and leaves the rest as they are", () => {
    const caps = (name: string) => (name === "big" ? 100 : 1000);
    const once = capToolOutputs(events, caps);
    expect(once.cut).toBe(1);
    expect(once.events[3]).toBe(events[3]);
    expect(once.events[5]).toEqual({
      type: "tool_call_response",
      timestamp: ts,
      id: "b",
      is_error: true,
      content: `${"z".repeat(50)}\n[… 400 of 500 characters cut from the middle of this output; recall {"call":"b","offset":50,"length":400} reads them]\n${"z".repeat(50)}`,
    });
    expect(capToolOutputs(events, caps)).toEqual(once);
  });

  it("returns the very view when nothing is over its cap", () => {
    const same = capToolOutputs(events, () => 10_000);
    expect(same).toEqual({ events, cut: 0 });
    expect(same.events).toBe(events);
  });
});
