// Owns the shape of every event kind in a conversation log (docs/architecture.md §3, §4):
// the one statement of it, in zod. Nothing loads this at run time: reading a
// log uses the checkers derived from these schemas (schema.check.ts, written
// by scripts/schema-checks.mjs), and the types below are erased.
//
// The types are exact (`z.object`): a misspelt field does not compile. The
// checkers still let unknown fields through, as they must: a log written by a
// newer jp keeps what this one does not know, and writes it back unchanged.
import * as z from "zod";
import { EVENT_CHECKS } from "./checks.js";
import type { JsonObject } from "./json.js";

/**
 * A JSON object whose values may be anything. Checked, not rebuilt: a parsed
 * line's keys are strings already, and validation keeps the line's own object,
 * so copying every key (as `z.record` does) would be work thrown away.
 */
const JsonObjectSchema = z.custom<JsonObject>(EVENT_CHECKS.jsonObject.test, EVENT_CHECKS.jsonObject.message);
const Metadata = JsonObjectSchema;

const base = {
  timestamp: z.string(),
  metadata: Metadata.optional(),
};

export const TurnStart = z.object({ type: z.literal("turn_start"), ...base });
export type TurnStart = z.infer<typeof TurnStart>;

/** A file or page attached to a question (`jp q -a`), kept whole: text as it is, anything else in base64. */
export const Attachment = z.union([
  z.object({ source: z.string(), media_type: z.string(), text: z.string() }),
  z.object({ source: z.string(), media_type: z.string(), data: z.string() }),
]);
export type Attachment = z.infer<typeof Attachment>;

export const ChatRequest = z.object({
  type: z.literal("chat_request"),
  ...base,
  content: z.string(),
  author: z.string().optional(),
  attachments: z.array(Attachment).optional(),
});
export type ChatRequest = z.infer<typeof ChatRequest>;

/** The fields a chat_response may carry; exactly one of its bodies is there. */
const ChatResponseFields = z
  .object({
    type: z.literal("chat_response"),
    ...base,
    message: z.string().optional(),
    reasoning: z.string().optional(),
    data: z.unknown().optional(),
  })
  .refine(EVENT_CHECKS.oneBody.test, EVENT_CHECKS.oneBody.message);

const responseHead = { type: z.literal("chat_response"), ...base };
/** Text the assistant said (or refused with). */
export const MessageResponse = z.object({
  ...responseHead,
  message: z.string(),
  reasoning: z.never().optional(),
  data: z.never().optional(),
});
export type MessageResponse = z.infer<typeof MessageResponse>;
/** The assistant's reasoning (thinking), possibly redacted by the provider. */
export const ReasoningResponse = z.object({
  ...responseHead,
  reasoning: z.string(),
  message: z.never().optional(),
  data: z.never().optional(),
});
export type ReasoningResponse = z.infer<typeof ReasoningResponse>;
/** A block jp keeps as data: a provider's own block, sent back as it came. */
export const DataResponse = z.object({
  ...responseHead,
  data: z.unknown(),
  message: z.never().optional(),
  reasoning: z.never().optional(),
});
export type DataResponse = z.infer<typeof DataResponse>;

/**
 * One block of an answer. The refinement states the rule with a message a
 * person can act on; the union makes it the type, so code that builds a
 * response with two bodies (or none) does not compile.
 */
export const ChatResponse = ChatResponseFields.pipe(
  z.union([MessageResponse, ReasoningResponse, DataResponse]),
);
export type ChatResponse = z.infer<typeof ChatResponse>;

export const ToolCallRequest = z.object({
  type: z.literal("tool_call_request"),
  ...base,
  id: z.string(),
  name: z.string(),
  arguments: JsonObjectSchema,
});
export type ToolCallRequest = z.infer<typeof ToolCallRequest>;

export const ToolCallResponse = z.object({
  type: z.literal("tool_call_response"),
  ...base,
  id: z.string(),
  content: z.string(),
  is_error: z.boolean(),
});
export type ToolCallResponse = z.infer<typeof ToolCallResponse>;

export const InquiryRequest = z.object({ type: z.literal("inquiry_request"), ...base });
export type InquiryRequest = z.infer<typeof InquiryRequest>;

export const InquiryResponse = z.object({ type: z.literal("inquiry_response"), ...base });
export type InquiryResponse = z.infer<typeof InquiryResponse>;

export const ConfigDelta = z.object({
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
  /** The user changed the author's text before it was recorded (the compact tool's `e`). */
  edited_by: z.enum(["user"]).optional(),
  model: z.string().optional(),
  /**
   * Written by the provider's own compaction (Anthropic's `compaction`
   * block): the block as it came, sent back verbatim in place of the turns it
   * summarises to the model that wrote it, while `text` (its readable
   * content) goes to any other. `continues`: the digest of the history the
   * block stands for, from which the reasoning of later turns stays bound.
   * `betas`: the beta features every request carrying the block must name
   * (Anthropic's `anthropic-beta` header), recorded when it was written so
   * a later jp with other defaults still sends them; a block recorded
   * without them was written under `compact-2026-09-04`.
   */
  provider: z
    .object({ block: JsonObjectSchema, continues: z.string(), betas: z.array(z.string()).optional() })
    .optional(),
});
export type Summary = z.infer<typeof Summary>;

export const CompactionStats = z.object({
  tokens_before: z.number().optional(),
  tokens_after: z.number().optional(),
});
export type CompactionStats = z.infer<typeof CompactionStats>;

export const CompactionSource = z.enum(["user", "assistant", "auto"]);
export type CompactionSource = z.infer<typeof CompactionSource>;

export const Compaction = z.object({
  type: z.literal("compaction"),
  ...base,
  id: z.string().min(1),
  from_turn: z.number().int().nonnegative(),
  to_turn: z.number().int().nonnegative(),
  to_call: z.string().optional(),
  summary: Summary.optional(),
  /** false: the view carries no record of the work of the turns the summary covers (compaction/record.ts). */
  record: z.literal(false).optional(),
  reasoning: z.literal("strip").optional(),
  tool_calls: ToolPolicy.optional(),
  tool_overrides: z.record(z.string(), ToolPolicy).optional(),
  deferred_until_turn: z.number().int().nonnegative().optional(),
  source: CompactionSource,
  note: z.string().max(200).optional(),
  stats: CompactionStats.optional(),
});
export type Compaction = z.infer<typeof Compaction>;

export const CompactionReset = z.object({
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
export const RequestFailed = z.object({
  type: z.literal("request_failed"),
  ...base,
  turn: z.number().int().nonnegative(),
  reason: z.string(),
});
export type RequestFailed = z.infer<typeof RequestFailed>;

/**
 * A pin (or, with `pinned: false`, its undoing) of one raw turn: no
 * compaction changes a pinned turn, whoever made it and whenever. The newest
 * pin event of a turn decides. Global: it names its turn.
 */
export const Pin = z.object({
  type: z.literal("pin"),
  ...base,
  turn: z.number().int().nonnegative(),
  pinned: z.boolean(),
  source: CompactionSource.optional(),
  note: z.string().max(200).optional(),
});
export type Pin = z.infer<typeof Pin>;

/** The schema of each known kind. */
export const KNOWN_SCHEMAS = {
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
  pin: Pin,
} as const;

export type EventKind = keyof typeof KNOWN_SCHEMAS;

/** Every kind of event jp knows, derived from the schemas: a kind added there is a member here. */
export type KnownEvent = { [K in EventKind]: z.infer<(typeof KNOWN_SCHEMAS)[K]> }[EventKind];
