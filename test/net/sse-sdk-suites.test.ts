// The cases of the official SDKs' own decoder suites, run against jp's
// decoder: the line decoder cases that anthropic-sdk-typescript and
// openai-node share (tests/internal/decoders/line.test.ts), openai-node's
// large-line cases (line-large.test.ts), and the event-level cases both keep
// in tests/streaming.test.ts. Inputs and expected outputs are theirs; a BOM
// case is added, which the format requires and their suites do not hold.
import { describe, expect, it } from "vitest";
import { LineDecoder, SseDecoder, type ServerSentEvent } from "../../src/net/sse.js";

function lines(pieces: readonly (string | Uint8Array)[], flush = false): string[] {
  const decoder = new LineDecoder();
  const out = pieces.flatMap((p) => decoder.decode(p));
  return flush ? [...out, ...decoder.flush()] : out;
}

function events(pieces: readonly (string | Uint8Array)[]): ServerSentEvent[] {
  const decoder = new SseDecoder();
  const out = pieces.flatMap((p) => decoder.push(p));
  decoder.end();
  return out;
}

const bytes = (...values: number[]) => Uint8Array.from(values);

/** [case name, pieces, flush at the end, lines expected] */
const LINE_CASES: [string, string[], boolean, string[]][] = [
  ["basic", ["foo", " bar\nbaz"], false, ["foo bar"]],
  ["basic with \\r", ["foo", " bar\r\nbaz"], false, ["foo bar"]],
  ["basic with \\r, flushed", ["foo", " bar\r\nbaz"], true, ["foo bar", "baz"]],
  ["trailing new lines", ["foo", " bar", "baz\n", "thing\n"], false, ["foo barbaz", "thing"]],
  ["trailing new lines with \\r", ["foo", " bar", "baz\r\n", "thing\r\n"], false, ["foo barbaz", "thing"]],
  ["escaped new lines", ["foo", " bar\\nbaz\n"], false, ["foo bar\\nbaz"]],
  ["escaped new lines with \\r", ["foo", " bar\\r\\nbaz\n"], false, ["foo bar\\r\\nbaz"]],
  ["\\r & \\n split across multiple chunks", ["foo\r", "\n", "bar"], true, ["foo", "bar"]],
  ["single \\r", ["foo\r", "bar"], true, ["foo", "bar"]],
  ["double \\r", ["foo\r", "bar\r"], true, ["foo", "bar"]],
  ["double \\r, a blank line between", ["foo\r", "\r", "bar"], true, ["foo", "", "bar"]],
  // The one case the two suites disagree on: anthropic-sdk-typescript holds a blank line ended by \r
  // until the next character ("an implementation detail", its test says) and expects ["foo"];
  // openai-node gives it at once. jp follows openai-node, whose decoder is the newer.
  ["double \\r, no flush (openai-node)", ["foo\r", "\r", "bar"], false, ["foo", ""]],
  ["a real empty line after a fragmented \\r\\n", ["foo\r", "\n\n", "bar\n"], false, ["foo", "", "bar"]],
  [
    "a real empty line after a fragmented \\r\\n, split again",
    ["foo\r", "\n", "\nbar\n"],
    false,
    ["foo", "", "bar"],
  ],
  ["double \\r then \\r\\n", ["foo\r", "\r", "\r", "\n", "bar", "\n"], false, ["foo", "", "", "bar"]],
  ["double \\n then \\n", ["foo\n", "\n", "\n", "bar", "\n"], false, ["foo", "", "", "bar"]],
  ["double newline in one piece", ["foo\n\nbar"], true, ["foo", "", "bar"]],
  ["double newline across pieces", ["foo", "\n", "\nbar"], true, ["foo", "", "bar"]],
  ["double newline, first piece ending in one", ["foo\n", "\n", "bar"], true, ["foo", "", "bar"]],
  ["double newline, each alone", ["foo", "\n", "\n", "bar"], true, ["foo", "", "bar"]],
  ["flushing trailing newlines", ["foo\n", "\nbar"], true, ["foo", "", "bar"]],
  ["flushing empty buffer", [], true, []],
];

describe("the SDKs' line decoder cases", () => {
  it.each(LINE_CASES)("%s", (_name, pieces, flush, expected) => {
    expect(lines(pieces, flush)).toEqual(expected);
  });

  it("multi-byte characters across chunks", () => {
    const decoder = new LineDecoder();
    expect(decoder.decode(bytes(0xd0))).toHaveLength(0);
    expect(decoder.decode(bytes(0xb8, 0xd0, 0xb7, 0xd0))).toHaveLength(0);
    expect(
      decoder.decode(bytes(0xb2, 0xd0, 0xb5, 0xd1, 0x81, 0xd1, 0x82, 0xd0, 0xbd, 0xd0, 0xb8)),
    ).toHaveLength(0);
    expect(decoder.decode(bytes(0x0a))).toEqual(["известни"]);
  });
});

