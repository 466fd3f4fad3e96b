import { beforeEach, describe, expect, it } from "vitest";
import { isWorkRecord, project, SUMMARY_SHOWN_ABOVE } from "../../src/compaction/index.js";
import { groupTurns, kindOf, UnknownEvent, type Event } from "../../src/events/index.js";
import { at, compaction, KEEP, OMIT, resetClock, STRIP, summary, turn, turns } from "../support/stream.js";

beforeEach(resetClock);

const kept = (...ts: number[]) => ts.map((t) => ({ kind: "kept", turn: t }));
/** The texts of a view, the records of the work left out (test/compaction/record.test.ts holds them). */
const texts = (events: Event[]) =>
  events.flatMap((e) =>
    isWorkRecord(e)
      ? []
      : e.type === "chat_request"
        ? [e.content]
        : e.type === "chat_response" && e.message
          ? [e.message]
          : [],
  );

/** A stripped response's placeholder: how it ended, and the recall call that reads it whole. */
const compacted = (name: string, outcome: string) =>
  expect.stringMatching(
    new RegExp(`^\\[compacted\\] ${name}: ${outcome}; recall \\{"call":"[^"]+"\\} reads it$`),
  ) as unknown as string;

describe("project", () => {
  it("is a no-op without compactions and returns kept origins", () => {
    const events = turns(3);
    const p = project(events);
    expect(p.events).toEqual(events);
    expect(p.turns.map((turn) => turn.origin)).toEqual(kept(0, 1, 2));
  });

  it("says where each compaction's reach ends, each in its own right, for the prompt cache", () => {
    expect(project(turns(3)).settled).toEqual([]);
    // turns of 4 events: turn_start, request, tool call request, its response (then the message).
    const tool = (n: number) =>
      turn({ request: `q${n}`, tools: [{ id: `a${n}`, name: "grep" }], message: `m${n}` });
    const raw = [...tool(1), ...tool(2), ...tool(3), ...tool(4)];
    const first = compaction({ from_turn: 0, to_turn: 1, tool_calls: STRIP, id: "first" });
    // The newer compaction covers what the first did and reaches further: the first's reach still counts.
    const second = compaction({ from_turn: 0, to_turn: 2, tool_calls: STRIP, id: "second" });
    const p = project([...raw, first, second]);
    const responseAt = (id: string) =>
      p.events.findIndex((e) => e.type === "tool_call_response" && e.id === id) + 1;
    expect(p.settled).toEqual([responseAt("a2"), responseAt("a3")]);
    // The prefix up to the first's reach is the same with or without the second.
    const before = project([...raw, first]);
    expect(before.settled).toEqual([responseAt("a2")]);
    expect(p.events.slice(0, responseAt("a2"))).toEqual(before.events.slice(0, responseAt("a2")));
    // A summary settles through its turns; nothing a compaction does not touch counts.
    const summarized = project([...raw, compaction({ from_turn: 0, to_turn: 0, summary: summary("S") })]);
    expect(summarized.settled).toEqual([3]);
  });

  it("keeps raw numbers in summary origins: 6 turns, summary over 2..5", () => {
    const events = [...turns(6), compaction({ from_turn: 1, to_turn: 4, summary: summary("S"), id: "s1" })];
    const p = project(events);
    expect(p.turns.map((turn) => turn.origin)).toEqual([
      { kind: "kept", turn: 0 },
      { kind: "summary", from: 1, to: 4, compaction: "s1" },
      { kind: "kept", turn: 5 },
    ]);
    expect(texts(p.events)).toEqual([
      "t1",
      "answer to t1",
      '[Summary of previous conversation: turns 2-5; recall {"turns":"2-5"} reads them]',
      "S",
      "t6",
      "answer to t6",
    ]);
  });

  it("injects a summary turn as turn_start, the summary request and the text", () => {
    const events = [...turns(2), compaction({ from_turn: 0, to_turn: 0, summary: summary("the gist") })];
    const injected = groupTurns(project(events).events)[0]!.events;
    expect(injected.map((e) => e.type)).toEqual(["turn_start", "chat_request", "chat_response"]);
    expect(injected[1]).toMatchObject({
      content: '[Summary of previous conversation: turn 1; recall {"turns":"1"} reads it]',
    });
    expect(injected[2]).toMatchObject({ message: "the gist" });
  });

  it("shows an older summary once around a newer summary contained in it, and points back to it after", () => {
    const events = [
      ...turns(10),
      compaction({ from_turn: 0, to_turn: 9, summary: summary("OLD"), id: "old" }),
      compaction({ from_turn: 3, to_turn: 5, summary: summary("NEW"), id: "new" }),
    ];
    const p = project(events);
    expect(p.turns.map((turn) => turn.origin)).toEqual([
      { kind: "summary", from: 0, to: 2, compaction: "old" },
      { kind: "summary", from: 3, to: 5, compaction: "new" },
      { kind: "summary", from: 6, to: 9, compaction: "old" },
    ]);
    // Each marker names the turns its summary covers, the same wherever it is injected.
    const old = '[Summary of previous conversation: turns 1-10; recall {"turns":"1-10"} reads them]';
    const inner = '[Summary of previous conversation: turns 4-6; recall {"turns":"4-6"} reads them]';
    expect(texts(p.events)).toEqual([old, "OLD", inner, "NEW", old, SUMMARY_SHOWN_ABOVE]);
  });

  it("shows a summary once when a pinned turn splits its range", () => {
    const events: Event[] = [
      ...turns(5),
      { type: "pin", timestamp: at(100), turn: 2, pinned: true },
      compaction({ from_turn: 0, to_turn: 4, summary: summary("SUM"), id: "s" }),
    ];
    const p = project(events);
    expect(p.turns.map((turn) => turn.origin)).toEqual([
      { kind: "summary", from: 0, to: 1, compaction: "s" },
      { kind: "kept", turn: 2 },
      { kind: "summary", from: 3, to: 4, compaction: "s" },
    ]);
    expect(texts(p.events).filter((t) => t === "SUM")).toHaveLength(1);
    expect(texts(p.events).at(-1)).toBe(SUMMARY_SHOWN_ABOVE);
  });

  it("keeps identical summary texts from two compactions as two turns", () => {
    const events = [
      ...turns(4),
      compaction({ from_turn: 0, to_turn: 1, summary: summary("same"), id: "a" }),
      compaction({ from_turn: 2, to_turn: 3, summary: summary("same"), id: "b" }),
    ];
    const p = project(events);
    expect(p.turns.map((turn) => turn.origin)).toEqual([
      { kind: "summary", from: 0, to: 1, compaction: "a" },
      { kind: "summary", from: 2, to: 3, compaction: "b" },
    ]);
    expect(groupTurns(p.events)).toHaveLength(2);
  });

  it("lets a summary beat every mechanical policy on its turns, whatever their age", () => {
    const events = [
      ...turns(3),
      compaction({ from_turn: 0, to_turn: 2, summary: summary("S"), id: "s" }),
      compaction({ from_turn: 0, to_turn: 2, reasoning: "strip", tool_calls: STRIP }),
    ];
    expect(project(events).turns.map((turn) => turn.origin)).toEqual([
      { kind: "summary", from: 0, to: 2, compaction: "s" },
    ]);
  });

  it("strips reasoning and its signature", () => {
    const events = [
      ...turn({ request: "q", reasoning: "thinking", message: "a" }),
      compaction({ from_turn: 0, to_turn: 0, reasoning: "strip" }),
    ];
    const p = project(events);
    expect(p.events.some((e) => e.type === "chat_response" && e.reasoning !== undefined)).toBe(false);
    expect(JSON.stringify(p.events)).not.toContain("sig");
    expect(p.stats.reasoningStripped).toBe(1);
  });

  it("strips whole reasoning blocks: each of several, redacted ones included, never a provider's other blocks", () => {
    const [start, request, ...rest] = turn({ request: "q", message: "a" });
    const block = (extra: Partial<Extract<Event, { type: "chat_response" }>>): Event => ({
      type: "chat_response",
      timestamp: at(1),
      ...extra,
    });
    const events: Event[] = [
      start!,
      request!,
      block({ reasoning: "first", metadata: { anthropic_thinking_signature: "sig-1" } }),
      block({ reasoning: "", metadata: { anthropic_redacted_thinking: "opaque" } }),
      block({ reasoning: "second", metadata: { anthropic_thinking_signature: "sig-2" } }),
      block({ data: { type: "web_search_tool_result", content: [] }, metadata: { anthropic_block: true } }),
      ...rest,
      compaction({ from_turn: 0, to_turn: 0, reasoning: "strip" }),
    ];
    const p = project(events);
    expect(p.stats.reasoningStripped).toBe(3);
    expect(JSON.stringify(p.events)).not.toMatch(/sig-|opaque/);
    expect(p.events.filter((e) => e.type === "chat_response").map((e) => Object.keys(e).sort())).toEqual([
      ["data", "metadata", "timestamp", "type"],
      ["message", "timestamp", "type"],
    ]);
  });

  it("strips tool calls with the exact placeholders, keeping the error flag", () => {
    const events = [
      ...turn({
        request: "q",
        tools: [
          { id: "a", name: "grep", args: { pattern: "x" } },
          { id: "b", name: "run", error: true },
        ],
      }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }),
    ];
    const tools = project(events).events.filter(
      (e) => e.type === "tool_call_request" || e.type === "tool_call_response",
    );
    expect(tools.map((e) => ({ ...e, timestamp: undefined }))).toEqual([
      { type: "tool_call_request", id: "a", name: "grep", arguments: {}, timestamp: undefined },
      {
        type: "tool_call_response",
        id: "a",
        content: '[compacted] grep: success; recall {"call":"a"} reads it',
        is_error: false,
        timestamp: undefined,
      },
      { type: "tool_call_request", id: "b", name: "run", arguments: {}, timestamp: undefined },
      {
        type: "tool_call_response",
        id: "b",
        content: '[compacted] run: error; recall {"call":"b"} reads it',
        is_error: true,
        timestamp: undefined,
      },
    ]);
  });

  it("strips only the half a strip policy names", () => {
    const base = turn({ request: "q", tools: [{ id: "a", name: "grep", args: { p: 1 }, result: "big" }] });
    const reqOnly = project([
      ...base,
      compaction({
        from_turn: 0,
        to_turn: 0,
        tool_calls: { policy: "strip", request: true, response: false },
      }),
    ]);
    expect(reqOnly.events.find((e) => e.type === "tool_call_request")).toMatchObject({ arguments: {} });
    expect(reqOnly.events.find((e) => e.type === "tool_call_response")).toMatchObject({ content: "big" });
    const resOnly = project([
      ...base,
      compaction({
        from_turn: 0,
        to_turn: 0,
        tool_calls: { policy: "strip", request: false, response: true },
      }),
    ]);
    expect(resOnly.events.find((e) => e.type === "tool_call_request")).toMatchObject({ arguments: { p: 1 } });
    expect(resOnly.events.find((e) => e.type === "tool_call_response")).toMatchObject({
      content: compacted("grep", "success"),
    });
  });

  it("omits tool calls, request and response both", () => {
    const events = [
      ...turn({ request: "q", tools: [{ id: "a", name: "grep" }], message: "m" }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: OMIT }),
    ];
    expect(project(events).events.map((e) => e.type)).toEqual([
      "turn_start",
      "chat_request",
      "chat_response",
    ]);
  });

  it("names the tool 'unknown' when a stripped response has no request", () => {
    const events: Event[] = [
      { type: "turn_start", timestamp: at(0) },
      { type: "chat_request", timestamp: at(1), content: "q" },
      { type: "tool_call_response", timestamp: at(2), id: "ghost", content: "x", is_error: false },
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 3),
    ];
    expect(project(events).events.at(-1)).toMatchObject({ content: compacted("unknown", "success") });
  });

  it("applies tool_overrides[name] before tool_calls; a keep override keeps that tool intact", () => {
    const events = [
      ...turn({
        request: "q",
        tools: [
          { id: "a", name: "plan", args: { step: 1 }, result: "plan text" },
          { id: "b", name: "grep" },
          { id: "c", name: "noise" },
        ],
      }),
      compaction({
        from_turn: 0,
        to_turn: 0,
        tool_calls: STRIP,
        tool_overrides: { plan: KEEP, noise: OMIT },
      }),
    ];
    const p = project(events).events;
    expect(p.find((e) => e.type === "tool_call_request" && e.id === "a")).toMatchObject({
      arguments: { step: 1 },
    });
    expect(p.find((e) => e.type === "tool_call_response" && e.id === "a")).toMatchObject({
      content: "plan text",
    });
    expect(p.find((e) => e.type === "tool_call_response" && e.id === "b")).toMatchObject({
      content: compacted("grep", "success"),
    });
    expect(p.some((e) => "id" in e && e.id === "c")).toBe(false);
  });

  it("gives a compaction with only an override an opinion on that tool alone", () => {
    const events = [
      ...turn({
        request: "q",
        tools: [
          { id: "a", name: "search" },
          { id: "b", name: "grep" },
        ],
      }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 100),
      compaction({ from_turn: 0, to_turn: 0, tool_overrides: { search: KEEP } }, 101),
    ];
    const p = project(events).events;
    expect(p.find((e) => e.type === "tool_call_response" && e.id === "a")).toMatchObject({
      content: "result of a",
    });
    expect(p.find((e) => e.type === "tool_call_response" && e.id === "b")).toMatchObject({
      content: compacted("grep", "success"),
    });
  });

  it("lets a later strip beat an earlier omit for the same turn", () => {
    const events = [
      ...turn({ request: "q", tools: [{ id: "a", name: "grep" }] }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: OMIT }, 100),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 101),
    ];
    expect(project(events).events.find((e) => e.type === "tool_call_response")).toMatchObject({
      content: compacted("grep", "success"),
    });
  });

  it("decides by timestamp, not stream order, and by stream order on equal timestamps", () => {
    const base = turn({ request: "q", tools: [{ id: "a", name: "grep" }] });
    const newerFirst = [
      ...base,
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 200),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: OMIT }, 100),
    ];
    expect(project(newerFirst).events.some((e) => e.type === "tool_call_response")).toBe(true);
    const tie = [
      ...base,
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 100),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: OMIT }, 100),
    ];
    expect(project(tie).events.some((e) => e.type === "tool_call_response")).toBe(false);
  });

  it("leaves an earlier tool strip in force under a later reasoning-only compaction", () => {
    const events = [
      ...turn({ request: "q", reasoning: "r", tools: [{ id: "a", name: "grep" }] }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }, 100),
      compaction({ from_turn: 0, to_turn: 0, reasoning: "strip" }, 101),
    ];
    const p = project(events).events;
    expect(p.find((e) => e.type === "tool_call_response")).toMatchObject({
      content: compacted("grep", "success"),
    });
    expect(p.some((e) => e.type === "chat_response" && e.reasoning)).toBe(false);
  });

  it("clamps ranges past the end of the stream", () => {
    const events = [...turns(3), compaction({ from_turn: 1, to_turn: 50, summary: summary("S"), id: "s" })];
    expect(project(events).turns.map((turn) => turn.origin)).toEqual([
      { kind: "kept", turn: 0 },
      { kind: "summary", from: 1, to: 2, compaction: "s" },
    ]);
    const beyond = [...turns(2), compaction({ from_turn: 5, to_turn: 9, summary: summary("S") })];
    expect(project(beyond).turns.map((turn) => turn.origin)).toEqual(kept(0, 1));
  });

  it("keeps a deferred compaction invisible until the turn count reaches it, then applies it", () => {
    const c = compaction({
      from_turn: 0,
      to_turn: 0,
      summary: summary("S"),
      deferred_until_turn: 2,
      id: "d",
    });
    const before = [...turns(2), c];
    expect(project(before).turns.map((turn) => turn.origin)).toEqual(kept(0, 1));
    const after = [...before, ...turn("t3")];
    expect(project(after).turns.map((turn) => turn.origin)).toEqual([
      { kind: "summary", from: 0, to: 0, compaction: "d" },
      ...kept(1, 2),
    ]);
  });

  it("hides the compactions a reset names, and only those; a reset without ids hides all before it", () => {
    const a = compaction({ from_turn: 0, to_turn: 0, summary: summary("A"), id: "a" });
    const b = compaction({ from_turn: 1, to_turn: 1, summary: summary("B"), id: "b" });
    const events = [...turns(3), a, b, { type: "compaction_reset", timestamp: at(900), ids: ["a"] } as Event];
    expect(project(events).turns.map((turn) => turn.origin)).toEqual([
      { kind: "kept", turn: 0 },
      { kind: "summary", from: 1, to: 1, compaction: "b" },
      { kind: "kept", turn: 2 },
    ]);
    const all = [...events, { type: "compaction_reset", timestamp: at(901) } as Event];
    expect(project(all).turns.map((turn) => turn.origin)).toEqual(kept(0, 1, 2));
    const later = compaction({ from_turn: 2, to_turn: 2, summary: summary("C"), id: "c" }, 902);
    expect(
      project([...all, later])
        .turns.map((turn) => turn.origin)
        .at(-1),
    ).toEqual({
      kind: "summary",
      from: 2,
      to: 2,
      compaction: "c",
    });
  });

  it("covers a last turn only up to to_call's response", () => {
    const events = [
      ...turn({
        request: "q",
        tools: [
          { id: "a", name: "grep" },
          { id: "b", name: "grep" },
          { id: "c", name: "grep" },
        ],
      }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP, to_call: "b" }),
    ];
    const responses = project(events).events.filter((e) => e.type === "tool_call_response");
    expect(responses.map((e) => e.content)).toEqual([
      compacted("grep", "success"),
      compacted("grep", "success"),
      "result of c",
    ]);
  });

  it("passes config deltas and unknown entries through in place and consumes compaction entries", () => {
    const delta: Event = { type: "config_delta", timestamp: at(50), delta: { a: 1 } };
    const unknown: Event = new UnknownEvent({ type: "future", timestamp: at(51), x: [1] });
    const events = [
      ...turn("t1"),
      delta,
      ...turn("t2"),
      unknown,
      compaction({ from_turn: 0, to_turn: 1, summary: summary("S") }),
    ];
    const p = project(events);
    expect(p.events.map(kindOf)).toEqual([
      "turn_start",
      "chat_request",
      "chat_response",
      "config_delta",
      "future",
      // The record of the work of turns 1-2, where the compaction is.
      "chat_request",
    ]);
    expect(isWorkRecord(p.events[5]!)).toBe(true);
    expect(p.events[3]).toBe(delta);
    expect(p.events[4]).toBe(unknown);
  });

  it("leaves out a turn that holds nothing a model can see, and keeps the turns around it", () => {
    const abandoned: Event = { type: "turn_start", timestamp: at(60) };
    const events = [...turn("t1"), abandoned, ...turn("t3")];
    const p = project(events);
    expect(p.events).not.toContain(abandoned);
    expect(texts(p.events)).toEqual(["t1", "answer to t1", "t3", "answer to t3"]);
    expect(p.turns.map((turn) => turn.origin)).toEqual(kept(0, 2));
    expect(groupTurns(p.events)).toHaveLength(2);
  });
});
