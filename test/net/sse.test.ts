import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SseDecoder, type ServerSentEvent } from "../../src/net/sse.js";

function decode(pieces: readonly string[]): ServerSentEvent[] {
  const decoder = new SseDecoder();
  const out = pieces.flatMap((p) => decoder.push(p));
  decoder.end();
  return out;
}

describe("SseDecoder", () => {
  it("reads named events, unnamed ones, multi-line data, comments and every line ending", () => {
    const stream =
      ": keep-alive\n" +
      'event: message_start\ndata: {"a":1}\n\n' +
      "data: first\r\ndata: second\r\n\r\n" +
      "event: ping\rdata:no-space\r\r" +
      "id: 7\nretry: 100\ndata: [DONE]\n\n";
    expect(decode([stream])).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { data: "first\nsecond" },
      { event: "ping", data: "no-space" },
      { data: "[DONE]" },
    ]);
  });

  it("dispatches a named event without data (as the SDKs do) and drops one the stream cut before its blank line", () => {
    expect(decode(["event: lonely\n\n", "\n", "data: kept\n\n", "data: cut"])).toEqual([
      { event: "lonely", data: "" },
      { data: "kept" },
    ]);
  });

  it("gives the same events however the stream is split into pieces", () => {
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "{", "é", "😀") }).map((s) => `data: ${s}`),
      fc.constantFrom("event: message_delta", ": comment", "data:", "id: 3"),
    );
    const event = fc.array(line, { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (events, eol, cuts) => {
          const text = events.map((lines) => lines.map((l) => l + eol).join("") + eol).join("");
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const bounds = [0, ...points, text.length];
          const pieces = bounds.slice(1).map((end, i) => text.slice(bounds[i], end));
          // Every event with a field had its blank line: none may be lost, whatever the cuts.
          const expected = events
            .filter((lines) => lines.some((l) => l.startsWith("data:") || l.startsWith("event:")))
            .map((lines) => lines.filter((l) => l.startsWith("data:")).map((l) => l.replace(/^data: ?/, "")))
            .map((data) => data.join("\n"));
          expect(decode(pieces).map((e) => e.data)).toEqual(expected);
        },
      ),
    );
  });
});
