// Owns OpenAI Chat Completions and OpenAI-compatible servers (Ollama,
// llama.cpp, OpenRouter): mapping the projection to messages and the streamed
// chunks back to stream parts.
import {
  isSent,
  type ChatResponse,
  type Event,
  isJsonObject,
  type JsonObject,
  PROVIDER_BLOCK_KEY,
  REASONING_DETAILS_KEY,
  REASONING_FIELD_KEY,
  REFUSAL_KEY,
  responseModels,
  dataUrl,
  fileName,
} from "../events/index.js";
import { reasoningGoesBack } from "./capabilities.js";
import { assertNever } from "../errors.js";
import { questionParts, type QuestionParts } from "./attachments.js";
import { generatedCallId, malformedArguments, tryToolArguments, resultText } from "./tool-arguments.js";
import {
  bearerIfKeyed,
  classifiedProvider,
  endpoint,
  eventData,
  transportOptions,
  type ProviderOptions,
} from "./http.js";
import { postForEvents } from "../net/http.js";
import type { ServerSentEvent } from "../net/sse.js";
import { StreamCutError, StreamErrorEvent } from "./errors.js";
import { type ChatBody, type ChatDialect, OPENAI_DIALECT } from "./chat-dialect.js";
import { type ModelRequest, type Provider, type StopReason, type StreamPart } from "./types.js";

// Chat Completions' own shapes, as the SDK declares them (types only: no code loads).
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";

type Message = ChatCompletionMessageParam;

/** An assistant message, with the reasoning field a compatible server wants back (DeepSeek's `reasoning_content`). */
type AssistantMessage = ChatCompletionAssistantMessageParam & {
  reasoning_content?: string;
  reasoning?: string;
  /** OpenRouter's reasoning blocks, as they came. */
  reasoning_details?: JsonObject[];
};

/**
 * The projection as messages. With `model`, OpenRouter's reasoning details go
 * back to the model that wrote them (they hold its signatures) and no other.
 */
export function toOpenAIMessages(
  system: string | undefined,
  events: readonly Event[],
  model?: string,
  callId: (id: string) => string = (id) => id,
): Message[] {
  const messages: Message[] = system ? [{ role: "system", content: system }] : [];
  const writers = model === undefined ? [] : responseModels(events);
  const assistant = (): AssistantMessage => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const created: AssistantMessage = { role: "assistant", content: null };
    messages.push(created);
    return created;
  };
  events.forEach((event, i) => {
    if (!isSent(event)) return;
    const e = event;
    const details = isJsonObject(e.metadata) ? e.metadata[REASONING_DETAILS_KEY] : undefined;
    if (model !== undefined && Array.isArray(details) && reasoningGoesBack(writers[i], model))
      assistant().reasoning_details = details.filter(isJsonObject);
    switch (e.type) {
      case "chat_request":
        messages.push({ role: "user", content: questionParts(e.content, e.attachments, CHAT_PARTS) });
        break;
      case "chat_response":
        addResponse(assistant, e);
        break;
      case "tool_call_request": {
        const a = assistant();
        const calls = a.tool_calls ?? [];
        calls.push({
          id: callId(e.id),
          type: "function",
          function: { name: e.name, arguments: JSON.stringify(e.arguments) },
        });
        a.tool_calls = calls;
        break;
      }
      case "tool_call_response":
        messages.push({
          role: "tool",
          tool_call_id: callId(e.id),
          content: resultText(e),
        });
        break;
      default:
        assertNever(e, "sent event kind");
    }
  });
  // OpenRouter's blocks hold the reasoning whole, as its docs have it sent back; its text beside them would be a second copy.
  for (const m of messages) {
    const a: AssistantMessage | undefined = m.role === "assistant" ? m : undefined;
    if (a?.reasoning_details) delete a.reasoning;
  }
  return messages;
}

/** One response event onto the assistant message it belongs to. */
function addResponse(assistant: () => AssistantMessage, e: ChatResponse): void {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  if (typeof e.reasoning === "string") {
    // Reasoning goes back only to a server that sent it in a field of its own (and wants it back there).
    const field = metadata[REASONING_FIELD_KEY];
    if ((field !== "reasoning_content" && field !== "reasoning") || !e.reasoning) return;
    const a = assistant();
    a[field] = `${a[field] ?? ""}${e.reasoning}`;
    return;
  }
  // Another provider's own blocks (Anthropic server tools) have no place here.
  if (metadata[PROVIDER_BLOCK_KEY] === true) return;
  const text = typeof e.message === "string" ? e.message : JSON.stringify(e.data);
  const a = assistant();
  if (metadata[REFUSAL_KEY] === true) {
    a.refusal = a.refusal ? `${a.refusal}${text}` : text;
    return;
  }
  // jp's own assistant messages hold text only, never content parts.
  a.content = typeof a.content === "string" && a.content ? `${a.content}${text}` : text;
}

/** A text part with a cache breakpoint, as OpenRouter reads it (the SDK's part type has no such field). */
type CachedText = { type: "text"; text: string; cache_control: { type: "ephemeral"; ttl?: "1h" } };

