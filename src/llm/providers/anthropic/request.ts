// Owns the Anthropic Messages request: the projection as messages (thinking
// blocks with their signatures, tool_use/tool_result pairs, one role per
// message, attachments as documents and images), the body with its thinking
// and cache breakpoints, and the betas a body needs.
import type {
  BetaCompactionConfig,
  BetaContextManagementConfig,
  BetaRequestToolAdditionBlock,
  BetaRequestToolRemovalBlock,
} from "@anthropic-ai/sdk/resources/beta/messages/messages";
import type {
  Tool as AnthropicTool,
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import { assertNever } from "../../../errors.js";
import {
  type Attachment,
  type ChatResponse,
  CITATIONS_KEY,
  type Event,
  isJsonObject,
  isSent,
  type JsonObject,
  PROVIDER_BLOCK_KEY,
  PROVIDER_SUMMARY_KEY,
  REASONING_SIGNATURE_KEY,
  REDACTED_REASONING_KEY,
  responseModels,
  TOOL_IMAGES_KEY,
  type ToolCallResponse,
  binaryKind,
  isBinaryAttachment,
  isTextAttachment,
} from "../../../events/index.js";
import { reasoningGoesBack } from "../../capabilities.js";
import { thinkingGoesBack } from "../../thinking-readers.js";
import { TOOL_CHANGES_BETA, toolShifts, type ToolShift } from "../../tool-changes.js";
import { type ModelRequest } from "../../types.js";
import { anthropicThinking, anthropicToolChoice } from "./choices.js";

export interface Message {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

/** A message in the conversation that changes the tools offered from there on (`llm/tool-changes.ts`). */
export interface ToolChangeMessage {
  role: "system";
  content: (BetaRequestToolAdditionBlock | BetaRequestToolRemovalBlock)[];
}

/** What a request's `messages` hold. */
export type AnyMessage = Message | ToolChangeMessage;

const isConversational = (m: AnyMessage): m is Message => m.role !== "system";

/** The tool change said where a question is asked: withdrawals, then additions. */
function toolChangeMessage(shift: ToolShift): ToolChangeMessage {
  const reference = (name: string) => ({ type: "tool_reference" as const, name });
  return {
    role: "system",
    content: [
      ...shift.remove.map((name) => ({ type: "tool_removal" as const, tool: reference(name) })),
      ...shift.add.map((name) => ({ type: "tool_addition" as const, tool: reference(name) })),
    ],
  };
}

/** Map projected events to Messages API messages; consecutive blocks of one role share a message. */
export function toAnthropicMessages(events: readonly Event[]): AnyMessage[] {
  return mapMessages(events, []).messages;
}

/**
 * The messages, and for each of `marks` (event positions) how many blocks the
 * events before it make: what mapping only `events.slice(0, mark)` would give.
 * With `model`, thinking goes back as `thinkingGoesBack` says: to a model with
 * preserved thinking (`preserved`) every Claude model's, for the API to drop
 * what it cannot read; to another, what it reads.
 */
export function mapMessages(
  events: readonly Event[],
  marks: readonly number[],
  model?: string,
  preserved = false,
  declared: ReadonlySet<string> = new Set(),
): { messages: AnyMessage[]; blocksBefore: number[]; betas: string[] } {
  let betas: string[] = [];
  const writers = model === undefined ? [] : responseModels(events);
  const shifts = toolShifts(events, declared);
  const messages: AnyMessage[] = [];
  let blocks = 0;
  const push = (role: Message["role"], block: ContentBlockParam) => {
    blocks += 1;
    const last = messages.at(-1);
    if (last && last.role === role && isConversational(last)) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  // -1 until the mark is passed: a mark at or beyond the end counts every block.
  const pushedBefore: number[] = marks.map((mark) => (mark <= 0 ? 0 : -1));
  // Only first in the request, in place of the summary turn (its question included).
  const compactionAt = (i: number) => (blocks > 0 ? undefined : sentCompaction(events[i], writers[i], model));
  for (let i = 0; i < events.length; i++) {
    for (let m = 0; m < marks.length; m++) if (marks[m] === i) pushedBefore[m] = blocks;
    const e = events[i]!;
    if (!isSent(e)) continue;
    switch (e.type) {
      case "chat_request":
        if (compactionAt(i + 1)) break;
        for (const block of attachmentBlocks(e.attachments ?? [])) push("user", block);
        push("user", { type: "text", text: e.content });
        {
          const shift = shifts.get(i);
          if (shift) messages.push(toolChangeMessage(shift));
        }
        break;
      case "chat_response": {
        const compaction = compactionAt(i);
        if (compaction) {
          betas = compaction.betas;
          push("assistant", compaction.block);
          break;
        }
        const block = responseBlock(e);
        const foreign =
          model !== undefined &&
          (block?.type === "thinking" || block?.type === "redacted_thinking") &&
          !thinkingGoesBack(writers[i], model, preserved);
        if (block && !foreign) push("assistant", block);
        break;
      }
      case "tool_call_request":
        push("assistant", { type: "tool_use", id: e.id, name: e.name, input: e.arguments });
        break;
      case "tool_call_response":
        push("user", {
          type: "tool_result",
          tool_use_id: e.id,
          content: toolResultContent(e),
          is_error: e.is_error,
        });
        break;
      default:
        assertNever(e, "sent event kind");
    }
  }
  // A compaction block opens the request as it is: in place of the conversation it summarises.
  const first: { type: string } | undefined = messages[0]?.content[0];
  const opensWithAssistant = messages[0]?.role === "assistant" && first?.type !== "compaction";
  if (opensWithAssistant)
    messages.unshift({ role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  // A prefix that maps to any block opens as the whole does, so it gets the same first user block.
  const blocksBefore = pushedBefore.map((pushed) => {
    const count = pushed === -1 ? blocks : pushed;
    return count > 0 && opensWithAssistant ? count + 1 : count;
  });
  return { messages, blocksBefore, betas };
}

/**
 * The compaction block the provider wrote, when `e` is its summary turn's
 * answer and it goes back (to `model`, the one that wrote it), with the beta
 * features a request carrying it needs.
 */
function sentCompaction(
  e: Event | undefined,
  writer: string | undefined,
  model: string | undefined,
): { block: ContentBlockParam; betas: string[] } | undefined {
  if (model === undefined || e?.type !== "chat_response" || writer === undefined) return undefined;
  const summary = isJsonObject(e.metadata) ? e.metadata[PROVIDER_SUMMARY_KEY] : undefined;
  if (!isJsonObject(summary) || !isJsonObject(summary.block) || !reasoningGoesBack(writer, model))
    return undefined;
  return { block: verbatim(summary.block), betas: compactionBetas(summary) };
}

/**
 * The beta features a request carrying a provider's compaction block must
 * name: those recorded with it, or, for a block recorded before jp kept them,
 * the one it was written under. "Send the `compact-2026-09-04` beta header on
 * the request that asks for the summary and on every later request that
 * carries the signed block."
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand)
 */
function compactionBetas(summary: JsonObject): string[] {
  const recorded = summary.betas;
  if (Array.isArray(recorded) && recorded.every((b) => typeof b === "string")) return recorded;
  return [COMPACTION_BETA];
}

const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";
const isImageMediaType = (t: string): t is ImageMediaType => IMAGE_TYPES.has(t);

/** A tool result's text, and its images (an MCP tool's) as image blocks, which tool results may hold. */
function toolResultContent(e: ToolCallResponse): ToolResultBlockParam["content"] {
  const images = isJsonObject(e.metadata) ? e.metadata[TOOL_IMAGES_KEY] : undefined;
  if (!Array.isArray(images) || images.length === 0) return e.content;
  const blocks: Exclude<ToolResultBlockParam["content"], string | undefined> = [
    { type: "text", text: e.content },
  ];
  for (const image of images) {
    if (!isJsonObject(image) || typeof image.data !== "string" || typeof image.media_type !== "string")
      continue;
    if (!isImageMediaType(image.media_type)) continue;
    blocks.push({
      type: "image",
      source: { type: "base64", media_type: image.media_type, data: image.data },
    });
  }
  return blocks;
}

/**
 * A block kept as the API sent it (a server tool's block, a text block with
 * its citations), going back the same. Cast: jp stores such blocks as plain
 * JSON and does not interpret them; the API that made them reads them.
 */
export function verbatim(block: JsonObject): ContentBlockParam {
  return block as unknown as ContentBlockParam;
}

/** The block a response event was, as the API wants it back; undefined for what it would refuse. */
function responseBlock(e: ChatResponse): ContentBlockParam | undefined {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  if (typeof e.message === "string") {
    if (e.message === "") return undefined;
    const citations = metadata[CITATIONS_KEY];
    // Citations are kept as the API sent them, and go back the same.
    if (Array.isArray(citations) && citations.length)
      return verbatim({ type: "text", text: e.message, citations });
    return { type: "text", text: e.message };
  }
  if (typeof e.reasoning === "string") {
    const redacted = metadata[REDACTED_REASONING_KEY];
    if (typeof redacted === "string" && redacted) return { type: "redacted_thinking", data: redacted };
    // Thinking goes back only with its signature; the API rejects it otherwise.
    const signature = metadata[REASONING_SIGNATURE_KEY];
    if (typeof signature === "string" && signature)
      return { type: "thinking", thinking: e.reasoning, signature };
    return undefined;
  }
  if (metadata[PROVIDER_BLOCK_KEY] === true && isJsonObject(e.data)) return verbatim(e.data);
  return { type: "text", text: JSON.stringify(e.data) };
}

/**
 * A Messages request, with the beta API's on-demand compaction where it is
 * asked for, and its tool changes in the conversation.
 */
export type AnthropicBody = Omit<MessageCreateParamsStreaming, "messages"> & {
  messages: AnyMessage[];
  compaction?: BetaCompactionConfig;
  context_management?: BetaContextManagementConfig;
};

export function anthropicBody(request: ModelRequest): AnthropicBody {
  return anthropicRequest(request).body;
}

/** The request's body, and the beta features it needs besides the configured ones. */
export function anthropicRequest(request: ModelRequest): { body: AnthropicBody; betas: string[] } {
  // Blocks are mapped in event order, so a settled prefix's blocks lead the request's.
  const {
    messages,
    blocksBefore: settledBlocks,
    betas: carried,
  } = mapMessages(
    request.events,
    (request.settled ?? []).slice(-2),
    request.model,
    request.facts?.preservedThinking === true,
    new Set(request.tools.map((t) => t.name)),
  );
  const choice = anthropicToolChoice(request);
  const tools: AnthropicTool[] = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters },
    ...(t.deferred ? { defer_loading: true } : {}),
  }));
  const control: CacheControlEphemeral | undefined = request.cache
    ? request.cache.ttl === "1h"
      ? { type: "ephemeral", ttl: "1h" }
      : { type: "ephemeral" }
    : undefined;
  if (control) {
    addCacheBreakpoints(
      tools,
      request.system !== undefined && request.system !== "",
      messages,
      control,
      settledBlocks,
    );
  }
  const body: AnthropicBody = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system)
    body.system = control ? [{ type: "text", text: request.system, cache_control: control }] : request.system;
  if (tools.length) {
    body.tools = tools;
    body.tool_choice = choice;
  }
  // The turn loop decides thinking once per turn (never with a forced tool call, which the API refuses).
  const { thinking, effort } = anthropicThinking(request);
  if (thinking) body.thinking = thinking;
  if (effort) body.output_config = { effort };
  // Only adaptive and manual thinking take block_binding (the beta SDK's types); a model with preserved
  // thinking thinks adaptively when nothing is said, so saying it changes nothing else.
  const current = body.thinking ?? { type: "adaptive" };
  if (request.reasoningBinding === "drop" && (current.type === "adaptive" || current.type === "enabled"))
    body.thinking = { ...current, ...DROP_CHANGED_BLOCKS };
  // The beta SDK's types: on-demand compaction "Cannot be combined with `context_management`".
  const asked: AnthropicBody = request.compaction
    ? {
        ...body,
        compaction: {
          type: "summarize",
          ...(request.compaction.instructions ? { instructions: request.compaction.instructions } : {}),
        },
      }
    : request.clearToolUses
      ? { ...body, context_management: clearToolUses(request.clearToolUses) }
      : body;
  return { body: asked, betas: [...new Set([...betasOf(asked), ...carried])] };
}

