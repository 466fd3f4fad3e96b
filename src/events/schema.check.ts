// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The event kinds' checkers: reading a log needs no zod.

import {
  add,
  aborted,
  custom,
  invalidType,
  isObject,
  isPlainRecord,
  merge,
  pickBranch,
  type SchemaIssue,
} from "./schema-issues.js";
import { EVENT_CHECKS } from "./checks.js";
import type { EventKind } from "./schema.js";
export type { SchemaIssue } from "./schema-issues.js";

function check0(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!EVENT_CHECKS.jsonObject.test(v)) out = add(out, custom("must be a JSON object"));
  return out;
}

function check1(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check0(v);
  return out;
}

function check2(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "turn_start"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "turn_start"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  return out;
}

function check3(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "chat_request"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "chat_request"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  {
    const x = v.content;
    out = merge(out, "content", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.author;
    out = merge(
      out,
      "author",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "chat_response"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "chat_response"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  {
    const x = v.message;
    out = merge(
      out,
      "message",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  {
    const x = v.reasoning;
    out = merge(
      out,
      "reasoning",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  if (!aborted(out) && !EVENT_CHECKS.oneBody.test(v))
    out = add(out, custom("a chat_response holds exactly one of message, reasoning or data"));
  return out;
}

function check5(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "tool_call_request"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "tool_call_request"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  {
    const x = v.id;
    out = merge(out, "id", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.name;
    out = merge(out, "name", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "arguments", check0(v.arguments));
  return out;
}

function check6(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "tool_call_response"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "tool_call_response"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  {
    const x = v.id;
    out = merge(out, "id", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.content;
    out = merge(out, "content", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.is_error;
    out = merge(out, "is_error", typeof x === "boolean" ? undefined : [invalidType("boolean", x)]);
  }
  return out;
}

function check7(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "inquiry_request"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "inquiry_request"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  return out;
}

function check8(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "inquiry_response"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "inquiry_response"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  return out;
}

function check9(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "config_delta"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "config_delta"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  out = merge(out, "delta", check0(v.delta));
  return out;
}

function check10(v: unknown): SchemaIssue[] | undefined {
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

function check11(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  if (v > Number.MAX_SAFE_INTEGER)
    out = add(out, { path: [], code: "too_big", message: "Too big: expected int to be <=9007199254740991" });
  if (v < Number.MIN_SAFE_INTEGER)
    out = add(out, {
      path: [],
      code: "too_small",
      message: "Too small: expected int to be >=-9007199254740991",
    });
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check12(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.text;
    out = merge(out, "text", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.source;
    out = merge(
      out,
      "source",
      x !== "derived" && x !== "supplied"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid option: expected one of "derived"|"supplied"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.author;
    out = merge(
      out,
      "author",
      x === undefined
        ? undefined
        : x !== "user" && x !== "assistant"
          ? [
              {
                path: [],
                code: "invalid_value",
                message: 'Invalid option: expected one of "user"|"assistant"',
                abort: true,
              },
            ]
          : undefined,
    );
  }
  {
    const x = v.model;
    out = merge(
      out,
      "model",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  return out;
}

function check13(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check12(v);
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
  return out;
}

function check15(v: unknown): SchemaIssue[] | undefined {
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
  return out;
}

function check16(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check14(v), () => check15(v)]);
  return out;
}

function check17(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check16(v);
  return out;
}

function check18(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check16(v[key]));
  return out;
}

function check19(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check18(v);
  return out;
}

function check20(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check11(v);
  return out;
}

function check21(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  if (v.length > 200)
    out = add(out, {
      path: [],
      code: "too_big",
      message: "Too big: expected string to have <=200 characters",
    });
  return out;
}

function check22(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check21(v);
  return out;
}

function check23(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  return out;
}

function check24(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check23(v);
  return out;
}

function check25(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "tokens_before", check24(v.tokens_before));
  out = merge(out, "tokens_after", check24(v.tokens_after));
  return out;
}

function check26(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check25(v);
  return out;
}

function check27(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "compaction"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "compaction"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  out = merge(out, "id", check10(v.id));
  out = merge(out, "from_turn", check11(v.from_turn));
  out = merge(out, "to_turn", check11(v.to_turn));
  {
    const x = v.to_call;
    out = merge(
      out,
      "to_call",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "summary", check13(v.summary));
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
  out = merge(out, "tool_calls", check17(v.tool_calls));
  out = merge(out, "tool_overrides", check19(v.tool_overrides));
  out = merge(out, "deferred_until_turn", check20(v.deferred_until_turn));
  {
    const x = v.source;
    out = merge(
      out,
      "source",
      x !== "user" && x !== "assistant" && x !== "auto"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid option: expected one of "user"|"assistant"|"auto"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  out = merge(out, "note", check22(v.note));
  out = merge(out, "stats", check26(v.stats));
  return out;
}

function check28(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  return out;
}

function check29(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check28(v[i]));
  return out;
}

function check30(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check29(v);
  return out;
}

function check31(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "compaction_reset"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "compaction_reset"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  out = merge(out, "ids", check30(v.ids));
  return out;
}

function check32(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "request_failed"
        ? [
            {
              path: [],
              code: "invalid_value",
              message: 'Invalid input: expected "request_failed"',
              abort: true,
            },
          ]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", check1(v.metadata));
  out = merge(out, "turn", check11(v.turn));
  {
    const x = v.reason;
    out = merge(out, "reason", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  return out;
}

/** The first issue zod would report for `value` against checkTurnStart, or undefined when it is valid. */
export function checkTurnStart(value: unknown): SchemaIssue | undefined {
  return check2(value)?.[0];
}

/** The first issue zod would report for `value` against checkChatRequest, or undefined when it is valid. */
export function checkChatRequest(value: unknown): SchemaIssue | undefined {
  return check3(value)?.[0];
}

/** The first issue zod would report for `value` against checkChatResponse, or undefined when it is valid. */
export function checkChatResponse(value: unknown): SchemaIssue | undefined {
  return check4(value)?.[0];
}

/** The first issue zod would report for `value` against checkToolCallRequest, or undefined when it is valid. */
export function checkToolCallRequest(value: unknown): SchemaIssue | undefined {
  return check5(value)?.[0];
}

/** The first issue zod would report for `value` against checkToolCallResponse, or undefined when it is valid. */
export function checkToolCallResponse(value: unknown): SchemaIssue | undefined {
  return check6(value)?.[0];
}

/** The first issue zod would report for `value` against checkInquiryRequest, or undefined when it is valid. */
export function checkInquiryRequest(value: unknown): SchemaIssue | undefined {
  return check7(value)?.[0];
}

/** The first issue zod would report for `value` against checkInquiryResponse, or undefined when it is valid. */
export function checkInquiryResponse(value: unknown): SchemaIssue | undefined {
  return check8(value)?.[0];
}

/** The first issue zod would report for `value` against checkConfigDelta, or undefined when it is valid. */
export function checkConfigDelta(value: unknown): SchemaIssue | undefined {
  return check9(value)?.[0];
}

/** The first issue zod would report for `value` against checkCompaction, or undefined when it is valid. */
export function checkCompaction(value: unknown): SchemaIssue | undefined {
  return check27(value)?.[0];
}

/** The first issue zod would report for `value` against checkCompactionReset, or undefined when it is valid. */
export function checkCompactionReset(value: unknown): SchemaIssue | undefined {
  return check31(value)?.[0];
}

/** The first issue zod would report for `value` against checkRequestFailed, or undefined when it is valid. */
export function checkRequestFailed(value: unknown): SchemaIssue | undefined {
  return check32(value)?.[0];
}

/** The checker of each known kind. */
export const KNOWN_EVENT_CHECKERS: Readonly<Record<EventKind, (value: unknown) => SchemaIssue | undefined>> =
  {
    turn_start: checkTurnStart,
    chat_request: checkChatRequest,
    chat_response: checkChatResponse,
    tool_call_request: checkToolCallRequest,
    tool_call_response: checkToolCallResponse,
    inquiry_request: checkInquiryRequest,
    inquiry_response: checkInquiryResponse,
    config_delta: checkConfigDelta,
    compaction: checkCompaction,
    compaction_reset: checkCompactionReset,
    request_failed: checkRequestFailed,
  };
