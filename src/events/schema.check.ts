// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The event kinds' checkers: reading a log needs no zod.

import { EVENT_CHECKS } from "./checks.js";
import type { EventKind } from "./schema.js";

export interface SchemaIssue {
  /** Keys and indices from the checked value to the offending one. */
  path: (string | number)[];
  /** zod's issue code. */
  code: string;
  /** zod's message. */
  message: string;
  /** For unrecognized_keys: the keys. */
  keys?: string[];
  /** Whether zod stops checking this value here (a wrong type does; a bound or unknown keys do not). */
  abort?: boolean;
}

type Issues = SchemaIssue[] | undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** zod's test for a record: an object whose prototype is Object's (or none). */
function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const ctor: unknown = v.constructor;
  if (ctor === undefined) return true;
  if (typeof ctor !== "function") return false;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.hasOwn(proto, "isPrototypeOf");
}

function received(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : Number.isFinite(v) ? "number" : "Infinity";
  return typeof v;
}

function invalidType(expected: string, v: unknown): SchemaIssue {
  return {
    path: [],
    code: "invalid_type",
    message: `Invalid input: expected ${expected}, received ${received(v)}`,
    abort: true,
  };
}

function custom(message: string): SchemaIssue {
  return { path: [], code: "custom", message };
}

function unrecognized(keys: string[]): SchemaIssue {
  const list = keys.map((k) => `"${k}"`).join(", ");
  return {
    path: [],
    code: "unrecognized_keys",
    keys,
    message: `Unrecognized key${keys.length > 1 ? "s" : ""}: ${list}`,
  };
}

function add(out: Issues, issue: SchemaIssue): SchemaIssue[] {
  if (!out) return [issue];
  out.push(issue);
  return out;
}

/** The issues of a part of the value, under its key. */
function merge(out: Issues, key: string | number, issues: Issues): Issues {
  if (!issues) return out;
  for (const issue of issues) issue.path.unshift(key);
  return out ? out.concat(issues) : issues;
}

function aborted(out: Issues): boolean {
  return out !== undefined && out.some((issue) => issue.abort === true);
}

/** A union: the first branch without issues wins; else the one branch that did not abort; else invalid_union. */
function pickBranch([first, ...rest]: [Issues, ...(() => Issues)[]]): Issues {
  if (!first) return undefined;
  const failed = [first];
  for (const branch of rest) {
    const issues = branch();
    if (!issues) return undefined;
    failed.push(issues);
  }
  const live = failed.filter((issues) => !aborted(issues));
  if (live.length === 1) return live[0];
  return [{ path: [], code: "invalid_union", message: "Invalid input", abort: true }];
}

function check0(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "turn_start")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "turn_start"', abort: true },
    ];
  return out;
}

function check1(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  return out;
}

function check2(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!EVENT_CHECKS.jsonObject.test(v)) out = add(out, custom("must be a JSON object"));
  return out;
}

function check3(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check2(v);
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check0(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  return out;
}

function check5(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "chat_request")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "chat_request"', abort: true },
    ];
  return out;
}

function check6(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check1(v);
  return out;
}

function check7(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check5(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "content", check1(v.content));
  out = merge(out, "author", check6(v.author));
  return out;
}

function check8(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "chat_response")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "chat_response"', abort: true },
    ];
  return out;
}

function check9(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  return out;
}

function check10(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check9(v);
  return out;
}

function check11(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check8(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "message", check6(v.message));
  out = merge(out, "reasoning", check6(v.reasoning));
  out = merge(out, "data", check10(v.data));
  if (!aborted(out) && !EVENT_CHECKS.oneBody.test(v))
    out = add(out, custom("a chat_response holds exactly one of message, reasoning or data"));
  return out;
}

function check12(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "tool_call_request")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid input: expected "tool_call_request"',
        abort: true,
      },
    ];
  return out;
}

function check13(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check12(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "id", check1(v.id));
  out = merge(out, "name", check1(v.name));
  out = merge(out, "arguments", check2(v.arguments));
  return out;
}

function check14(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "tool_call_response")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid input: expected "tool_call_response"',
        abort: true,
      },
    ];
  return out;
}

function check15(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "boolean") return [invalidType("boolean", v)];
  return out;
}

function check16(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check14(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "id", check1(v.id));
  out = merge(out, "content", check1(v.content));
  out = merge(out, "is_error", check15(v.is_error));
  return out;
}

function check17(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "inquiry_request")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "inquiry_request"', abort: true },
    ];
  return out;
}

function check18(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check17(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  return out;
}

function check19(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "inquiry_response")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "inquiry_response"', abort: true },
    ];
  return out;
}

function check20(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check19(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  return out;
}

function check21(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "config_delta")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "config_delta"', abort: true },
    ];
  return out;
}

function check22(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check21(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "delta", check2(v.delta));
  return out;
}

function check23(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "compaction")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "compaction"', abort: true },
    ];
  return out;
}

function check24(v: unknown): SchemaIssue[] | undefined {
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

function check25(v: unknown): SchemaIssue[] | undefined {
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

function check26(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "derived" && v !== "supplied")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "derived"|"supplied"',
        abort: true,
      },
    ];
  return out;
}

function check27(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "user" && v !== "assistant")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "user"|"assistant"',
        abort: true,
      },
    ];
  return out;
}

function check28(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check27(v);
  return out;
}

