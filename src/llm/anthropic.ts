// Owns the Anthropic Messages API: mapping the projection to messages
// (thinking blocks with their signatures, tool_use/tool_result pairs, one role
// per message) and the streamed events back to stream parts.
import { isJsonObject, type Event } from "../events/index.js";
import {
  classifiedProvider,
  endpoint,
  eventData,
  parseToolArguments,
  postForEvents,
  type ProviderOptions,
} from "./http.js";
import { StreamCutError, StreamErrorEvent } from "./errors.js";
import {
  REASONING_SIGNATURE_KEY,
  type ModelRequest,
  type Provider,
  type StopReason,
  type StreamPart,
} from "./types.js";

// The Messages API's own shapes, as the SDK declares them (types only: no code loads).
import type {
  CacheControlEphemeral,
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageDeltaUsage,
  RawMessageStreamEvent,
  Tool as AnthropicTool,
} from "@anthropic-ai/sdk/resources/messages";

interface Message {
  role: "user" | "assistant";
  content: ContentBlockParam[];
}

/** Map projected events to Messages API messages; consecutive blocks of one role share a message. */
export function toAnthropicMessages(events: readonly Event[]): Message[] {
  return mapMessages(events, []).messages;
}

/**
 * The messages, and for each of `marks` (event positions) how many blocks the
 * events before it make: what mapping only `events.slice(0, mark)` would give.
 */
