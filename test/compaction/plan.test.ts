import { beforeEach, describe, expect, it } from "vitest";
import {
  extendSummaryRange,
  planRule,
  rawEventsOfTurns,
  truncateNote,
  type CompactionRule,
  type PlanOptions,
} from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { at, compaction, resetClock, STRIP, summary, turn, turns } from "../support/stream.js";
import { stringContaining } from "../support/matchers.js";

beforeEach(resetClock);

const options: PlanOptions = {
  id: "new",
  timestamp: at(10_000),
  now: Date.parse(at(10_000)),
  source: "user",
};
const range = (events: Event[], rule: CompactionRule, extra: Partial<PlanOptions> = {}) => {
  const plan = planRule(events, rule, { ...options, ...extra });
  if (plan.kind === "ready") return [plan.compaction.from_turn, plan.compaction.to_turn];
  if (plan.kind === "needs_summary") return [plan.range.from, plan.range.to];
  return plan.kind;
};

describe("planRule: keep bounds", () => {
  const twenty = () => turns(20);

  it("resolves counts from each end", () => {
    expect(
      range(twenty(), {
        reasoning: "strip",
        keepFirst: { kind: "count", turns: 1 },
        keepLast: { kind: "count", turns: 1 },
      }),
    ).toEqual([1, 18]);
    expect(range(twenty(), { reasoning: "strip" })).toEqual([0, 19]);
  });

  it("resolves 1-based positions (@N, stored as N-1) and positions from the end; a kept position is kept", () => {
    // keep_first = @5 keeps turns 1–5; keep_last = -3 keeps the last three.
    expect(range(twenty(), { reasoning: "strip", keepFirst: { kind: "absolute", index: 4 } })).toEqual([
      5, 19,
    ]);
    expect(range(twenty(), { reasoning: "strip", keepLast: { kind: "from_end", offset: 2 } })).toEqual([
      0, 16,
    ]);
    // keep_last = -1 keeps the last turn; @20 (the last of 20) too; @21 keeps no turn and is refused.
    expect(range(twenty(), { reasoning: "strip", keepLast: { kind: "from_end", offset: 0 } })).toEqual([
      0, 18,
    ]);
    expect(range(twenty(), { reasoning: "strip", keepLast: { kind: "absolute", index: 19 } })).toEqual([
      0, 18,
    ]);
    expect(
      planRule(twenty(), { reasoning: "strip", keepLast: { kind: "absolute", index: 20 } }, options),
    ).toEqual({ kind: "nothing", reason: "keep_last @21 is after the last turn (20): it keeps no turn" });
  });

  it("resolves durations against turn start times and the given now", () => {
    // Turns start 3 seconds apart from 00:00:00; keep the turns of the last 10 seconds.
    const events = twenty();
    const now = Date.parse(at(60));
    expect(range(events, { reasoning: "strip", keepLast: { kind: "ago", ms: 10_000 } }, { now })).toEqual([
      0, 16,
    ]);
  });

  it("resolves last-compaction to the turn after the latest compaction not reset", () => {
    const events = [...twenty(), compaction({ from_turn: 0, to_turn: 7, reasoning: "strip" })];
    expect(range(events, { tool_calls: STRIP, keepFirst: { kind: "last_compaction" } })).toEqual([8, 19]);
    const reset = [...events, { type: "compaction_reset", timestamp: at(5000) } as Event];
    expect(range(reset, { tool_calls: STRIP, keepFirst: { kind: "last_compaction" } })).toEqual([0, 19]);
  });

  it("finds nothing when the start lies past the end, never clamping it back", () => {
    const plan = planRule(turns(5), { reasoning: "strip", keepFirst: { kind: "count", turns: 5 } }, options);
    expect(plan).toEqual({ kind: "nothing", reason: "the range starts after the last turn (5)" });
    expect(range(turns(5), { reasoning: "strip", keepFirst: { kind: "absolute", index: 9 } })).toBe(
      "nothing",
    );
  });

  it("finds nothing when the end would keep more turns than exist", () => {
    const plan = planRule(turns(5), { reasoning: "strip", keepLast: { kind: "count", turns: 6 } }, options);
    expect(plan).toMatchObject({
      kind: "nothing",
      reason: stringContaining("keep more turns than the 5 there are"),
    });
    expect(
      range(turns(5), {
        reasoning: "strip",
        keepFirst: { kind: "count", turns: 3 },
        keepLast: { kind: "count", turns: 2 },
      }),
    ).toBe("nothing");
  });

  it("clamps an absolute end past the last turn onto it", () => {
    expect(
      range(turns(5), {
        reasoning: "strip",
        from: { kind: "absolute", index: 1 },
        to: { kind: "absolute", index: 40 },
      }),
    ).toEqual([1, 4]);
  });

  it("applies keep counts inside a window: --keep-first 1 --first 16 and --keep-last 2 --last 16 on 20 turns", () => {
    const first16 = { from: { kind: "absolute", index: 0 }, to: { kind: "absolute", index: 15 } } as const;
    expect(
      range(twenty(), { reasoning: "strip", ...first16, keepFirst: { kind: "count", turns: 1 } }),
    ).toEqual([1, 15]);
    const last16 = { from: { kind: "from_end", offset: 15 } } as const;
    expect(range(twenty(), { reasoning: "strip", ...last16, keepLast: { kind: "count", turns: 2 } })).toEqual(
      [4, 17],
    );
  });

  it("needs a policy and a conversation with turns", () => {
    expect(planRule(turns(3), {}, options)).toMatchObject({
      kind: "nothing",
      reason: stringContaining("names no policy"),
    });
    expect(planRule([], { reasoning: "strip" }, options)).toEqual({
      kind: "nothing",
      reason: "the conversation has no turns",
    });
  });
});