/**
 * Server-side clearing of the oldest tool results. The docs
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing):
 * "Context editing is applied server-side before the prompt reaches Claude.
 * Your client application maintains the full, unmodified conversation
 * history"; so the request, and every thinking block's prefix in it, stays
 * as it was. `keep` is what the turn decided to keep (a clearing in bulk, the
 * same from one request to the next until the next one), and `clear_at_least`
 * (the beta SDK's types: "Context will only be modified if at least this many
 * tokens can be removed") holds the provider to clearings worth the cache
 * they invalidate.
 */
function clearToolUses(clear: NonNullable<ModelRequest["clearToolUses"]>): BetaContextManagementConfig {
  return {
    edits: [
      {
        type: "clear_tool_uses_20250919",
        trigger: { type: "input_tokens", value: clear.trigger },
        keep: { type: "tool_uses", value: clear.keep },
        clear_at_least: { type: "input_tokens", value: clear.clearAtLeast },
      },
    ],
  };
}

/** Context editing's beta header (the docs: "To enable it, use the beta header context-management-2025-06-27"). */
const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";

/**
 * Preserved thinking's safety net: a thinking block whose prefix changed is
 * dropped (and listed in the answer's `input_transformations`) instead of
 * failing the request. jp leaves such blocks out itself; this catches what it
 * could not know (a change made on the way, an older log). Needs its beta header.
 */
