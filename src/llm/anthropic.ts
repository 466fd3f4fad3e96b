// Owns the Anthropic Messages API: mapping the projection to messages
// (thinking blocks with their signatures, tool_use/tool_result pairs, one role
// per message) and the streamed events back to stream parts.
import { isJsonObject, type Event } from "../events/index.js";
import { clientOptions, parseToolArguments, sdkProvider, type SdkOptions } from "./sdk.js";
import {
  REASONING_SIGNATURE_KEY,
  type ModelRequest,
  type Provider,
  type RequestCache,
  type StopReason,
  type StreamPart,
} from "./types.js";

type Block = Record<string, unknown>;
interface Message {
  role: "user" | "assistant";
  content: Block[];
}

/** Map projected events to Messages API messages; consecutive blocks of one role share a message. */
export function toAnthropicMessages(events: readonly Event[]): Message[] {
  const messages: Message[] = [];
  const push = (role: Message["role"], block: Block) => {
    const last = messages.at(-1);
    if (last && last.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const e of events) {
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
  if (messages[0]?.role === "assistant")
    messages.unshift({ role: "user", content: [{ type: "text", text: "(conversation continues)" }] });
  return messages;
}

export function anthropicBody(request: ModelRequest): Record<string, unknown> {
  const forced = request.toolChoice !== "auto";
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxTokens,
    messages: toAnthropicMessages(request.events),
    stream: true,
  };
  if (request.system) body.system = request.system;
  if (request.tools.length) {
    body.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
    }));
    body.tool_choice = forced
      ? { type: "tool", name: request.toolChoice === "auto" ? "" : request.toolChoice.name }
      : { type: "auto" };
  }
  // Extended thinking cannot be combined with a forced tool call.
  if (request.reasoningBudget && !forced)
    body.thinking = { type: "enabled", budget_tokens: request.reasoningBudget };
  if (request.cache) addCacheBreakpoints(body, request.cache);
  return body;
}

/**
 * Prompt caching, with the 4 breakpoints Anthropic allows: the tool
 * definitions, the system prompt, the user's request that opened the current
 * turn, and the newest message. The newest message's breakpoint writes the
 * whole request to the cache and the next request, which only appends, reads
 * it back (Anthropic looks for a cached prefix up to 20 blocks before each
 * breakpoint). The turn's request is a stable point: when auto compaction
 * strips results inside the turn, everything before the turn is still read
 * from the cache.
 */
function addCacheBreakpoints(body: Record<string, unknown>, cache: RequestCache): void {
  const control = cache.ttl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
  // Casts: anthropicBody built these two fields just above, as these types.
  const tools = body.tools as Block[] | undefined;
  const lastTool = tools?.at(-1);
  if (lastTool) lastTool.cache_control = control;
  if (typeof body.system === "string")
    body.system = [{ type: "text", text: body.system, cache_control: control }];
  const messages = body.messages as Message[];
  const newest = messages.at(-1)?.content;
  // Thinking blocks cannot carry a breakpoint; the newest message is the user's in practice.
  const block = newest?.findLast((b) => b.type !== "thinking" && b.type !== "redacted_thinking");
  if (block) block.cache_control = control;
  const turnRequest = messages
    .slice(0, -1)
    .findLast((m) => m.role === "user" && m.content.at(-1)?.type === "text")
    ?.content.at(-1);
  if (turnRequest) turnRequest.cache_control = control;
}

const STOP: Record<string, StopReason> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
};

interface RawEvent {
  type: string;
  index?: number;
  content_block?: {
    type: string;
    id?: string;
    name?: string;
    text?: string;
    thinking?: string;
    signature?: string;
  };
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  message?: { usage?: RawUsage };
  usage?: RawUsage;
}

interface RawUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}

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
export async function* anthropicParts(events: AsyncIterable<RawEvent>): AsyncGenerator<StreamPart> {
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
        mergeUsage(ev.message?.usage);
        break;
      case "content_block_start": {
        const block = ev.content_block;
        if (block?.type === "tool_use")
          tools.set(ev.index ?? 0, { id: block.id ?? "", name: block.name ?? "", json: "" });
        else if (block?.type === "text" && block.text) yield { type: "text", text: block.text };
        else if (block?.type === "thinking" && block.thinking)
          yield { type: "reasoning", text: block.thinking };
        break;
      }
      case "content_block_delta": {
        const d = ev.delta ?? {};
        if (d.type === "text_delta" && d.text) yield { type: "text", text: d.text };
        else if (d.type === "thinking_delta" && d.thinking) yield { type: "reasoning", text: d.thinking };
        else if (d.type === "signature_delta" && d.signature)
          yield { type: "reasoning_signature", signature: d.signature };
        else if (d.type === "input_json_delta") {
          const tool = tools.get(ev.index ?? 0);
          if (tool) tool.json += d.partial_json ?? "";
        }
        break;
      }
      case "content_block_stop": {
        const tool = tools.get(ev.index ?? 0);
        if (tool) {
          tools.delete(ev.index ?? 0);
          yield { type: "tool_call", id: tool.id, name: tool.name, arguments: parseToolArguments(tool.json) };
        }
        break;
      }
      case "message_delta":
        if (ev.delta?.stop_reason) stop = STOP[ev.delta.stop_reason] ?? "other";
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
  throw Object.assign(new Error("the stream ended before the message was complete"), {
    name: "StreamDropped",
  });
}

export function createAnthropicProvider(options: SdkOptions): Provider {
  type Client = { messages: { create(body: unknown, opts: unknown): Promise<AsyncIterable<RawEvent>> } };
  return sdkProvider<Client>(
    "anthropic",
    options.baseURL ?? "https://api.anthropic.com",
    async () => {
      const { createMessagesClient } = await import("./anthropic-client.js");
      return createMessagesClient(clientOptions(options));
    },
    async function* (client, request, signal) {
      yield* anthropicParts(await client.messages.create(anthropicBody(request), { signal }));
    },
  );
}
