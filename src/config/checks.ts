// Owns the checks of the config schema that zod cannot state by itself. The
// schema (schema.ts) and its derived checker (schema.check.ts) both call
// these, so the two cannot drift apart.
import { parseKeepBound } from "../compaction/spec.js";
import { messageOf } from "../errors.js";

/** What is wrong with a keep bound (a union member already made it a number or a string), if anything. */
export function keepBoundProblem(value: unknown): string | undefined {
  if (typeof value !== "number" && typeof value !== "string") return "must be a number or a string";
  try {
    parseKeepBound(value);
    return undefined;
  } catch (error) {
    return messageOf(error).replace(/^keep bound /, "");
  }
}

/** What is wrong with a tool's `source`, if anything. */
export function toolSourceProblem(value: unknown): string | undefined {
  if (typeof value !== "string") return "must be a string";
  if (value === "local" || value === "builtin") return undefined;
  if (/^mcp\.[A-Za-z0-9_-]+(\.[^.\s][^\s]*)?$/.test(value)) return undefined;
  return `'${value}' is not a tool source: give "local", "builtin", "mcp.SERVER" or "mcp.SERVER.TOOL"`;
}

export const CONFIG_CHECKS = {
  toolSource: {
    test: (value: unknown): boolean => toolSourceProblem(value) === undefined,
    message: toolSourceProblem,
  },
  keepBound: {
    test: (value: unknown): boolean => keepBoundProblem(value) === undefined,
    message: keepBoundProblem,
  },
} as const;
