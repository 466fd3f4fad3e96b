// Owns the shape of every event kind in a conversation log (DESIGN §3, §4).
// Validation keeps the caller's object untouched, so unknown kinds and unknown
// fields survive a read and a write byte for byte.
import * as z from "zod";
import { isJsonObject, type JsonObject } from "./json.js";
import { MAX_DEPTH, valueProblem } from "./keys.js";

/**
 * A JSON object whose values may be anything. Checked, not rebuilt: a parsed
 * line's keys are strings already, and validation keeps the line's own object,
 * so copying every key (as `z.record` does) would be work thrown away.
 */
const JsonObjectSchema = z.custom<JsonObject>(isJsonObject, "must be a JSON object");
const Metadata = JsonObjectSchema;

const base = {
  timestamp: z.string(),
  metadata: Metadata.optional(),
};

export const TurnStart = z.looseObject({ type: z.literal("turn_start"), ...base });
export type TurnStart = z.infer<typeof TurnStart>;

export const ChatRequest = z.looseObject({
  type: z.literal("chat_request"),
  ...base,
  content: z.string(),
  author: z.string().optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

export const ChatResponse = z
  .looseObject({
    type: z.literal("chat_response"),
    ...base,
    message: z.string().optional(),
    reasoning: z.string().optional(),
    data: z.unknown().optional(),
  })
  .refine(
    (e) => [e.message, e.reasoning, e.data].filter((v) => v !== undefined).length === 1,
    "a chat_response holds exactly one of message, reasoning or data",
  );
export type ChatResponse = z.infer<typeof ChatResponse>;

export const ToolCallRequest = z.looseObject({
  type: z.literal("tool_call_request"),
  ...base,
  id: z.string(),
  name: z.string(),
  arguments: JsonObjectSchema,
});
export type ToolCallRequest = z.infer<typeof ToolCallRequest>;

export const ToolCallResponse = z.looseObject({
  type: z.literal("tool_call_response"),
  ...base,
  id: z.string(),
  content: z.string(),
  is_error: z.boolean(),
});
export type ToolCallResponse = z.infer<typeof ToolCallResponse>;

export const InquiryRequest = z.looseObject({ type: z.literal("inquiry_request"), ...base });
export type InquiryRequest = z.infer<typeof InquiryRequest>;

export const InquiryResponse = z.looseObject({ type: z.literal("inquiry_response"), ...base });
export type InquiryResponse = z.infer<typeof InquiryResponse>;

export const ConfigDelta = z.looseObject({
  type: z.literal("config_delta"),
  ...base,
  delta: JsonObjectSchema,
});
export type ConfigDelta = z.infer<typeof ConfigDelta>;

export const ToolPolicy = z.union([
  z.object({ policy: z.literal("strip"), request: z.boolean(), response: z.boolean() }),
  z.object({ policy: z.literal("omit") }),
]);
export type ToolPolicy = z.infer<typeof ToolPolicy>;

export const Summary = z.object({
  text: z.string(),
  source: z.enum(["derived", "supplied"]),
  author: z.enum(["user", "assistant"]).optional(),
  model: z.string().optional(),
});
export type Summary = z.infer<typeof Summary>;

export const CompactionStats = z.looseObject({
  tokens_before: z.number().optional(),
  tokens_after: z.number().optional(),
});
export type CompactionStats = z.infer<typeof CompactionStats>;

export const CompactionSource = z.enum(["user", "assistant", "auto"]);
export type CompactionSource = z.infer<typeof CompactionSource>;

export const Compaction = z.looseObject({
  type: z.literal("compaction"),
  ...base,
  id: z.string().min(1),
  from_turn: z.number().int().nonnegative(),
  to_turn: z.number().int().nonnegative(),
  to_call: z.string().optional(),
  summary: Summary.optional(),
  reasoning: z.literal("strip").optional(),
  tool_calls: ToolPolicy.optional(),
  tool_overrides: z.record(z.string(), ToolPolicy).optional(),
  deferred_until_turn: z.number().int().nonnegative().optional(),
  source: CompactionSource,
  note: z.string().max(200).optional(),
  stats: CompactionStats.optional(),
});
export type Compaction = z.infer<typeof Compaction>;

export const CompactionReset = z.looseObject({
  type: z.literal("compaction_reset"),
  ...base,
  ids: z.array(z.string()).optional(),
});
export type CompactionReset = z.infer<typeof CompactionReset>;

/**
 * A request that failed before any response arrived (or whose process died
 * waiting): its turn stays in the log but is left out of what the model sees,
 * so asking again never sends the question twice. Global: it names its turn.
 */
export const RequestFailed = z.looseObject({
  type: z.literal("request_failed"),
  ...base,
  turn: z.number().int().nonnegative(),
  reason: z.string(),
});
export type RequestFailed = z.infer<typeof RequestFailed>;

/** The `type` of every event of a kind this version does not know. */
export const UNKNOWN_KIND: unique symbol = Symbol("jp.unknown-kind");

/**
 * An event of a kind this version does not know, wrapped so that it can never
 * pass for a known one: `switch (event.type)` narrows every known kind. The
 * line's object is kept as it was read and written back as is (`toJSON`).
 */
export class UnknownEvent {
  readonly type: typeof UNKNOWN_KIND = UNKNOWN_KIND;
  constructor(readonly raw: JsonObject & { type: string }) {}
  /** The kind the line names. */
  get kind(): string {
    return this.raw.type;
  }
  get timestamp(): string | undefined {
    return typeof this.raw.timestamp === "string" ? this.raw.timestamp : undefined;
  }
  toJSON(): JsonObject {
    return this.raw;
  }
}

const knownSchemas = {
  turn_start: TurnStart,
  chat_request: ChatRequest,
  chat_response: ChatResponse,
  tool_call_request: ToolCallRequest,
  tool_call_response: ToolCallResponse,
  inquiry_request: InquiryRequest,
  inquiry_response: InquiryResponse,
  config_delta: ConfigDelta,
  compaction: Compaction,
  compaction_reset: CompactionReset,
  request_failed: RequestFailed,
} as const;

export type EventKind = keyof typeof knownSchemas;
// Cast: Object.keys types its result as string[]; these keys are exactly the kinds.
export const EVENT_KINDS = Object.keys(knownSchemas) as EventKind[];

export type KnownEvent =
  | TurnStart
  | ChatRequest
  | ChatResponse
  | ToolCallRequest
  | ToolCallResponse
  | InquiryRequest
  | InquiryResponse
  | ConfigDelta
  | Compaction
  | CompactionReset
  | RequestFailed;

/** Any line of a log: a known kind, or an unknown one kept verbatim. A closed union. */
export type Event = KnownEvent | UnknownEvent;

export function isKnownKind(type: unknown): type is EventKind {
  return typeof type === "string" && Object.hasOwn(knownSchemas, type);
}

export function isKnown(event: Event): event is KnownEvent {
  return event.type !== UNKNOWN_KIND;
}

/** The kind an event's line names, known or not. */
export function kindOf(event: Event): string {
  return event.type === UNKNOWN_KIND ? event.kind : event.type;
}

/** Narrow an event to one kind. */
export function isKind<K extends EventKind>(
  event: Event,
  kind: K,
): event is Extract<KnownEvent, { type: K }> {
  return event.type === kind;
}

function hasStringType(value: JsonObject): value is JsonObject & { type: string } {
  return typeof value.type === "string";
}

export type ValidationResult = { ok: true; event: Event } | { ok: false; reason: string };

/**
 * Check a parsed log line. Known kinds must match their schema; any other
 * object with a string `type` is an unknown kind and is accepted as is.
 * The returned event is the input object itself, never a copy. A value that
 * nests deeper than MAX_DEPTH (serialising or cloning it would overflow the
 * stack) or holds a forbidden key is refused.
 */
export function validateEvent(value: unknown): ValidationResult {
  if (!isJsonObject(value)) return { ok: false, reason: "not a JSON object" };
  const problem = valueProblem(value);
  if (problem?.kind === "too_deep") return { ok: false, reason: `nested more than ${MAX_DEPTH} levels deep` };
  if (problem) return { ok: false, reason: `forbidden key \`${problem.path}\`` };
  if (!hasStringType(value)) return { ok: false, reason: "missing string field `type`" };
  const { type } = value;
  if (!isKnownKind(type)) return { ok: true, event: new UnknownEvent(value) };
  const result = knownSchemas[type].safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at \`${issue.path.join(".")}\`` : "";
    return { ok: false, reason: `invalid ${type}${where}: ${issue?.message ?? "schema mismatch"}` };
  }
  // Cast: validation keeps the caller's object itself (its unknown fields pass byte
  // for byte), so the checked value is returned as the type the schema proved.
  return { ok: true, event: value as KnownEvent };
}
