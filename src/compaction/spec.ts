// Owns the rule grammar: config `keep_first`/`keep_last` values and the
// `-k/--compact` rule language (`SPEC := POLICIES [":" RANGE]`). A range
// means what it means everywhere (README, "Ranges"): `A..B` inclusive, `N` is
// turn N (1-based), `-N` the Nth turn from the end; only the lone shorthand
// `-N` is a count ("keep the last N").
import type { ToolPolicy } from "../events/index.js";
import { parseDuration, type KeepBound, type RangeBound } from "./bounds.js";
import { RuleSyntaxError } from "./errors.js";
import { turnBound } from "./positions.js";
import { toolModeOf, toolPolicyFor, TOOL_MODE_WORDS } from "./policy.js";

/** What a rule asks for the turns it covers. */
export interface RulePolicies {
  reasoning?: "strip";
  tool_calls?: ToolPolicy;
  /** Generate a summary (derived) for the range. */
  summarize?: boolean;
}

/** A rule from the rule language: policies and an optional explicit range. */
export interface ParsedSpec extends RulePolicies {
  range?: { from?: RangeBound; to?: RangeBound };
}

/**
 * A `keep_first`/`keep_last` value from config: an integer count, `@N` (1-based
 * position), `-N` (position from the end, -1 the last turn), a duration (`5h`,
 * `2days`) or `last-compaction`.
 */
export function parseKeepBound(value: number | string, key = "keep bound"): KeepBound {
  if (typeof value === "number") {
    if (!Number.isInteger(value))
      throw new RuleSyntaxError(`${key} must be a whole number of turns, got ${value}`);
    // -3 as a number means what "-3" means: the third turn from the end.
    return value < 0 ? { kind: "from_end", offset: -value - 1 } : { kind: "count", turns: value };
  }
  const text = value.trim();
  if (/^\d+$/.test(text)) return { kind: "count", turns: Number(text) };
  const at = /^@(\d+)$/.exec(text);
  if (at) {
    const n = Number(at[1]);
    if (n === 0)
      throw new RuleSyntaxError(`${key} '@0' is not a turn: positions are 1-based, the first turn is @1`);
    return { kind: "absolute", index: n - 1 };
  }
  const fromEnd = /^-(\d+)$/.exec(text);
  if (fromEnd) {
    const n = Number(fromEnd[1]);
    if (n === 0) throw new RuleSyntaxError(`${key} '-0' is not a turn: -1 is the last turn`);
    return { kind: "from_end", offset: n - 1 };
  }
  if (text === "last-compaction") return { kind: "last_compaction" };
  const ms = parseDuration(text);
  if (ms !== undefined) return { kind: "ago", ms };
  throw new RuleSyntaxError(
    `${key} '${value}' is not a bound`,
    "use a count (4), a 1-based position (@5), a position from the end (-3), a duration (5h, 2days) or last-compaction",
  );
}

const POLICY_NAMES: Record<string, "reasoning" | "summarize" | "tools"> = {
  r: "reasoning",
  reasoning: "reasoning",
  s: "summarize",
  summarize: "summarize",
  t: "tools",
  tools: "tools",
};

const SPEC_HINT = "a spec is POLICIES[:RANGE], e.g. r+t:..-3, s:2..-4, t=sres:5..";

function parsePolicies(text: string, spec: string): RulePolicies {
  if (text === "") throw new RuleSyntaxError(`compaction spec '${spec}' names no policy`, SPEC_HINT);
  const policies: RulePolicies = {};
  const seen = new Set<string>();
  for (const part of text.split("+")) {
    if (part === "")
      throw new RuleSyntaxError(`compaction spec '${spec}' has an empty policy between '+' signs`, SPEC_HINT);
    const [name, mode, ...extra] = part.split("=");
    const policy = POLICY_NAMES[name!];
    if (!policy) {
      throw new RuleSyntaxError(
        `unknown policy '${name}' in compaction spec '${spec}'`,
        "policies are r|reasoning, s|summarize, t|tools[=MODE], joined by +",
      );
    }
    if (seen.has(policy))
      throw new RuleSyntaxError(`policy '${policy}' appears twice in compaction spec '${spec}'`);
    seen.add(policy);
    if (mode !== undefined && policy !== "tools") {
      throw new RuleSyntaxError(
        `policy '${name}' takes no mode, but compaction spec '${spec}' gives '${part}'`,
        "only t|tools takes a mode: t=strip, t=sreq, t=sres, t=omit",
      );
    }
    if (extra.length > 0)
      throw new RuleSyntaxError(`policy '${part}' in compaction spec '${spec}' has more than one '='`);
    if (policy === "reasoning") policies.reasoning = "strip";
    else if (policy === "summarize") policies.summarize = true;
    else {
      const resolved = mode === undefined ? "strip" : toolModeOf(mode);
      if (!resolved) {
        throw new RuleSyntaxError(
          `unknown tool mode '${mode}' in compaction spec '${spec}'`,
          `tool modes are ${TOOL_MODE_WORDS}`,
        );
      }
      policies.tool_calls = toolPolicyFor(resolved);
    }
  }
  return policies;
}

/** A range bound: `N` is turn N (1-based), `-N` the Nth turn from the end (-1 the last), on either side. */
function parseRangeBound(text: string, spec: string): RangeBound {
  const turn = turnBound(text);
  if (turn) return turn;
  if (/^-?0+$/.test(text))
    throw new RuleSyntaxError(
      `'${text}' in compaction spec '${spec}' is not a turn: turns are numbered from 1`,
      text.startsWith("-") ? "-1 is the last turn" : "the first turn is 1",
    );
  throw new RuleSyntaxError(
    `'${text}' in compaction spec '${spec}' is not a turn`,
    "a range bound is a 1-based turn (5) or a turn from the end (-1 is the last)",
  );
}

function parseRange(text: string, spec: string): { from?: RangeBound; to?: RangeBound } {
  if (text === "")
    throw new RuleSyntaxError(`compaction spec '${spec}' has ':' but no range after it`, SPEC_HINT);
  const parts = text.split("..");
  if (parts.length > 2)
    throw new RuleSyntaxError(
      `range '${text}' in compaction spec '${spec}' has more than one '..'`,
      "a range is A..B, A.., ..B, -N or N",
    );
  if (parts.length === 1) {
    // Shorthands: `-3` keeps the last 3 turns (it is `..-4`), `5` is `5..`.
    if (!text.startsWith("-")) return { from: parseRangeBound(text, spec) };
    const bound = parseRangeBound(text, spec);
    return { to: bound.kind === "from_end" ? { kind: "from_end", offset: bound.offset + 1 } : bound };
  }
  const [left = "", right = ""] = parts;
  const range: { from?: RangeBound; to?: RangeBound } = {};
  if (left !== "") range.from = parseRangeBound(left, spec);
  if (right !== "") range.to = parseRangeBound(right, spec);
  if (range.from?.kind === "absolute" && range.to?.kind === "absolute" && range.from.index > range.to.index) {
    throw new RuleSyntaxError(`range '${text}' in compaction spec '${spec}' starts after it ends`);
  }
  return range;
}

/** Parse one `-k/--compact` spec. */
export function parseSpec(spec: string): ParsedSpec {
  const trimmed = spec.trim();
  if (trimmed === "") throw new RuleSyntaxError("the compaction spec is empty", SPEC_HINT);
  const colon = trimmed.indexOf(":");
  const policies = parsePolicies(colon === -1 ? trimmed : trimmed.slice(0, colon), spec);
  if (colon === -1) return policies;
  return { ...policies, range: parseRange(trimmed.slice(colon + 1), spec) };
}
