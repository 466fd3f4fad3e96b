// Owns the vocabulary of tool-call policies and per-tool hints, and the
// timestamp ordering every "latest wins" decision uses.
import type { ToolPolicy } from "../events/index.js";

/** A per-tool hint as written in config: the rule vocabulary plus `keep`. */
export const TOOL_HINTS = ["keep", "strip", "strip-requests", "strip-responses", "omit"] as const;
export type ToolHint = (typeof TOOL_HINTS)[number];

/** A rule's `tool_calls` mode as written in config. */
export const TOOL_MODES = ["strip", "strip-requests", "strip-responses", "omit"] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/** The one table of tool modes as they may be typed (`-t=sreq`, `t=o`): full names and short ones. */
const TOOL_MODE_SPELLINGS: Readonly<Record<string, ToolMode>> = {
  strip: "strip",
  s: "strip",
  "strip-requests": "strip-requests",
  sreq: "strip-requests",
  "strip-responses": "strip-responses",
  sres: "strip-responses",
  omit: "omit",
  o: "omit",
};

/** The tool mode a typed word names, or undefined. */
export function toolModeOf(word: string): ToolMode | undefined {
  return Object.hasOwn(TOOL_MODE_SPELLINGS, word) ? TOOL_MODE_SPELLINGS[word] : undefined;
}

/** How the modes are written, for messages: `strip|s, strip-requests|sreq, …`. */
export const TOOL_MODE_WORDS = "strip|s, strip-requests|sreq, strip-responses|sres, omit|o";

export function toolPolicyFor(hint: ToolHint): ToolPolicy {
  switch (hint) {
    case "keep":
      return { policy: "strip", request: false, response: false };
    case "strip":
      return { policy: "strip", request: true, response: true };
    case "strip-requests":
      return { policy: "strip", request: true, response: false };
    case "strip-responses":
      return { policy: "strip", request: false, response: true };
    case "omit":
      return { policy: "omit" };
  }
}

/** The words a policy is shown with (`strip`, `strip-requests`, `keep`, `omit`). */
export function describeToolPolicy(policy: ToolPolicy): ToolHint {
  if (policy.policy === "omit") return "omit";
  if (policy.request && policy.response) return "strip";
  if (policy.request) return "strip-requests";
  if (policy.response) return "strip-responses";
  return "keep";
}

/**
 * Freeze per-tool hints into a compaction's `tool_overrides`: every named tool
 * with a hint, plus, when a `'*'` hint exists, every tool seen in the stream
 * that has none of its own.
 */
export function resolveToolOverrides(
  hints: Readonly<Record<string, ToolHint | undefined>>,
  toolNamesInStream: Iterable<string>,
): Record<string, ToolPolicy> | undefined {
  const overrides: Record<string, ToolPolicy> = {};
  const fallback = hints["*"];
  for (const [name, hint] of Object.entries(hints)) {
    if (name !== "*" && hint !== undefined) overrides[name] = toolPolicyFor(hint);
  }
  if (fallback !== undefined) {
    for (const name of toolNamesInStream) {
      if (!(name in overrides)) overrides[name] = toolPolicyFor(fallback);
    }
  }
  const sorted = Object.keys(overrides).sort();
  if (sorted.length === 0) return undefined;
  return Object.fromEntries(sorted.map((k) => [k, overrides[k]!]));
}

const FRACTION = /\.(\d+)/;

/**
 * A sortable number for an RFC 3339 timestamp, keeping sub-millisecond digits
 * (JP writes microseconds). Unparseable timestamps sort first.
 */
export function timestampKey(timestamp: unknown): number {
  if (typeof timestamp !== "string") return Number.NEGATIVE_INFINITY;
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return Number.NEGATIVE_INFINITY;
  const digits = FRACTION.exec(timestamp)?.[1] ?? "";
  const extra = digits.length > 3 ? Number(`0.${digits.slice(3)}`) : 0;
  return ms + extra;
}
