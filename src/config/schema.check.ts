// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The configuration's checker: loading a valid config needs no zod.

import {
  firstIssue,
  optional,
  safeIntRange,
  add,
  aborted,
  custom,
  invalidType,
  isObject,
  isPlainRecord,
  merge,
  pickBranch,
  unrecognized,
  type SchemaIssue,
} from "../events/schema-issues.js";
import { CONFIG_CHECKS } from "./checks.js";
import type { Config } from "./schema.js";
export type { SchemaIssue } from "../events/schema-issues.js";

const KEYS0 = new Set(["id", "context_window"]);
const KEYS1 = new Set([
  "max_retries",
  "max_continuations",
  "max_tokens",
  "timeout_secs",
  "idle_timeout_secs",
  "backoff_ms",
]);
const KEYS2 = new Set(["budget_tokens", "effort", "display", "prefix_mismatch"]);
const KEYS3 = new Set(["estimate"]);
const KEYS4 = new Set(["model", "system_prompt", "cache", "cache_ttl", "request", "reasoning", "tokens"]);
const KEYS5 = new Set(["policy", "request", "response"]);
const KEYS6 = new Set(["policy"]);
const KEYS7 = new Set(["id"]);
const KEYS8 = new Set(["instructions", "context", "model"]);
const KEYS9 = new Set(["keep_first", "keep_last", "reasoning", "tool_calls", "summary", "record"]);
const KEYS10 = new Set(["strategy", "value"]);
const KEYS11 = new Set([
  "enabled",
  "max_tokens",
  "trigger_ratio",
  "keep_tail",
  "min_saving",
  "relief",
  "min_turns",
  "rule",
]);
const KEYS12 = new Set(["rules", "auto", "provider_summaries"]);
const KEYS13 = new Set(["state", "allow_toggle"]);
const KEYS14 = new Set(["answer"]);
const KEYS15 = new Set(["path", "external", "read", "write", "create", "update", "delete", "execute"]);
const KEYS16 = new Set(["fs"]);
const KEYS17 = new Set([
  "compaction",
  "source",
  "command",
  "summary",
  "description",
  "parameters",
  "run",
  "enable",
  "env",
  "options",
  "questions",
  "access",
  "cancellation_response",
  "timeout_secs",
  "max_output_bytes",
]);
const KEYS18 = new Set(["model"]);
const KEYS19 = new Set(["generate"]);
const KEYS20 = new Set(["type", "path", "params"]);
const KEYS21 = new Set(["compaction", "tools", "title", "attachments"]);
const KEYS22 = new Set(["algorithm", "value"]);
const KEYS23 = new Set([
  "type",
  "command",
  "arguments",
  "variables",
  "cwd",
  "checksum",
  "optional",
  "startup_timeout_secs",
  "all_tools",
]);
const KEYS24 = new Set(["type", "url", "headers", "optional", "startup_timeout_secs", "all_tools"]);
const KEYS25 = new Set(["aliases"]);
const KEYS26 = new Set(["mcp", "llm"]);
const KEYS27 = new Set([
  "base_url",
  "base_url_env",
  "api_key_env",
  "proxy",
  "api",
  "keep_alive",
  "beta",
  "prompt_cache_key",
]);
const KEYS28 = new Set(["above", "input", "output", "cache_read", "cache_write", "cache_write_1h"]);
const KEYS29 = new Set(["input", "output", "cache_read", "cache_write", "cache_write_1h", "tiers"]);
const KEYS30 = new Set([
  "context_window",
  "max_output_tokens",
  "thinking",
  "efforts",
  "forced_tool_use",
  "reasoning",
  "preserved_thinking",
  "lifecycle",
  "retires_at",
  "replacement",
  "price",
]);
const KEYS31 = new Set([
  "extends",
  "config_load_paths",
  "assistant",
  "conversation",
  "providers",
  "models",
  "prices",
]);

function check0(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  return out;
}

