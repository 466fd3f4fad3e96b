import { beforeEach, describe, expect, it } from "vitest";
import { describeAnchorError, resolveAnchor } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { compaction, resetClock, STRIP, summary, turn } from "../support/stream.js";

beforeEach(resetClock);

const convo = () => [
  ...turn({
    request: "Set up the CSV parser project.",
    message: "Created src/csv.ts with a split-based parser.",
  }),
  ...turn({
    request: "Quoted fields break it.",
    tools: [
      {
        id: "a",
        name: "grep",
        args: { pattern: "split(',')" },
        result: "src/csv.ts:2: return line.split(',');",
      },
    ],
    message: "The split ignores quotes.",
  }),
  ...turn({ request: "Rewrite it with a state machine.", message: "Done, with “smart”   quotes handled." }),
  ...turn({ request: "Now add a delimiter option.", message: "Added a delimiter option to parseLine." }),
];

describe("resolveAnchor", () => {
  it("finds a quote that runs from the end of one assistant message into the next of the same turn", () => {
    const [start, request, ...rest] = turn({
      request: "Check the parser.",
      tools: [{ id: "g", name: "grep", result: "src/csv.ts:2" }],
      message: "Both fixed, and the tests pass.",
    });
    const first: Event = {
      type: "chat_response",
      timestamp: "2026-01-01T00:00:00Z",
      message: "I will look at the split first.",
    };
    const events = [...convo(), start!, request!, first, ...rest];
    expect(resolveAnchor(events, "look at the split first. Both fixed")).toEqual({
      ok: true,
      turn: 4,
      exact: false,
    });
  });

  it("finds a quote that runs from a message into a tool's output, and from the output into the next message", () => {
    const [start, request, ...rest] = turn({
      request: "Run the suite.",
      tools: [{ id: "t", name: "run_tests", args: { filter: "csv" }, result: "6 passing, 0 failing" }],
      message: "All green now.",
    });
    const first: Event = {
      type: "chat_response",
      timestamp: "2026-01-01T00:00:00Z",
      message: "I will run the suite now.",
    };
    const events = [...convo(), start!, request!, first, ...rest];
    // The message, then (over the call's arguments) its output; and the output into the next message.
    expect(resolveAnchor(events, "run the suite now. 6 passing")).toEqual({
      ok: true,
      turn: 4,
      exact: false,
    });
    expect(resolveAnchor(events, "0 failing All green now.")).toEqual({ ok: true, turn: 4, exact: false });
  });

  it("finds the raw turn of an exact quote in requests, messages, tool arguments and results", () => {
    expect(resolveAnchor(convo(), "Quoted fields break it")).toEqual({ ok: true, turn: 1, exact: true });
    expect(resolveAnchor(convo(), "state machine")).toEqual({ ok: true, turn: 2, exact: true });
    expect(resolveAnchor(convo(), "src/csv.ts:2: return")).toEqual({ ok: true, turn: 1, exact: true });
  });

  it("falls back to a match ignoring whitespace and typographic quotes", () => {
    expect(resolveAnchor(convo(), 'with "smart" quotes')).toEqual({ ok: true, turn: 2, exact: false });
  });

  it("reports an ambiguous quote with each candidate turn and an excerpt", () => {
    const result = resolveAnchor(convo(), "src/csv.ts");
    if (result.ok) throw new Error("expected ambiguity");
    expect(result.error).toMatchObject({ kind: "ambiguous", candidates: [{ turn: 0 }, { turn: 1 }] });
    expect(describeAnchorError("src/csv.ts", result.error)).toBe(
      'quote matches 2 turns: turn 1: "Set up the CSV parser project. Created src/csv.ts with a split-based parser."; ' +
        'turn 2: "…elds break it. {"pattern":"split(\',\')"} src/csv.ts:2: return line.split(\',\'); The split ig…". Quote a longer, distinctive passage.',
    );
  });

  it("reports a missing quote with the closest turns", () => {
    const result = resolveAnchor(convo(), "rewrite using a state machine please");
    if (result.ok) throw new Error("expected not found");
    expect(result.error.kind).toBe("not_found");
    expect(result.error.kind === "not_found" && result.error.closest[0]?.turn).toBe(2);
    expect(describeAnchorError("x", result.error)).toMatch(/^quote not found: "x"\. Closest turns: turn 3: /);
  });

  it("reports a quote inside a summary turn as already compacted", () => {
    const events = [
      ...convo(),
      compaction({
        from_turn: 0,
        to_turn: 1,
        summary: summary("We set up the parser and found the quoting bug."),
        id: "s1",
      }),
    ];
    const result = resolveAnchor(events, "found the quoting bug");
    expect(result).toEqual({
      ok: false,
      error: { kind: "already_compacted", from: 0, to: 1, compaction: "s1" },
    });
    // The raw text under the summary is no longer shown, so it is not found either.
    expect(resolveAnchor(events, "Quoted fields break it")).toMatchObject({
      ok: false,
      error: { kind: "not_found" },
    });
  });

  it("searches what the projection shows: stripped arguments no longer match", () => {
    const events = [...convo(), compaction({ from_turn: 1, to_turn: 1, tool_calls: STRIP })];
    expect(resolveAnchor(events, "src/csv.ts:2: return")).toMatchObject({
      ok: false,
      error: { kind: "not_found" },
    });
    expect(resolveAnchor(events, "[compacted] grep: success")).toEqual({ ok: true, turn: 1, exact: true });
  });

  it("rejects an empty quote", () => {
    expect(resolveAnchor(convo(), "  ")).toEqual({ ok: false, error: { kind: "empty" } });
  });
});
