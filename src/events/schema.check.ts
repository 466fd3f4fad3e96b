// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.
// The event kinds' checkers: reading a log needs no zod.

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
  out = merge(out, "metadata", optional(check0, v.metadata));
  return out;
}

function check2(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.source;
    out = merge(out, "source", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.media_type;
    out = merge(out, "media_type", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.text;
    out = merge(out, "text", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  return out;
}

function check3(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.source;
    out = merge(out, "source", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.media_type;
    out = merge(out, "media_type", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  {
    const x = v.data;
    out = merge(out, "data", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  return out;
}

function check4(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check2(v), () => check3(v)]);
  return out;
}

function check5(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check4(v[i]));
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
  out = merge(out, "metadata", optional(check0, v.metadata));
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
  out = merge(out, "attachments", optional(check5, v.attachments));
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
  out = merge(out, "metadata", optional(check0, v.metadata));
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

function check8(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  return [invalidType("never", v)];
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  {
    const x = v.message;
    out = merge(out, "message", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "reasoning", optional(check8, v.reasoning));
  out = merge(out, "data", optional(check8, v.data));
  return out;
}

function check10(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  {
    const x = v.reasoning;
    out = merge(out, "reasoning", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "message", optional(check8, v.message));
  out = merge(out, "data", optional(check8, v.data));
  return out;
}

function check11(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  if (!("data" in v)) out = merge(out, "data", [invalidType("nonoptional", undefined)]);
  out = merge(out, "message", optional(check8, v.message));
  out = merge(out, "reasoning", optional(check8, v.reasoning));
  return out;
}

function check12(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check9(v), () => check10(v), () => check11(v)]);
  return out;
}

function check13(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = check7(v);
  if (out) return out;
  out = check12(v);
  return out;
}

function check14(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
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

function check15(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
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

function check16(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  return out;
}

function check17(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  return out;
}

function check18(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  out = merge(out, "delta", check0(v.delta));
  return out;
}

function check19(v: unknown): SchemaIssue[] | undefined {
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

function check20(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });
  out = safeIntRange(out, v);
  if (!(v >= 0))
    out = add(out, { path: [], code: "too_small", message: "Too small: expected number to be >=0" });
  return out;
}

function check21(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "string") return [invalidType("string", v)];
  return out;
}

function check22(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!Array.isArray(v)) return [invalidType("array", v)];
  for (let i = 0; i < v.length; i++) out = merge(out, i, check21(v[i]));
  return out;
}

function check23(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "block", check0(v.block));
  {
    const x = v.continues;
    out = merge(out, "continues", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "betas", optional(check22, v.betas));
  return out;
}

function check24(v: unknown): SchemaIssue[] | undefined {
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
    const x = v.edited_by;
    out = merge(
      out,
      "edited_by",
      x === undefined
        ? undefined
        : x !== "user"
          ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "user"', abort: true }]
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
  out = merge(out, "provider", optional(check23, v.provider));
  return out;
}

function check25(v: unknown): SchemaIssue[] | undefined {
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

function check26(v: unknown): SchemaIssue[] | undefined {
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

function check27(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  out = pickBranch([check25(v), () => check26(v)]);
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
  if (typeof v !== "string") return [invalidType("string", v)];
  if (v.length > 200)
    out = add(out, {
      path: [],
      code: "too_big",
      message: "Too big: expected string to have <=200 characters",
    });
  return out;
}

function check30(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];
  return out;
}

function check31(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  out = merge(out, "tokens_before", optional(check30, v.tokens_before));
  out = merge(out, "tokens_after", optional(check30, v.tokens_after));
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
      x !== "compaction"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "compaction"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", optional(check0, v.metadata));
  out = merge(out, "id", check19(v.id));
  out = merge(out, "from_turn", check20(v.from_turn));
  out = merge(out, "to_turn", check20(v.to_turn));
  {
    const x = v.to_call;
    out = merge(
      out,
      "to_call",
      x === undefined ? undefined : typeof x === "string" ? undefined : [invalidType("string", x)],
    );
  }
  out = merge(out, "summary", optional(check24, v.summary));
  {
    const x = v.record;
    out = merge(
      out,
      "record",
      x === undefined
        ? undefined
        : x !== false
          ? [{ path: [], code: "invalid_value", message: "Invalid input: expected false", abort: true }]
          : undefined,
    );
  }
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
  out = merge(out, "tool_calls", optional(check27, v.tool_calls));
  out = merge(out, "tool_overrides", optional(check28, v.tool_overrides));
  out = merge(out, "deferred_until_turn", optional(check20, v.deferred_until_turn));
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
  out = merge(out, "note", optional(check29, v.note));
  out = merge(out, "stats", optional(check31, v.stats));
  return out;
}

function check33(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  out = merge(out, "ids", optional(check22, v.ids));
  return out;
}

function check34(v: unknown): SchemaIssue[] | undefined {
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
  out = merge(out, "metadata", optional(check0, v.metadata));
  out = merge(out, "turn", check20(v.turn));
  {
    const x = v.reason;
    out = merge(out, "reason", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  return out;
}

function check35(v: unknown): SchemaIssue[] | undefined {
  let out: SchemaIssue[] | undefined;
  if (!isObject(v)) return [invalidType("object", v)];
  {
    const x = v.type;
    out = merge(
      out,
      "type",
      x !== "pin"
        ? [{ path: [], code: "invalid_value", message: 'Invalid input: expected "pin"', abort: true }]
        : undefined,
    );
  }
  {
    const x = v.timestamp;
    out = merge(out, "timestamp", typeof x === "string" ? undefined : [invalidType("string", x)]);
  }
  out = merge(out, "metadata", optional(check0, v.metadata));
  out = merge(out, "turn", check20(v.turn));
  {
    const x = v.pinned;
    out = merge(out, "pinned", typeof x === "boolean" ? undefined : [invalidType("boolean", x)]);
  }
  {
    const x = v.source;
    out = merge(
      out,
      "source",
      x === undefined
        ? undefined
        : x !== "user" && x !== "assistant" && x !== "auto"
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
  out = merge(out, "note", optional(check29, v.note));
  return out;
}

/** The checker of each known kind: the first issue zod would report, or undefined when valid. */
export const KNOWN_EVENT_CHECKERS: Readonly<Record<EventKind, (value: unknown) => SchemaIssue | undefined>> =
  {
    turn_start: firstIssue(check1),
    chat_request: firstIssue(check6),
    chat_response: firstIssue(check13),
    tool_call_request: firstIssue(check14),
    tool_call_response: firstIssue(check15),
    inquiry_request: firstIssue(check16),
    inquiry_response: firstIssue(check17),
    config_delta: firstIssue(check18),
    compaction: firstIssue(check32),
    compaction_reset: firstIssue(check33),
    request_failed: firstIssue(check34),
    pin: firstIssue(check35),
  };