it("gives a line ended by a trailing \\r at once and consumes the \\n that may follow (openai-node)", () => {
  const decoder = new LineDecoder();
  expect(decoder.decode("foo\r")).toEqual(["foo"]);
  expect(decoder.decode("")).toEqual([]);
  expect(decoder.decode("\nbar\r")).toEqual(["bar"]);
  expect(decoder.decode("\n")).toEqual([]);
  expect(decoder.flush()).toEqual([]);
});

describe("openai-node's large-line cases", () => {
  const MiB = 1024 * 1024;

  it.each(["bytes", "text"] as const)("accepts a large %s line", (kind) => {
    const text = `${"x".repeat(8 * MiB + 1)}😀é`;
    const piece = kind === "text" ? `${text}\r\n` : new TextEncoder().encode(`${text}\r\n`);
    expect(new LineDecoder().decode(piece)).toEqual([text]);
  });

  it("accepts a large fragmented, unterminated line", () => {
    const decoder = new LineDecoder();
    const piece = new Uint8Array(MiB).fill(0x61);
    for (let i = 0; i < 9; i++) expect(decoder.decode(piece)).toEqual([]);
    const flushed = decoder.flush();
    expect(flushed).toHaveLength(1);
    expect(flushed[0]!.length).toBe(9 * MiB);
    expect(decoder.flush()).toEqual([]);
  });

  it("preserves fragmented UTF-8 and CRLF after a large line", () => {
    const decoder = new LineDecoder();
    expect(decoder.decode("x".repeat(8 * MiB + 1))).toEqual([]);
    expect(decoder.decode(bytes(0xf0, 0x9f))).toEqual([]);
    const out = decoder.decode(bytes(0x98, 0x80, 0x0d));
    expect(out[0]?.endsWith("😀")).toBe(true);
    expect(decoder.decode("\nnext\r")).toEqual(["next"]);
    expect(decoder.decode("\n")).toEqual([]);
    expect(decoder.flush()).toEqual([]);
  });
});

describe("the SDKs' event decoding cases", () => {
  it("basic", () => {
    expect(events(["event: completion\n", 'data: {"foo":true}\n', "\n"])).toEqual([
      { event: "completion", data: '{"foo":true}' },
    ]);
  });

  it("data without event", () => {
    expect(events(['data: {"foo":true}\n', "\n"])).toEqual([{ data: '{"foo":true}' }]);
  });

  it("event without data", () => {
    expect(events(["event: foo\n", "\n"])).toEqual([{ event: "foo", data: "" }]);
  });

  it("multiple events", () => {
    expect(events(["event: foo\n", "\n", "event: ping\n", "\n"])).toEqual([
      { event: "foo", data: "" },
      { event: "ping", data: "" },
    ]);
  });

  it("multiple events with data", () => {
    expect(
      events(["event: foo\n", 'data: {"foo":true}\n', "\n", "event: ping\n", 'data: {"bar":false}\n', "\n"]),
    ).toEqual([
      { event: "foo", data: '{"foo":true}' },
      { event: "ping", data: '{"bar":false}' },
    ]);
  });

  it("multiple data lines with empty line", () => {
    const out = events([
      "event: ping\n",
      "data: {\n",
      'data: "foo":\n',
      "data: \n",
      "data:\n",
      "data: true}\n",
      "\n\n",
    ]);
    expect(out).toEqual([{ event: "ping", data: '{\n"foo":\n\n\ntrue}' }]);
    expect(JSON.parse(out[0]!.data)).toEqual({ foo: true });
  });

  it("data json escaped double new line", () => {
    const out = events(["event: ping\n", 'data: {"foo": "my long\\n\\ncontent"}', "\n\n"]);
    expect(JSON.parse(out[0]!.data)).toEqual({ foo: "my long\n\ncontent" });
  });

  it("special new line characters (U+2028 is not a line end)", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const out = events([
      enc('data: {"content": "culpa "}\n'),
      enc("\n"),
      enc('data: {"content": "'),
      bytes(0xe2, 0x80, 0xa8),
      enc('"}\n'),
      enc("\n"),
      enc('data: {"content": "foo"}\n'),
      enc("\n"),
    ]);
    expect(out.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { content: "culpa " },
      { content: "\u2028" },
      { content: "foo" },
    ]);
  });

  it("multi-byte characters across chunks", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const out = events([
      enc("event: completion\n"),
      enc('data: {"content": "'),
      bytes(0xd0),
      bytes(0xb8, 0xd0, 0xb7, 0xd0),
      bytes(0xb2, 0xd0, 0xb5, 0xd1, 0x81, 0xd1, 0x82, 0xd0, 0xbd, 0xd0, 0xb8),
      enc('"}\n'),
      enc("\n"),
    ]);
    expect(out).toEqual([{ event: "completion", data: '{"content": "известни"}' }]);
  });

  it("a byte order mark before the first event (the format strips it; the first event is kept)", () => {
    const bom = bytes(0xef, 0xbb, 0xbf);
    expect(events([bom, "event: message_start\ndata: {}\n\n"])).toEqual([
      { event: "message_start", data: "{}" },
    ]);
    expect(events(["\uFEFFdata: 1\n\n", "data: \uFEFF2\n\n"])).toEqual([{ data: "1" }, { data: "\uFEFF2" }]);
  });
});