/**
 * Breakpoints at the end of the system prompt and of the newest message, as
 * Anthropic caches: the next request, which only appends, reads the prefix
 * back. A string content becomes one text part carrying the mark.
 */
function markCacheBreakpoints(messages: Message[], ttl: "5m" | "1h"): void {
  const control =
    ttl === "1h" ? { type: "ephemeral" as const, ttl: "1h" as const } : { type: "ephemeral" as const };
  const mark = (message: Message | undefined) => {
    if (!message || (message.role !== "system" && message.role !== "user" && message.role !== "tool")) return;
    if (typeof message.content !== "string" || message.content === "") return;
    const part: CachedText = { type: "text", text: message.content, cache_control: control };
    message.content = [part];
  };
  mark(messages.find((m) => m.role === "system"));
  mark(messages.at(-1));
}

export function openaiBody(request: ModelRequest, dialect: ChatDialect = OPENAI_DIALECT): ChatBody {
  const body: ChatBody = {
    model: request.model,
    messages: toOpenAIMessages(request.system, request.events, request.model, dialect.callId),
    stream: true,
    stream_options: { include_usage: true },
  };
  Object.assign(body, dialect.outputCap(request.maxTokens));
  // OpenAI caches prefixes of 1,024 tokens or more by itself; the key keeps one
  // conversation's requests on the same cache.
  if (request.cache && dialect.cacheKey) body.prompt_cache_key = request.cache.key;
  Object.assign(body, dialect.reasoningFields(request));
  if (request.cache && dialect.cacheControl) markCacheBreakpoints(body.messages, request.cache.ttl);
  if (request.tools.length) {
    const forced = request.toolChoice === "auto" ? undefined : request.toolChoice.name;
    const tools = request.tools.map((t) => ({
      type: "function" as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    Object.assign(body, dialect.offerTools(tools, forced));
  }
  return body;
}

const STOP: Record<NonNullable<ChatCompletionChunk.Choice["finish_reason"]>, StopReason> = {
  stop: "end",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

/**
 * A streamed chunk as the SDK declares it, widened where compatible servers
 * differ: they add reasoning to the delta (`reasoning_content`: DeepSeek, vLLM;
 * `reasoning`: Ollama) and may send a usage-only chunk without choices or a
 * choice without a delta.
 */
type Delta = ChatCompletionChunk.Choice.Delta & {
  reasoning_content?: string | null;
  reasoning?: string | null;
  /** OpenRouter: the provider's reasoning blocks (text with signatures, encrypted), in pieces by index. */
  reasoning_details?: unknown[] | null;
};

/** Gathers OpenRouter's `reasoning_details` pieces by index: text and signatures extend, other fields are set. */
class ReasoningDetails {
  private readonly byIndex = new Map<number, JsonObject>();

  add(pieces: readonly unknown[]): void {
    pieces.forEach((piece, position) => {
      if (!isJsonObject(piece)) return;
      const index = typeof piece.index === "number" ? piece.index : position;
      const detail = this.byIndex.get(index) ?? {};
      for (const [key, value] of Object.entries(piece)) {
        const before = detail[key];
        detail[key] =
          (key === "text" || key === "summary" || key === "signature") &&
          typeof before === "string" &&
          typeof value === "string"
            ? before + value
            : value;
      }
      this.byIndex.set(index, detail);
    });
  }

  /** The details whole, in index order; undefined when none came. */
  done(): JsonObject[] | undefined {
    if (this.byIndex.size === 0) return undefined;
    return [...this.byIndex].sort(([a], [b]) => a - b).map(([, detail]) => detail);
  }
}
type Chunk = Omit<ChatCompletionChunk, "choices"> & {
  choices?: (Omit<ChatCompletionChunk.Choice, "delta"> & { delta?: Delta })[];
};

/** Marks the end of the stream (`data: [DONE]`), as opposed to a connection that just closed. */
export const DONE = Symbol("openai.done");

interface ToolCallState {
  id: string;
  name: string;
  json: string;
}

/**
 * Stream parts from Chat Completions chunks, accumulated as forgivingly as
 * the SDK's ChatCompletionStream: a tool call's id and name are assigned
 * (servers that repeat the name in every chunk do not double it), its
 * arguments appended; a missing id is generated.
 */
export async function* openaiParts(chunks: AsyncIterable<Chunk | typeof DONE>): AsyncGenerator<StreamPart> {
  const calls = new Map<number, ToolCallState>();
  let stop: StopReason | undefined;
  let done = false;
  let reasoningField: string | undefined;
  const details = new ReasoningDetails();
  for await (const chunk of chunks) {
    if (chunk === DONE) {
      done = true;
      break;
    }
    // The usage chunk comes last, but an interrupted stream may never reach it: counted when it comes.
    if (chunk.usage) yield usagePart(chunk.usage);
    for (const choice of chunk.choices ?? []) {
      const d: Delta = choice.delta ?? {};
      const field = d.reasoning_content ? "reasoning_content" : d.reasoning ? "reasoning" : undefined;
      if (field) {
        if (reasoningField === undefined) yield { type: "reasoning_field", field: (reasoningField = field) };
        yield { type: "reasoning", text: d[field] ?? "" };
      }
      if (Array.isArray(d.reasoning_details)) details.add(d.reasoning_details);
      if (d.content) yield { type: "text", text: d.content };
      if (d.refusal) yield { type: "refusal", text: d.refusal };
      for (const tc of d.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: "", name: "", json: "" };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name = tc.function.name;
        if (tc.function?.arguments) call.json += tc.function.arguments;
        calls.set(tc.index, call);
      }
      if (choice.finish_reason) {
        // A compatible server may name a reason OpenAI does not have.
        stop = Object.hasOwn(STOP, choice.finish_reason) ? STOP[choice.finish_reason] : "other";
      }
    }
  }
  if (stop === undefined) {
    // A stream that closed before [DONE] was cut; one that said [DONE] without a reason just did not name one.
    if (!done) throw new StreamCutError();
    stop = calls.size ? "tool_use" : "end";
  }
  for (const call of calls.values()) {
    const id = call.id || generatedCallId();
    const args = tryToolArguments(call.json);
    if (args !== undefined) yield { type: "tool_call", id, name: call.name, arguments: args };
    else if (stop === "max_tokens")
      yield { type: "cut_tool_call", id, name: call.name, partialArguments: call.json };
    else throw new StreamErrorEvent(malformedArguments(call.name, call.json));
  }
  // Kept on the answer's last block, and sent back with its message (OpenRouter wants them verbatim).
  const reasoning = details.done();
  if (reasoning) yield { type: "block_metadata", metadata: { [REASONING_DETAILS_KEY]: reasoning } };
  yield { type: "stop", reason: stop };
}

/**
 * A chunk's usage. prompt_tokens already includes the cached ones; OpenRouter
 * and OpenAI's newer models also say what was written to the cache
 * (`prompt_tokens_details.cache_write_tokens`), and reasoning models how much
 * of the output was reasoning (`completion_tokens_details.reasoning_tokens`).
 */
function usagePart(usage: NonNullable<ChatCompletionChunk["usage"]>): StreamPart {
  // cache_write_tokens is not in the SDK's type (yet): read from the answer as it came.
  const prompt: { cached_tokens?: number; cache_write_tokens?: number } | undefined =
    usage.prompt_tokens_details;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  // OpenRouter bills in credits of a dollar and says each request's cost (not in the SDK's type).
  const cost: unknown = isJsonObject(usage) ? usage.cost : undefined;
  return {
    type: "usage",
    inputTokens: usage.prompt_tokens,
    outputTokens: usage.completion_tokens,
    ...(prompt?.cached_tokens ? { cacheReadTokens: prompt.cached_tokens } : {}),
    ...(prompt?.cache_write_tokens ? { cacheWriteTokens: prompt.cache_write_tokens } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
    ...(typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {}),
  };
}

/** The answer to a streamed request, as server-sent events. */
function postCompletions(url: string, options: ProviderOptions, body: ChatBody, signal: AbortSignal) {
  // A server without a key (a local Ollama, llama.cpp) is sent no Authorization header at all.
  const headers = {
    accept: "application/json",
    ...bearerIfKeyed(options),
  };
  return postForEvents({ url, headers, body, signal, ...transportOptions(options) });
}

/** Chat Completions' stream, chunk by chunk, up to `[DONE]`; a chunk that reports an error throws. */
export async function* completionChunks(
  frames: AsyncIterable<ServerSentEvent>,
): AsyncGenerator<Chunk | typeof DONE> {
  for await (const event of frames) {
    if (event.data.startsWith("[DONE]")) {
      yield DONE;
      return;
    }
    if (event.event === "error") throw new StreamErrorEvent(eventData(event));
    // Some servers name every chunk `message` (the format's default name); other names are not chunks.
    if (event.event !== undefined && event.event !== "message") continue;
    if (event.data === "") continue;
    const data = eventData(event);
    if (isJsonObject(data) && data.error !== undefined) throw new StreamErrorEvent(data);
    // Cast: an unnamed event's data is a chunk of the API's stream.
    yield data as Chunk;
  }
}

export const OPENAI_BASE_URL = "https://api.openai.com/v1";

export function createOpenAIProvider(
  options: ProviderOptions & { name: string; dialect: ChatDialect },
): Provider {
  const baseUrl = options.baseURL ?? OPENAI_BASE_URL;
  const url = endpoint(baseUrl, "/chat/completions");
  return classifiedProvider(
    options.name,
    { ...options, baseURL: baseUrl },
    options.dialect,
    (request, signal) =>
      openaiParts(
        completionChunks(postCompletions(url, options, openaiBody(request, options.dialect), signal)),
      ),
  );
}

/** A question's parts as Chat Completions spells them. */
const CHAT_PARTS: QuestionParts<ChatCompletionContentPart> = {
  text: (text) => ({ type: "text", text }),
  image: (a) => ({ type: "image_url", image_url: { url: dataUrl(a) } }),
  pdf: (a) => ({ type: "file", file: { filename: fileName(a), file_data: dataUrl(a) } }),
};