describe("planRule: the event", () => {
  it("records policies, source, note, deferral and nothing else", () => {
    const plan = planRule(
      turns(4),
      { reasoning: "strip", tool_calls: STRIP, keepFirst: { kind: "count", turns: 1 } },
      { ...options, note: "done", deferredUntilTurn: 4, source: "assistant" },
    );
    expect(plan).toEqual({
      kind: "ready",
      compaction: {
        type: "compaction",
        timestamp: at(10_000),
        id: "new",
        from_turn: 1,
        to_turn: 3,
        reasoning: "strip",
        tool_calls: STRIP,
        deferred_until_turn: 4,
        source: "assistant",
        note: "done",
      },
    });
  });

  it("records a supplied summary with its author, and asks for a derived one", () => {
    const supplied = planRule(
      turns(4),
      { summary: { kind: "supplied", text: "S", author: "user" } },
      options,
    );
    expect(supplied).toMatchObject({
      kind: "ready",
      compaction: { summary: { text: "S", source: "supplied", author: "user" } },
    });
    const derived = planRule(
      turns(4),
      { summary: { kind: "derive", model: "m1" }, keepLast: { kind: "count", turns: 1 } },
      options,
    );
    if (derived.kind !== "needs_summary") throw new Error(derived.kind);
    expect(derived.range).toEqual({ from: 0, to: 2 });
    expect(derived.complete("gist").summary).toEqual({ text: "gist", source: "derived", model: "m1" });
  });

  it("freezes per-tool hints into tool_overrides, with '*' for every tool in range without its own", () => {
    const events = turn({
      request: "q",
      tools: [
        { id: "a", name: "search" },
        { id: "b", name: "grep" },
        { id: "c", name: "write" },
      ],
    });
    const plan = planRule(
      events,
      { tool_calls: STRIP },
      {
        ...options,
        toolHints: { search: "strip-responses", write: "strip-requests", heartbeat: "omit", "*": "keep" },
      },
    );
    if (plan.kind !== "ready") throw new Error(plan.kind);
    expect(plan.compaction.tool_overrides).toEqual({
      grep: { policy: "strip", request: false, response: false },
      heartbeat: { policy: "omit" },
      search: { policy: "strip", request: false, response: true },
      write: { policy: "strip", request: true, response: false },
    });
  });

  it("freezes no hints into a rule without a tool policy", () => {
    const plan = planRule(turns(2), { reasoning: "strip" }, { ...options, toolHints: { search: "omit" } });
    expect(plan.kind === "ready" && plan.compaction.tool_overrides).toBe(undefined);
  });

  it("truncates notes to 200 characters", () => {
    expect(truncateNote("x".repeat(200))).toEqual({ note: "x".repeat(200), truncated: false });
    const cut = truncateNote("y".repeat(250));
    expect(cut.truncated).toBe(true);
    expect(Array.from(cut.note)).toHaveLength(200);
  });
});