const DROP_CHANGED_BLOCKS = { block_binding: { prefix_mismatch_behavior: "drop_block" } } as const;
const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** On-demand compaction: the provider writes a summary block that keeps later thinking valid. */
export const COMPACTION_BETA = "compact-2026-09-04";

/** The beta features a request's own fields need. */
function betasOf(body: AnthropicBody): string[] {
  return [
    ...(body.thinking && "block_binding" in body.thinking ? [THINKING_BINDING_BETA] : []),
    ...(body.compaction ? [COMPACTION_BETA] : []),
    ...(body.messages.some((m) => m.role === "system") ? [TOOL_CHANGES_BETA] : []),
    ...(body.context_management ? [CONTEXT_MANAGEMENT_BETA] : []),
  ];
}

/**
 * Prompt caching, with the 4 breakpoints Anthropic allows. The cached prefix
 * runs tools → system → messages, so one breakpoint at the end of the system
 * prompt (or of the tools, without one) covers both. The newest message's
 * breakpoint writes the whole request to the cache and the next request,
 * which only appends, reads it back: Anthropic looks for a cached prefix up
 * to 20 blocks before each breakpoint. The two left mark stable points, the
 * latest of: the user's request that opened the current turn, and where the
 * last two compactions' reach ends (`settledBlocks`, counted in blocks). The
 * next compaction changes only what follows the newest of these, and its
 * first request reads the prefix up to the one before from the cache, however
 * many blocks back it lies, instead of writing the whole request again.
 */
