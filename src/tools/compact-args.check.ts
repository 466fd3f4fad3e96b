// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The compact tool's checker and JSON Schema: a call needs no zod.

import {
  firstIssue,
  optional,
  safeIntRange,
  add,
  invalidType,
  isObject,
  merge,
  unrecognized,
  type SchemaIssue,
} from "../events/schema-issues.js";
import type { CompactArgs } from "./compact-args.js";
export type { SchemaIssue } from "../events/schema-issues.js";

const KEYS0 = new Set([
  "keep_first",
  "keep_last",
  "before_quote",
  "after_quote",
  "reasoning",
  "tool_calls",
  "summary",
  "pin_quote",
  "note",
]);
const KEYS1 = new Set(["rules"]);

function check0(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check1(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  if (v.length < 1)
    out = add(out, {
      path: [],
      code: "too_small",
      message: "Too small: expected string to have >=1 characters",
    });
  return out;
}

function check2(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "keep_first", optional(check0, v.keep_first));
  out = merge(out, "keep_last", optional(check0, v.keep_last));
  out = merge(out, "before_quote", optional(check1, v.before_quote));
  out = merge(out, "after_quote", optional(check1, v.after_quote));
  {
    const x = v.reasoning;
    out = merge(
      out,
      "reasoning",
      x === undefined
        ? undefined
        : x !== "strip"
          ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "strip"', abort: true }]
          : undefined,
    );
  }
  {
    const x = v.tool_calls;
    out = merge(
      out,
      "tool_calls",
      x === undefined
        ? undefined
        : x !== "strip" && x !== "strip-requests" && x !== "strip-responses" && x !== "omit"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "strip"|"strip-requests"|"strip-responses"|"omit"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  out = merge(out, "summary", optional(check1, v.summary));
  out = merge(out, "pin_quote", optional(check1, v.pin_quote));
  out = merge(out, "note", check1(v.note));
  const unknown = Object.keys(v).filter((k) => !KEYS0.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check3(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check2(v[i]));
  if (v.length < 1)
    out = add(out, { path: [], code: "too_small", message: "Too small: expected array to have >=1 items" });
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "rules", check3(v.rules));
  const unknown = Object.keys(v).filter((k) => !KEYS1.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

/** The first issue zod would report for `value` against checkCompactArgs, or undefined when it is valid. */
export const checkCompactArgs = firstIssue(check4);

/** Whether `value` is a valid call. */
export function isCompactArgs(value: unknown): value is CompactArgs {
  return checkCompactArgs(value) === undefined;
}

/** The fields a rule accepts. */
export const RULE_FIELDS: readonly string[] = [
  "keep_first",
  "keep_last",
  "before_quote",
  "after_quote",
  "reasoning",
  "tool_calls",
  "summary",
  "pin_quote",
  "note",
];

/** The arguments' JSON Schema as the provider receives it. */
export const COMPACT_PARAMETERS: Record<string, unknown> = {
  type: "object",
  properties: {
    rules: {
      minItems: 1,
      type: "array",
      items: {
        type: "object",
        properties: {
          keep_first: {
            description: "turns at the start left untouched",
            type: "integer",
            minimum: 0,
            maximum: 9007199254740991,
          },
          keep_last: {
            description: "turns at the end left untouched; the current turn always is",
            type: "integer",
            minimum: 0,
            maximum: 9007199254740991,
          },
          before_quote: {
            description:
              "compact what comes before this: a verbatim passage from the first turn to keep (the range ends at the turn before it)",
            type: "string",
            minLength: 1,
          },
          after_quote: {
            description:
              "compact what comes after this: a verbatim passage from the last turn to keep (the range starts at the turn after it)",
            type: "string",
            minLength: 1,
          },
          reasoning: { description: "strip the reasoning of the range", type: "string", const: "strip" },
          tool_calls: {
            description: "strip or omit the tool calls of the range",
            type: "string",
            enum: ["strip", "strip-requests", "strip-responses", "omit"],
          },
          summary: {
            description: "text that replaces the range; stands alone",
            type: "string",
            minLength: 1,
          },
          pin_quote: {
            description:
              "pin the turn holding this verbatim passage (the one with the current task, say): no compaction changes it, this one included",
            type: "string",
            minLength: 1,
          },
          note: { type: "string", minLength: 1, description: "one sentence on why (required)" },
        },
        required: ["note"],
        additionalProperties: false,
      },
    },
  },
  required: ["rules"],
  additionalProperties: false,
};
