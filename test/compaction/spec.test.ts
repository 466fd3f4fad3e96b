// The rule grammar: config keep bounds and the -k/--compact rule language (1-based; -N on the right is a count).
import { describe, expect, it } from "vitest";
import { parseKeepBound, parseSpec, RuleSyntaxError } from "../../src/compaction/index.js";

const STRIP = { policy: "strip", request: true, response: true };

describe("parseSpec policies", () => {
  it.each([
    ["r", { reasoning: "strip" }],
    ["reasoning", { reasoning: "strip" }],
    ["s", { summarize: true }],
    ["summarize", { summarize: true }],
    ["t", { tool_calls: STRIP }],
    ["tools", { tool_calls: STRIP }],
    ["t=s", { tool_calls: STRIP }],
    ["t=strip", { tool_calls: STRIP }],
    ["t=sreq", { tool_calls: { policy: "strip", request: true, response: false } }],
    ["tools=strip-requests", { tool_calls: { policy: "strip", request: true, response: false } }],
    ["t=sres", { tool_calls: { policy: "strip", request: false, response: true } }],
    ["t=strip-responses", { tool_calls: { policy: "strip", request: false, response: true } }],
    ["t=o", { tool_calls: { policy: "omit" } }],
    ["t=omit", { tool_calls: { policy: "omit" } }],
    ["r+t", { reasoning: "strip", tool_calls: STRIP }],
    ["s+r+t=o", { summarize: true, reasoning: "strip", tool_calls: { policy: "omit" } }],
  ])("parses %s", (spec, expected) => {
    expect(parseSpec(spec)).toEqual(expected);
  });
});

describe("parseSpec ranges (1-based)", () => {
  it.each([
    ["s:..", { summarize: true, range: {} }],
    ["s:5..", { summarize: true, range: { from: { kind: "absolute", index: 4 } } }],
    ["s:..-3", { summarize: true, range: { to: { kind: "from_end", offset: 2 } } }],
    [
      "s:5..-3",
      {
        summarize: true,
        range: { from: { kind: "absolute", index: 4 }, to: { kind: "from_end", offset: 2 } },
      },
    ],
    [
      "s:5..10",
      {
        summarize: true,
        range: { from: { kind: "absolute", index: 4 }, to: { kind: "absolute", index: 9 } },
      },
    ],
    ["s:..10", { summarize: true, range: { to: { kind: "absolute", index: 9 } } }],
    [
      "s:-10..-3",
      {
        summarize: true,
        range: { from: { kind: "from_end", offset: 9 }, to: { kind: "from_end", offset: 2 } },
      },
    ],
    ["s:-3", { summarize: true, range: { to: { kind: "from_end", offset: 3 } } }],
    ["s:5", { summarize: true, range: { from: { kind: "absolute", index: 4 } } }],
    [
      "t=sreq:5..-3",
      {
        tool_calls: { policy: "strip", request: true, response: false },
        range: { from: { kind: "absolute", index: 4 }, to: { kind: "from_end", offset: 2 } },
      },
    ],
  ])("parses %s", (spec, expected) => {
    expect(parseSpec(spec)).toEqual(expected);
  });
});

describe("parseSpec errors: one precise message per mistake", () => {
  it.each([
    ["", "the compaction spec is empty"],
    [":..", "compaction spec ':..' names no policy"],
    ["r++t", "compaction spec 'r++t' has an empty policy between '+' signs"],
    ["x:..", "unknown policy 'x' in compaction spec 'x:..'"],
    ["r+r", "policy 'reasoning' appears twice in compaction spec 'r+r'"],
    ["r=strip", "policy 'r' takes no mode, but compaction spec 'r=strip' gives 'r=strip'"],
    ["t=shred", "unknown tool mode 'shred' in compaction spec 't=shred'"],
    ["t=s=s", "policy 't=s=s' in compaction spec 't=s=s' has more than one '='"],
    ["s:", "compaction spec 's:' has ':' but no range after it"],
    ["s:1..2..3", "range '1..2..3' in compaction spec 's:1..2..3' has more than one '..'"],
    ["s:a..3", "'a' in compaction spec 's:a..3' is not a turn"],
    ["s:0..3", "'0' in compaction spec 's:0..3' is not a turn: turns are numbered from 1"],
    ["s:..-0", "'-0' in compaction spec 's:..-0' is not a turn: turns are numbered from 1"],
    ["s:5..3", "range '5..3' in compaction spec 's:5..3' starts after it ends"],
  ])("%j → %s", (spec, message) => {
    let error: unknown;
    try {
      parseSpec(spec);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleSyntaxError);
    expect((error as Error).message).toBe(message);
    expect((error as RuleSyntaxError).exitCode).toBe(2);
  });
});

describe("parseKeepBound (config keep_first / keep_last)", () => {
  it.each([
    [4, { kind: "count", turns: 4 }],
    ["4", { kind: "count", turns: 4 }],
    ["@5", { kind: "absolute", index: 4 }],
    ["-3", { kind: "from_end", offset: 2 }],
    // A negative number means what the text "-3" means.
    [-3, { kind: "from_end", offset: 2 }],
    ["5h", { kind: "ago", ms: 5 * 3_600_000 }],
    ["2days", { kind: "ago", ms: 2 * 86_400_000 }],
    ["30m", { kind: "ago", ms: 30 * 60_000 }],
    ["last-compaction", { kind: "last_compaction" }],
  ])("parses %j", (value, expected) => {
    expect(parseKeepBound(value)).toEqual(expected);
  });

  it.each([
    ["@0", "keep_first '@0' is not a turn: positions are 1-based, the first turn is @1"],
    [1.5, "keep_first must be a whole number of turns, got 1.5"],
    ["soon", "keep_first 'soon' is not a bound"],
  ])("rejects %j", (value, message) => {
    expect(() => parseKeepBound(value, "keep_first")).toThrow(message);
  });
});