describe("summary overlap extension", () => {
  const withSummaries = (n: number, ...ranges: [number, number, ("derived" | "supplied")?][]) => [
    ...turns(n),
    ...ranges.map(([from, to, source], i) =>
      compaction({
        from_turn: from,
        to_turn: to,
        summary: summary(`s${i}`, source ?? "derived"),
        id: `s${i}`,
      }),
    ),
  ];

  it("(3,7) with an existing summary over (5,9) becomes (3,9)", () => {
    expect(extendSummaryRange(withSummaries(12, [5, 9]), { from: 3, to: 7 }, false, 12)).toEqual({
      ok: true,
      range: { from: 3, to: 9 },
      absorbed: ["s0"],
    });
  });

  it("(3,5) inside (0,9) becomes (0,9)", () => {
    expect(extendSummaryRange(withSummaries(12, [0, 9]), { from: 3, to: 5 }, false, 12)).toMatchObject({
      ok: true,
      range: { from: 0, to: 9 },
    });
  });

  it("(3,7) with (0,5), (4,10) and (9,15) becomes (0,15), transitively", () => {
    expect(
      extendSummaryRange(withSummaries(20, [0, 5], [4, 10], [9, 15]), { from: 3, to: 7 }, false, 20),
    ).toMatchObject({ ok: true, range: { from: 0, to: 15 } });
  });

  it("ignores mechanical compactions and reset summaries", () => {
    const events = [
      ...turns(12),
      compaction({ from_turn: 0, to_turn: 9, reasoning: "strip", tool_calls: STRIP }),
      compaction({ from_turn: 5, to_turn: 11, summary: summary("x"), id: "gone" }),
      { type: "compaction_reset", timestamp: at(9999), ids: ["gone"] } as Event,
    ];
    expect(extendSummaryRange(events, { from: 3, to: 7 }, false, 12)).toMatchObject({
      ok: true,
      range: { from: 3, to: 7 },
    });
  });

  it("is applied by planRule before the summary is generated", () => {
    const plan = planRule(
      withSummaries(12, [5, 9]),
      {
        summary: { kind: "derive" },
        from: { kind: "absolute", index: 3 },
        to: { kind: "absolute", index: 7 },
      },
      options,
    );
    expect(plan).toMatchObject({
      kind: "needs_summary",
      range: { from: 3, to: 9 },
      extendedFrom: { from: 3, to: 7 },
    });
  });

  it("refuses to widen a new supplied summary, suggesting bounds that avoid the overlap", () => {
    const result = extendSummaryRange(withSummaries(12, [5, 9]), { from: 3, to: 7 }, true, 12);
    expect(result).toEqual({
      ok: false,
      reason:
        "turns 4–8 overlap an existing summary over turns 6–10, and this supplied summary cannot be widened",
      suggestions: [{ from: 3, to: 4 }],
    });
  });

  it("refuses to swallow an existing supplied summary beyond the requested range", () => {
    const result = extendSummaryRange(withSummaries(12, [1, 4, "supplied"]), { from: 3, to: 8 }, false, 12);
    expect(result).toMatchObject({
      ok: false,
      reason: stringContaining("the supplied summary over turns 2–5 cannot be widened"),
      suggestions: [{ from: 5, to: 8 }],
    });
    const plan = planRule(
      withSummaries(12, [1, 4, "supplied"]),
      {
        summary: { kind: "derive" },
        from: { kind: "absolute", index: 3 },
        to: { kind: "absolute", index: 8 },
      },
      options,
    );
    expect(plan.kind).toBe("refused");
  });

  it("allows a summary that contains a supplied one whole", () => {
    expect(
      extendSummaryRange(withSummaries(12, [4, 5, "supplied"]), { from: 3, to: 8 }, false, 12),
    ).toMatchObject({ ok: true, range: { from: 3, to: 8 } });
  });
});

describe("rawEventsOfTurns", () => {
  it("reads raw events, never the projection", () => {
    const events = [
      ...turn({ request: "q", tools: [{ id: "a", name: "grep", result: "raw result" }] }),
      compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP }),
    ];
    expect(
      rawEventsOfTurns(events, { from: 0, to: 0 }).find((e) => e.type === "tool_call_response"),
    ).toMatchObject({ content: "raw result" });
  });
});