function check1(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check0(v[i]));
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
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.id;
    out = merge(
      out,
      "id",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "context_window", optional(check2, v.context_window));
  const unknown = Object.keys(v).filter((k) => !KEYS0.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check5(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!(v > 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >0" });
  return out;
}

function check6(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "max_retries", optional(check4, v.max_retries));
  out = merge(out, "max_continuations", optional(check4, v.max_continuations));
  out = merge(out, "max_tokens", optional(check2, v.max_tokens));
  out = merge(out, "timeout_secs", optional(check5, v.timeout_secs));
  out = merge(out, "idle_timeout_secs", optional(check5, v.idle_timeout_secs));
  out = merge(out, "backoff_ms", optional(check4, v.backoff_ms));
  const unknown = Object.keys(v).filter((k) => !KEYS1.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check7(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "budget_tokens", optional(check4, v.budget_tokens));
  {
    const x = v.effort;
    out = merge(
      out,
      "effort",
      x === undefined
        ? undefined
        : x !== "none" &&
            x !== "minimal" &&
            x !== "low" &&
            x !== "medium" &&
            x !== "high" &&
            x !== "xhigh" &&
            x !== "max" &&
            x !== "auto"
          ? [
              {
                path: [],
                code: "invalid_value",
                message:
                  'Invalid option: expected one of "none"|"minimal"|"low"|"medium"|"high"|"xhigh"|"max"|"auto"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  {
    const x = v.display;
    out = merge(
      out,
      "display",
      x === undefined
        ? undefined
        : x !== "dim" && x !== "hidden"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "dim"|"hidden"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  {
    const x = v.prefix_mismatch;
    out = merge(
      out,
      "prefix_mismatch",
      x === undefined
        ? undefined
        : x !== "drop" && x !== "error"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "drop"|"error"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS2.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check8(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.estimate;
    out = merge(
      out,
      "estimate",
      x === undefined
        ? undefined
        : x !== "tokenizer" && x !== "chars"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "tokenizer"|"chars"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS3.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check9(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "model", optional(check3, v.model));
  {
    const x = v.system_prompt;
    out = merge(
      out,
      "system_prompt",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.cache;
    out = merge(
      out,
      "cache",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.cache_ttl;
    out = merge(
      out,
      "cache_ttl",
      x === undefined
        ? undefined
        : x !== "5m" && x !== "1h"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "5m"|"1h"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  out = merge(out, "request", optional(check6, v.request));
  out = merge(out, "reasoning", optional(check7, v.reasoning));
  out = merge(out, "tokens", optional(check8, v.tokens));
  const unknown = Object.keys(v).filter((k) => !KEYS4.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check10(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  return out;
}

function check11(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check10(v), () => check0(v)]);
  if (!aborted(out) && !CONFIG_CHECKS.keepBound.test(v))
    out = add(out, custom(CONFIG_CHECKS.keepBound.message(v) ?? "Invalid input"));
  return out;
}

function check12(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "strip" && v !== "strip-requests" && v !== "strip-responses" && v !== "omit")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "strip"|"strip-requests"|"strip-responses"|"omit"',
        abort: true,
      },
    ];
  return out;
}

function check13(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.policy;
    out = merge(
      out,
      "policy",
      x !== "strip"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "strip"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.request;
    out = merge(out, "request", typeof x === "boolean" ? undefined : [invalidType("boolean", x)]);
  }
  {
    const x = v.response;
    out = merge(out, "response", typeof x === "boolean" ? undefined : [invalidType("boolean", x)]);
  }
  const unknown = Object.keys(v).filter((k) => !KEYS5.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check14(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.policy;
    out = merge(
      out,
      "policy",
      x !== "omit"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "omit"', abort: true }]
        : undefined,
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS6.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check15(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check12(v), () => check13(v), () => check14(v)]);
  return out;
}

function check16(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.id;
    out = merge(
      out,
      "id",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS7.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check17(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.instructions;
    out = merge(
      out,
      "instructions",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.context;
    out = merge(
      out,
      "context",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "model", optional(check16, v.model));
  const unknown = Object.keys(v).filter((k) => !KEYS8.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check18(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "keep_first", optional(check11, v.keep_first));
  out = merge(out, "keep_last", optional(check11, v.keep_last));
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
  out = merge(out, "tool_calls", optional(check15, v.tool_calls));
  out = merge(out, "summary", optional(check17, v.summary));
  {
    const x = v.record;
    out = merge(
      out,
      "record",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS9.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check19(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check18(v[i]));
  return out;
}

function check20(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.strategy;
    out = merge(
      out,
      "strategy",
      x !== "append" && x !== "replace"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid option: expected one of "append"|"replace"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  out = merge(out, "value", check19(v.value));
  const unknown = Object.keys(v).filter((k) => !KEYS10.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check21(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check19(v), () => check20(v)]);
  return out;
}

function check22(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!(v > 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >0" });
  if (!(v <= 1)) out = add(out, { path: [], code: "too_big", message: "Too big: expected number to be <=1" });
  return out;
}

function check23(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.enabled;
    out = merge(
      out,
      "enabled",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  out = merge(out, "max_tokens", optional(check2, v.max_tokens));
  out = merge(out, "trigger_ratio", optional(check22, v.trigger_ratio));
  out = merge(out, "keep_tail", optional(check4, v.keep_tail));
  out = merge(out, "min_saving", optional(check4, v.min_saving));
  {
    const x = v.relief;
    out = merge(
      out,
      "relief",
      x === undefined
        ? undefined
        : x !== "tail" && x !== "just_under_budget"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "tail"|"just_under_budget"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  out = merge(out, "min_turns", optional(check4, v.min_turns));
  out = merge(out, "rule", optional(check18, v.rule));
  const unknown = Object.keys(v).filter((k) => !KEYS11.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check24(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "rules", optional(check21, v.rules));
  out = merge(out, "auto", optional(check23, v.auto));
  {
    const x = v.provider_summaries;
    out = merge(
      out,
      "provider_summaries",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS12.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check25(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  if (!aborted(out) && !CONFIG_CHECKS.toolSource.test(v))
    out = add(out, custom(CONFIG_CHECKS.toolSource.message(v) ?? "Invalid input"));
  return out;
}

function check26(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check0(v), () => check1(v)]);
  return out;
}

function check27(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  return out;
}

function check28(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check27(v[key]));
  return out;
}

function check29(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "boolean") return [invalidType("boolean", v)];
  return out;
}

function check30(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "on" && v !== "off" && v !== "explicit" && v !== "always")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "on"|"off"|"explicit"|"always"',
        abort: true,
      },
    ];
  return out;
}

function check31(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.state;
    out = merge(
      out,
      "state",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.allow_toggle;
    out = merge(
      out,
      "allow_toggle",
      x === undefined
        ? undefined
        : x !== "any" && x !== "never" && x !== "if_named" && x !== "if_named_or_group"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "any"|"never"|"if_named"|"if_named_or_group"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS13.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check32(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check29(v), () => check30(v), () => check31(v)]);
  return out;
}

function check33(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  const unknown = Object.keys(v).filter((k) => !KEYS14.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check34(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check33(v[key]));
  return out;
}

function check35(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.path;
    out = merge(out, "path", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.external;
    out = merge(
      out,
      "external",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.read;
    out = merge(
      out,
      "read",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.write;
    out = merge(
      out,
      "write",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.create;
    out = merge(
      out,
      "create",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.update;
    out = merge(
      out,
      "update",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.delete;
    out = merge(
      out,
      "delete",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.execute;
    out = merge(
      out,
      "execute",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS15.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check36(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check35(v[i]));
  return out;
}

function check37(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "fs", optional(check36, v.fs));
  const unknown = Object.keys(v).filter((k) => !KEYS16.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check38(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.compaction;
    out = merge(
      out,
      "compaction",
      x === undefined
        ? undefined
        : x !== "keep" && x !== "strip" && x !== "strip-requests" && x !== "strip-responses" && x !== "omit"
          ? [
              {
                path: [],
                code: "invalid_value",
                message:
                  'Invalid option: expected one of "keep"|"strip"|"strip-requests"|"strip-responses"|"omit"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  out = merge(out, "source", optional(check25, v.source));
  out = merge(out, "command", optional(check26, v.command));
  {
    const x = v.summary;
    out = merge(
      out,
      "summary",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.description;
    out = merge(
      out,
      "description",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "parameters", optional(check28, v.parameters));
  {
    const x = v.run;
    out = merge(
      out,
      "run",
      x === undefined
        ? undefined
        : x !== "ask" && x !== "unattended" && x !== "edit" && x !== "skip"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "ask"|"unattended"|"edit"|"skip"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  out = merge(out, "enable", optional(check32, v.enable));
  out = merge(out, "env", optional(check1, v.env));
  out = merge(out, "options", optional(check28, v.options));
  out = merge(out, "questions", optional(check34, v.questions));
  out = merge(out, "access", optional(check37, v.access));
  {
    const x = v.cancellation_response;
    out = merge(
      out,
      "cancellation_response",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "timeout_secs", optional(check5, v.timeout_secs));
  out = merge(out, "max_output_bytes", optional(check2, v.max_output_bytes));
  const unknown = Object.keys(v).filter((k) => !KEYS17.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check39(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check38(v[key]));
  return out;
}

function check40(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "model", optional(check16, v.model));
  const unknown = Object.keys(v).filter((k) => !KEYS18.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check41(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "generate", optional(check40, v.generate));
  const unknown = Object.keys(v).filter((k) => !KEYS19.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check42(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check26(v[key]));
  return out;
}

function check43(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(out, "type", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.path;
    out = merge(out, "path", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "params", optional(check42, v.params));
  const unknown = Object.keys(v).filter((k) => !KEYS20.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check44(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check0(v), () => check43(v)]);
  return out;
}

function check45(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check44(v[i]));
  return out;
}

function check46(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "compaction", optional(check24, v.compaction));
  out = merge(out, "tools", optional(check39, v.tools));
  out = merge(out, "title", optional(check41, v.title));
  out = merge(out, "attachments", optional(check45, v.attachments));
  const unknown = Object.keys(v).filter((k) => !KEYS21.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check47(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.algorithm;
    out = merge(
      out,
      "algorithm",
      x !== "sha256" && x !== "sha1"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid option: expected one of "sha256"|"sha1"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.value;
    out = merge(out, "value", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  const unknown = Object.keys(v).filter((k) => !KEYS22.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check48(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "stdio"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "stdio"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.command;
    out = merge(out, "command", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "arguments", optional(check1, v.arguments));
  out = merge(out, "variables", optional(check1, v.variables));
  {
    const x = v.cwd;
    out = merge(
      out,
      "cwd",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "checksum", optional(check47, v.checksum));
  {
    const x = v.optional;
    out = merge(
      out,
      "optional",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  out = merge(out, "startup_timeout_secs", optional(check5, v.startup_timeout_secs));
  {
    const x = v.all_tools;
    out = merge(
      out,
      "all_tools",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS23.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check49(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check0(v[key]));
  return out;
}

function check50(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "http"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "http"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.url;
    out = merge(out, "url", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "headers", optional(check49, v.headers));
  {
    const x = v.optional;
    out = merge(
      out,
      "optional",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  out = merge(out, "startup_timeout_secs", optional(check5, v.startup_timeout_secs));
  {
    const x = v.all_tools;
    out = merge(
      out,
      "all_tools",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS24.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check51(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check48(v), () => check50(v)]);
  return out;
}

function check52(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check51(v[key]));
  return out;
}

function check53(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "aliases", optional(check49, v.aliases));
  const unknown = Object.keys(v).filter((k) => !KEYS25.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check54(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.base_url;
    out = merge(
      out,
      "base_url",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.base_url_env;
    out = merge(
      out,
      "base_url_env",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.api_key_env;
    out = merge(
      out,
      "api_key_env",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.proxy;
    out = merge(
      out,
      "proxy",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.api;
    out = merge(
      out,
      "api",
      x === undefined
        ? undefined
        : x !== "anthropic" && x !== "gemini" && x !== "responses" && x !== "chat" && x !== "ollama"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "anthropic"|"gemini"|"responses"|"chat"|"ollama"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  {
    const x = v.keep_alive;
    out = merge(
      out,
      "keep_alive",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "beta", optional(check1, v.beta));
  {
    const x = v.prompt_cache_key;
    out = merge(
      out,
      "prompt_cache_key",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  const unknown = Object.keys(v).filter((k) => !KEYS27.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check55(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "mcp", optional(check52, v.mcp));
  out = merge(out, "llm", optional(check53, v.llm));
  for (const key of Object.keys(v)) if (!KEYS26.has(key)) out = merge(out, key, check54(v[key]));
  return out;
}

function check56(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "adaptive" && v !== "enabled" && v !== "disabled" && v !== "between_tools")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "adaptive"|"enabled"|"disabled"|"between_tools"',
        abort: true,
      },
    ];
  return out;
}

function check57(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check56(v[i]));
  return out;
}

function check58(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (
    v !== "none" &&
    v !== "minimal" &&
    v !== "low" &&
    v !== "medium" &&
    v !== "high" &&
    v !== "xhigh" &&
    v !== "max"
  )
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "none"|"minimal"|"low"|"medium"|"high"|"xhigh"|"max"',
        abort: true,
      },
    ];
  return out;
}

function check59(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check58(v[i]));
  return out;
}

function check60(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check61(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "above", check4(v.above));
  out = merge(out, "input", optional(check60, v.input));
  out = merge(out, "output", optional(check60, v.output));
  out = merge(out, "cache_read", optional(check60, v.cache_read));
  out = merge(out, "cache_write", optional(check60, v.cache_write));
  out = merge(out, "cache_write_1h", optional(check60, v.cache_write_1h));
  const unknown = Object.keys(v).filter((k) => !KEYS28.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check62(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check61(v[i]));
  return out;
}

function check63(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "input", check60(v.input));
  out = merge(out, "output", check60(v.output));
  out = merge(out, "cache_read", optional(check60, v.cache_read));
  out = merge(out, "cache_write", optional(check60, v.cache_write));
  out = merge(out, "cache_write_1h", optional(check60, v.cache_write_1h));
  out = merge(out, "tiers", optional(check62, v.tiers));
  const unknown = Object.keys(v).filter((k) => !KEYS29.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check64(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "context_window", optional(check2, v.context_window));
  out = merge(out, "max_output_tokens", optional(check2, v.max_output_tokens));
  out = merge(out, "thinking", optional(check57, v.thinking));
  out = merge(out, "efforts", optional(check59, v.efforts));
  {
    const x = v.forced_tool_use;
    out = merge(
      out,
      "forced_tool_use",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.reasoning;
    out = merge(
      out,
      "reasoning",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.preserved_thinking;
    out = merge(
      out,
      "preserved_thinking",
      x === undefined ? undefined : typeof x === "boolean" ? undefined : [invalidType("boolean", x)],
    );
  }
  {
    const x = v.lifecycle;
    out = merge(
      out,
      "lifecycle",
      x === undefined
        ? undefined
        : x !== "active" && x !== "deprecated" && x !== "retired"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "active"|"deprecated"|"retired"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  {
    const x = v.retires_at;
    out = merge(
      out,
      "retires_at",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.replacement;
    out = merge(
      out,
      "replacement",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "price", optional(check63, v.price));
  const unknown = Object.keys(v).filter((k) => !KEYS30.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

function check65(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check64(v[key]));
  return out;
}

function check66(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check63(v[key]));
  return out;
}

function check67(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "extends", optional(check1, v.extends));
  out = merge(out, "config_load_paths", optional(check1, v.config_load_paths));
  out = merge(out, "assistant", optional(check9, v.assistant));
  out = merge(out, "conversation", optional(check46, v.conversation));
  out = merge(out, "providers", optional(check55, v.providers));
  out = merge(out, "models", optional(check65, v.models));
  out = merge(out, "prices", optional(check66, v.prices));
  const unknown = Object.keys(v).filter((k) => !KEYS31.has(k));
  if (unknown.length) out = add(out, unrecognized(unknown));
  return out;
}

/** The first issue zod would report for `value` against checkConfig, or undefined when it is valid. */
export const checkConfig = firstIssue(check67);

/** Whether `value` is a valid configuration. */
export function isConfig(value: unknown): value is Config {
  return checkConfig(value) === undefined;
}

/** Every scalar key path reachable through tables only, with its leaf type (JP_* variables). */
export const CONFIG_SCALAR_PATHS: readonly { path: readonly string[]; type: string }[] = [
  { path: ["assistant", "model", "id"], type: "string" },
  { path: ["assistant", "model", "context_window"], type: "number" },
  { path: ["assistant", "system_prompt"], type: "string" },
  { path: ["assistant", "cache"], type: "boolean" },
  { path: ["assistant", "cache_ttl"], type: "enum" },
  { path: ["assistant", "request", "max_retries"], type: "number" },
  { path: ["assistant", "request", "max_continuations"], type: "number" },
  { path: ["assistant", "request", "max_tokens"], type: "number" },
  { path: ["assistant", "request", "timeout_secs"], type: "number" },
  { path: ["assistant", "request", "idle_timeout_secs"], type: "number" },
  { path: ["assistant", "request", "backoff_ms"], type: "number" },
  { path: ["assistant", "reasoning", "budget_tokens"], type: "number" },
  { path: ["assistant", "reasoning", "effort"], type: "enum" },
  { path: ["assistant", "reasoning", "display"], type: "enum" },
  { path: ["assistant", "reasoning", "prefix_mismatch"], type: "enum" },
  { path: ["assistant", "tokens", "estimate"], type: "enum" },
  { path: ["conversation", "compaction", "rules"], type: "union" },
  { path: ["conversation", "compaction", "auto", "enabled"], type: "boolean" },
  { path: ["conversation", "compaction", "auto", "max_tokens"], type: "number" },
  { path: ["conversation", "compaction", "auto", "trigger_ratio"], type: "number" },
  { path: ["conversation", "compaction", "auto", "keep_tail"], type: "number" },
  { path: ["conversation", "compaction", "auto", "min_saving"], type: "number" },
  { path: ["conversation", "compaction", "auto", "relief"], type: "enum" },
  { path: ["conversation", "compaction", "auto", "min_turns"], type: "number" },
  { path: ["conversation", "compaction", "auto", "rule", "keep_first"], type: "union" },
  { path: ["conversation", "compaction", "auto", "rule", "keep_last"], type: "union" },
  { path: ["conversation", "compaction", "auto", "rule", "reasoning"], type: "literal" },
  { path: ["conversation", "compaction", "auto", "rule", "tool_calls"], type: "union" },
  { path: ["conversation", "compaction", "auto", "rule", "summary", "instructions"], type: "string" },
  { path: ["conversation", "compaction", "auto", "rule", "summary", "context"], type: "string" },
  { path: ["conversation", "compaction", "auto", "rule", "summary", "model", "id"], type: "string" },
  { path: ["conversation", "compaction", "auto", "rule", "record"], type: "boolean" },
  { path: ["conversation", "compaction", "provider_summaries"], type: "boolean" },
  { path: ["conversation", "title", "generate", "model", "id"], type: "string" },
];