export function mapMessages(
  events: readonly Event[],
  marks: readonly number[],
): { messages: Message[]; blocksBefore: number[] } {
  const messages: Message[] = [];
  let blocks = 0;
  const push = (role: Message["role"], block: ContentBlockParam) => {
    blocks += 1;
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  // -1 until the mark is passed: a mark at or beyond the end counts every block.
  const pushedBefore: number[] = marks.map((mark) => (mark <= 0 ? 0 : -1));
  for (let i = 0; i < events.length; i++) {
    for (let m = 0; m < marks.length; m++) if (marks[m] === i) pushedBefore[m] = blocks;
    const e = events[i]!;
    // Kinds this version does not know fall to the default: they are not sent.
    switch (e.type) {
      case "chat_request":
        push("user", { type: "text", text: e.content });
        break;
      case "chat_response": {
        if (typeof e.message === "string") {
          if (e.message !== "") push("assistant", { type: "text", text: e.message });
        } else if (typeof e.reasoning === "string") {
          // Thinking goes back only with its signature; the API rejects it otherwise.
          const signature = isJsonObject(e.metadata) ? e.metadata[REASONING_SIGNATURE_KEY] : undefined;
          if (typeof signature === "string" && signature)
            push("assistant", { type: "thinking", thinking: e.reasoning, signature });
        } else {
          push("assistant", { type: "text", text: JSON.stringify(e.data) });
        }
        break;
      }
      case "tool_call_request":
        push("assistant", { type: "tool_use", id: e.id, name: e.name, input: e.arguments });
        break;
      case "tool_call_response":
        push("user", {
          type: "tool_result",
          tool_use_id: e.id,
          content: e.content,
          is_error: e.is_error,
        });
        break;
      default:
        break;
    }
  }
  const opensWithAssistant = messages[0]?.role === "assistant";
  if (opensWithAssistant)
    messages.unshift({ role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  // A prefix that maps to any block opens as the whole does, so it gets the same first user block.
  const blocksBefore = pushedBefore.map((pushed) => {
    const count = pushed === -1 ? blocks : pushed;
    return count > 0 && opensWithAssistant ? count + 1 : count;
  });
  return { messages, blocksBefore };
}

export function anthropicBody(request: ModelRequest): MessageCreateParamsStreaming {
  const choice = request.toolChoice;
  // Blocks are mapped in event order, so a settled prefix's blocks lead the request's.
  const { messages, blocksBefore: settledBlocks } = mapMessages(
    request.events,
    (request.settled ?? []).slice(-2),
  );
  const tools: AnthropicTool[] = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { type: "object", ...t.parameters },
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
  const body: MessageCreateParamsStreaming = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages,
    stream: true,
  };
  if (request.system)
    body.system = control ? [{ type: "text", text: request.system, cache_control: control }] : request.system;
  if (tools.length) {
    body.tools = tools;
    body.tool_choice = choice === "auto" ? { type: "auto" } : { type: "tool", name: choice.name };
  }
  // Extended thinking cannot be combined with a forced tool call.
  if (request.reasoningBudget && choice === "auto")
    body.thinking = { type: "enabled", budget_tokens: request.reasoningBudget };
  return body;
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
  messages: Message[],
  control: CacheControlEphemeral,
  settledBlocks: readonly number[],
): void {
  // anthropicBody marks the system prompt itself.
  const lastTool = tools.at(-1);
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

const STOP: Record<string, StopReason> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
};

/** The counts a stream reports, in message_start and message_delta alike. */
type RawUsage = Partial<
  Pick<
    MessageDeltaUsage,
    "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens"
  >
>;

const USAGE_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
] as const satisfies readonly (keyof RawUsage)[];

/** Anthropic counts fresh, cache-read and cache-written input apart; jp's input is all three. */
function usagePart(raw: RawUsage): StreamPart {
  const read = raw.cache_read_input_tokens ?? 0;
  const write = raw.cache_creation_input_tokens ?? 0;
  return {
    type: "usage",
    ...(raw.input_tokens != null ? { inputTokens: raw.input_tokens + read + write } : {}),
    ...(raw.output_tokens != null ? { outputTokens: raw.output_tokens } : {}),
    ...(read ? { cacheReadTokens: read } : {}),
    ...(write ? { cacheWriteTokens: write } : {}),
  };
}

/** Stream parts from raw Messages API stream events. */
export async function* anthropicParts(
  events: AsyncIterable<RawMessageStreamEvent>,
): AsyncGenerator<StreamPart> {
  const tools = new Map<number, { id: string; name: string; json: string }>();
  // message_start carries the input counts; message_delta the final output (and, lately, input) counts.
  const usage: RawUsage = {};
  const mergeUsage = (raw: RawUsage | undefined) => {
    for (const key of USAGE_KEYS) {
      const value = raw?.[key];
      if (typeof value === "number") usage[key] = value;
    }
  };
  let stop: StopReason | undefined;
  for await (const ev of events) {
    switch (ev.type) {
      case "message_start":
        mergeUsage(ev.message.usage);
        break;
      case "content_block_start": {
        const block = ev.content_block;
        if (block.type === "tool_use") tools.set(ev.index, { id: block.id, name: block.name, json: "" });
        else if (block.type === "text" && block.text) yield { type: "text", text: block.text };
        else if (block.type === "thinking" && block.thinking)
          yield { type: "reasoning", text: block.thinking };
        break;
      }
      case "content_block_delta": {
        const d = ev.delta;
        if (d.type === "text_delta" && d.text) yield { type: "text", text: d.text };
        else if (d.type === "thinking_delta" && d.thinking) yield { type: "reasoning", text: d.thinking };
        else if (d.type === "signature_delta" && d.signature)
          yield { type: "reasoning_signature", signature: d.signature };
        else if (d.type === "input_json_delta") {
          const tool = tools.get(ev.index);
          if (tool) tool.json += d.partial_json;
        }
        break;
      }
      case "content_block_stop": {
        const tool = tools.get(ev.index);
        if (tool) {
          tools.delete(ev.index);
          yield { type: "tool_call", id: tool.id, name: tool.name, arguments: parseToolArguments(tool.json) };
        }
        break;
      }
      case "message_delta":
        if (ev.delta.stop_reason) stop = STOP[ev.delta.stop_reason] ?? "other";
        mergeUsage(ev.usage);
        break;
      case "message_stop":
        yield usagePart(usage);
        yield { type: "stop", reason: stop ?? "end" };
        return;
      default:
        break;
    }
  }
  // The stream ended without message_stop: the connection dropped mid-message.
  throw new StreamCutError();
}

/**
 * The Messages API version whose shapes the SDK's types declare (the SDK sends
 * the same); a newer SDK with new shapes comes with a new version here.
 */
export const ANTHROPIC_VERSION = "2026-10-21";

/** The Messages API's stream, event by event: pings are dropped, an error event throws. */
async function* messageEvents(
  url: string,
  options: ProviderOptions,
  body: MessageCreateParamsStreaming,
  signal: AbortSignal,
): AsyncGenerator<RawMessageStreamEvent> {
  const headers = {
    accept: "application/json",
    authorization: `Bearer ${options.apiKey}`,
    "anthropic-version": ANTHROPIC_VERSION,
  };
  for await (const event of postForEvents({ url, headers, body, signal, timeoutMs: options.timeoutMs })) {
    switch (event.event) {
      case "message_start":
      case "message_delta":
      case "message_stop":
      case "content_block_start":
      case "content_block_delta":
      case "content_block_stop":
        // Cast: the event's name says which of the API's stream shapes its data is.
        yield eventData(event) as RawMessageStreamEvent;
        break;
      case "error":
        throw new StreamErrorEvent(eventData(event));
      default:
        // ping, and events a newer API may add.
        break;
    }
  }
}

export function createAnthropicProvider(options: ProviderOptions): Provider {
  const baseUrl = options.baseURL ?? "https://api.anthropic.com";
  const url = endpoint(baseUrl, "/v1/messages");
  return classifiedProvider("anthropic", baseUrl, (request, signal) =>
    anthropicParts(messageEvents(url, options, anthropicBody(request), signal)),
  );
}