function check29(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "text", check1(v.text));
  out = merge(out, "source", check26(v.source));
  out = merge(out, "author", check28(v.author));
  out = merge(out, "model", check6(v.model));
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
  if (v !== "strip")
    return [{ path: [], code: "invalid_value", message: 'Invalid input: expected "strip"', abort: true }];
  return out;
}

function check32(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check31(v);
  return out;
}

function check33(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "policy", check31(v.policy));
  out = merge(out, "request", check15(v.request));
  out = merge(out, "response", check15(v.response));
  return out;
}

function check34(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "omit")
    return [{ path: [], code: "invalid_value", message: 'Invalid input: expected "omit"', abort: true }];
  return out;
}

function check35(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "policy", check34(v.policy));
  return out;
}

function check36(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check33(v), () => check35(v)]);
  return out;
}

function check37(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check36(v);
  return out;
}

function check38(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isPlainRecord(v)) return [invalidType("record", v)];
  for (const key of Object.keys(v)) out = merge(out, key, check36(v[key]));
  return out;
}

function check39(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check38(v);
  return out;
}

function check40(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check25(v);
  return out;
}

function check41(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "user" && v !== "assistant" && v !== "auto")
    return [
      {
        path: [],
        code: "invalid_value",
        message: 'Invalid option: expected one of "user"|"assistant"|"auto"',
        abort: true,
      },
    ];
  return out;
}

function check42(v: unknown): SchemaIssue[] | undefined {
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

function check43(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check42(v);
  return out;
}

function check44(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  return out;
}

function check45(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check44(v);
  return out;
}

function check46(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "tokens_before", check45(v.tokens_before));
  out = merge(out, "tokens_after", check45(v.tokens_after));
  return out;
}

function check47(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check46(v);
  return out;
}

function check48(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check23(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "id", check24(v.id));
  out = merge(out, "from_turn", check25(v.from_turn));
  out = merge(out, "to_turn", check25(v.to_turn));
  out = merge(out, "to_call", check6(v.to_call));
  out = merge(out, "summary", check30(v.summary));
  out = merge(out, "reasoning", check32(v.reasoning));
  out = merge(out, "tool_calls", check37(v.tool_calls));
  out = merge(out, "tool_overrides", check39(v.tool_overrides));
  out = merge(out, "deferred_until_turn", check40(v.deferred_until_turn));
  out = merge(out, "source", check41(v.source));
  out = merge(out, "note", check43(v.note));
  out = merge(out, "stats", check47(v.stats));
  return out;
}

function check49(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "compaction_reset")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "compaction_reset"', abort: true },
    ];
  return out;
}

function check50(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check1(v[i]));
  return out;
}

function check51(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v === undefined) return undefined;
  out = check50(v);
  return out;
}

function check52(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check49(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "ids", check51(v.ids));
  return out;
}

function check53(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (v !== "request_failed")
    return [
      { path: [], code: "invalid_value", message: 'Invalid input: expected "request_failed"', abort: true },
    ];
  return out;
}

function check54(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "type", check53(v.type));
  out = merge(out, "timestamp", check1(v.timestamp));
  out = merge(out, "metadata", check3(v.metadata));
  out = merge(out, "turn", check25(v.turn));
  out = merge(out, "reason", check1(v.reason));
  return out;
}

/** The first issue zod would report for `value` against checkTurnStart, or undefined when it is valid. */
export function checkTurnStart(value: unknown): SchemaIssue | undefined {
  return check4(value)?.[0];
}

/** The first issue zod would report for `value` against checkChatRequest, or undefined when it is valid. */
export function checkChatRequest(value: unknown): SchemaIssue | undefined {
  return check7(value)?.[0];
}

/** The first issue zod would report for `value` against checkChatResponse, or undefined when it is valid. */
export function checkChatResponse(value: unknown): SchemaIssue | undefined {
  return check11(value)?.[0];
}

/** The first issue zod would report for `value` against checkToolCallRequest, or undefined when it is valid. */
export function checkToolCallRequest(value: unknown): SchemaIssue | undefined {
  return check13(value)?.[0];
}

/** The first issue zod would report for `value` against checkToolCallResponse, or undefined when it is valid. */
export function checkToolCallResponse(value: unknown): SchemaIssue | undefined {
  return check16(value)?.[0];
}

/** The first issue zod would report for `value` against checkInquiryRequest, or undefined when it is valid. */
export function checkInquiryRequest(value: unknown): SchemaIssue | undefined {
  return check18(value)?.[0];
}

/** The first issue zod would report for `value` against checkInquiryResponse, or undefined when it is valid. */
export function checkInquiryResponse(value: unknown): SchemaIssue | undefined {
  return check20(value)?.[0];
}

/** The first issue zod would report for `value` against checkConfigDelta, or undefined when it is valid. */
export function checkConfigDelta(value: unknown): SchemaIssue | undefined {
  return check22(value)?.[0];
}

/** The first issue zod would report for `value` against checkCompaction, or undefined when it is valid. */
export function checkCompaction(value: unknown): SchemaIssue | undefined {
  return check48(value)?.[0];
}

/** The first issue zod would report for `value` against checkCompactionReset, or undefined when it is valid. */
export function checkCompactionReset(value: unknown): SchemaIssue | undefined {
  return check52(value)?.[0];
}

/** The first issue zod would report for `value` against checkRequestFailed, or undefined when it is valid. */
export function checkRequestFailed(value: unknown): SchemaIssue | undefined {
  return check54(value)?.[0];
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
