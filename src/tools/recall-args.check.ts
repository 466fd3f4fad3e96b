// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The recall tool's checker and JSON Schema: a call needs no zod.

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
import type { RecallArgs } from "./recall-args.js";
export type { SchemaIssue } from "../events/schema-issues.js";

const KEYS0 = new Set(["turns", "call", "offset", "length", "query"]);

function check0(v: unknown): SchemaIssue[] | undefined {
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

function check1(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check2(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  if (!(v > 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >0" });
  return out;
}

function check3(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  if (v.length < 1)
    out = add(out, {
      path: [],
      code: "too_small",
      message: "Too small: expected string to have >=1 characters",
    });
  if (v.length > 1000)
    out = add(out, {
      path: [],
      code: "too_big",
      message: "Too big: expected string to have <=1000 characters",
    });
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "turns", optional(check0, v.turns));
  out = merge(out, "call", optional(check0, v.call));
  out = merge(out, "offset", optional(check1, v.offset));
  out = merge(out, "length", optional(check2, v.length));
  out = merge(out, "query", optional(check3, v.query));
  const unknown = Object.keys(v).filter((k) => !KEYS0.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

/** The first issue zod would report for `value` against checkRecallArgs, or undefined when it is valid. */
export const checkRecallArgs = firstIssue(check4);

/** Whether `value` is a valid call. */
export function isRecallArgs(value: unknown): value is RecallArgs {
  return checkRecallArgs(value) === undefined;
}

/** The arguments' JSON Schema as the provider receives it. */
export const RECALL_PARAMETERS: Record<string, unknown> = {
  type: "object",
  properties: {
    turns: {
      description: 'raw turns to read back whole, numbered as the markers name them: "4" or "2-5"',
      type: "string",
      minLength: 1,
    },
    call: {
      description: "a tool call id: its arguments and recorded output (a marker names the id)",
      type: "string",
      minLength: 1,
    },
    offset: {
      description: "with call: the character of the output to start at (a marker gives it)",
      type: "integer",
      minimum: 0,
      maximum: 9007199254740991,
    },
    length: {
      description: "with call: how many characters to read",
      type: "integer",
      exclusiveMinimum: 0,
      maximum: 9007199254740991,
    },
    query: {
      description:
        "words searched in what compaction or a cut took from view (all words, any case; at most 32 words)",
      type: "string",
      minLength: 1,
      maxLength: 1000,
    },
  },
  additionalProperties: false,
};