function addCacheBreakpoints(
  tools: AnthropicTool[],
  hasSystem: boolean,
  all: AnyMessage[],
  control: CacheControlEphemeral,
  settledBlocks: readonly number[],
): void {
  // anthropicBody marks the system prompt itself; the tool changes in the conversation are not marked.
  const messages = all.filter(isConversational);
  const lastTool = tools.filter((t) => !t.defer_loading).at(-1);
  if (lastTool && !hasSystem) lastTool.cache_control = control;
  // Thinking blocks cannot carry a breakpoint.
  const canMark = (
    b: ContentBlockParam,
  ): b is Exclude<ContentBlockParam, { type: "thinking" | "redacted_thinking" }> =>
    b.type !== "thinking" && b.type !== "redacted_thinking";
  const blocks = messages.flatMap((m) => m.content);
  const newest = messages.at(-1)?.content.findLast(canMark);
  if (newest) newest.cache_control = control;
  const newestAt = newest ? blocks.indexOf(newest) : blocks.length;
  /** The last markable block among the first `count`, before the newest one. */
  const lastMarkable = (count: number): number => {
    for (let i = Math.min(count, newestAt) - 1; i >= 0; i--) if (canMark(blocks[i]!)) return i;
    return -1;
  };
  const turnRequestMessage = messages
    .slice(0, -1)
    .findLast((m) => m.role === "user" && m.content.at(-1)?.type === "text");
  const turnRequest = turnRequestMessage ? blocks.indexOf(turnRequestMessage.content.at(-1)!) : -1;
  const stable = [...new Set([turnRequest, ...settledBlocks.map(lastMarkable)])]
    .filter((i) => i >= 0)
    .sort((x, y) => x - y)
    .slice(-2);
  for (const i of stable) {
    const block = blocks[i]!;
    if (canMark(block)) block.cache_control = control;
  }
}

/**
 * A question's attachments as Anthropic's blocks, before its text: text as a
 * document titled by its source, a PDF as a base64 document, an image as an image.
 */
function attachmentBlocks(attachments: readonly Attachment[]): ContentBlockParam[] {
  return attachments.flatMap((a): ContentBlockParam[] => {
    if (isTextAttachment(a))
      return [
        {
          type: "document",
          title: a.source,
          source: { type: "text", media_type: "text/plain", data: a.text },
        },
      ];
    if (!isBinaryAttachment(a)) return [];
    if (binaryKind(a) === "pdf")
      return [
        {
          type: "document",
          title: a.source,
          source: { type: "base64", media_type: "application/pdf", data: a.data },
        },
      ];
    return isImageMediaType(a.media_type)
      ? [{ type: "image", source: { type: "base64", media_type: a.media_type, data: a.data } }]
      : [];
  });
}
