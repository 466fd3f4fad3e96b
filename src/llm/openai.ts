// Owns OpenAI Chat Completions and OpenAI-compatible servers (Ollama,
// llama.cpp, OpenRouter): mapping the projection to messages and the streamed
// chunks back to stream parts.
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
import type { ModelRequest, Provider, StopReason, StreamPart } from "./types.js";

// Chat Completions' own shapes, as the SDK declares them (types only: no code loads).
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";

type Message = ChatCompletionMessageParam;

export function toOpenAIMessages(system: string | undefined, events: readonly Event[]): Message[] {
  const messages: Message[] = system ? [{ role: "system", content: system }] : [];
  const assistant = (): ChatCompletionAssistantMessageParam => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const created: ChatCompletionAssistantMessageParam = { role: "assistant", content: null };
    messages.push(created);
    return created;
  };
  for (const e of events) {
    switch (e.type) {
      case "chat_request":
        messages.push({ role: "user", content: e.content });
        break;
      case "chat_response": {
        // Reasoning is not sent back: Chat Completions has no place for it.
        if (typeof e.reasoning === "string") break;
        const text = typeof e.message === "string" ? e.message : JSON.stringify(e.data);
        const a = assistant();
        // jp's own assistant messages hold text only, never content parts.
        a.content = typeof a.content === "string" && a.content ? `${a.content}${text}` : text;
        break;
      }
      case "tool_call_request": {
        const a = assistant();
        const calls = a.tool_calls ?? [];
        calls.push({
          id: e.id,
          type: "function",
          function: { name: e.name, arguments: JSON.stringify(e.arguments) },
        });
        a.tool_calls = calls;
        break;
      }
      case "tool_call_response":
        messages.push({
          role: "tool",
          tool_call_id: e.id,
          content: e.is_error ? `Error: ${e.content}` : e.content,
        });
        break;
      default:
        break;
    }
  }
  return messages;
}

export function openaiBody(request: ModelRequest): ChatCompletionCreateParamsStreaming {
  const body: ChatCompletionCreateParamsStreaming = {
    model: request.model,
    messages: toOpenAIMessages(request.system, request.events),
    stream: true,
    stream_options: { include_usage: true },
    max_completion_tokens: request.maxTokens,
  };
  // OpenAI caches prefixes of 1,024 tokens or more by itself; the key keeps one
  // conversation's requests on the same cache. Compatible servers ignore it.
  if (request.cache) body.prompt_cache_key = request.cache.key;
  if (request.tools.length) {
    body.tools = request.tools.map((t) => ({
      type: "function" as const,
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    body.tool_choice =
      request.toolChoice === "auto"
        ? "auto"
        : { type: "function", function: { name: request.toolChoice.name } };
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
};
type Chunk = Omit<ChatCompletionChunk, "choices"> & {
  choices?: (Omit<ChatCompletionChunk.Choice, "delta"> & { delta?: Delta })[];
};

export async function* openaiParts(chunks: AsyncIterable<Chunk>): AsyncGenerator<StreamPart> {
  const calls = new Map<number, { id: string; name: string; json: string }>();
  let stop: StopReason | undefined;
  let usage: StreamPart | undefined;
  const flush = function* (): Generator<StreamPart> {
    for (const call of [...calls.values()]) {
      yield { type: "tool_call", id: call.id, name: call.name, arguments: parseToolArguments(call.json) };
    }
    calls.clear();
  };
  for await (const chunk of chunks) {
    if (chunk.usage)
      usage = {
        type: "usage",
        inputTokens: chunk.usage.prompt_tokens,
        outputTokens: chunk.usage.completion_tokens,
        // prompt_tokens already includes the cached ones.
        ...(chunk.usage.prompt_tokens_details?.cached_tokens
          ? { cacheReadTokens: chunk.usage.prompt_tokens_details.cached_tokens }
          : {}),
      };
    for (const choice of chunk.choices ?? []) {
      const d: Delta = choice.delta ?? {};
      const reasoning = d.reasoning_content ?? d.reasoning;
      if (reasoning) yield { type: "reasoning", text: reasoning };
      if (d.content) yield { type: "text", text: d.content };
      if (d.refusal) yield { type: "text", text: d.refusal };
      for (const tc of d.tool_calls ?? []) {
        const call = calls.get(tc.index) ?? { id: "", name: "", json: "" };
        if (tc.id) call.id = tc.id;
        if (tc.function?.name) call.name += tc.function.name;
        if (tc.function?.arguments) call.json += tc.function.arguments;
        calls.set(tc.index, call);
      }
      if (choice.finish_reason) {
        // A compatible server may name a reason OpenAI does not have.
        stop = Object.hasOwn(STOP, choice.finish_reason) ? STOP[choice.finish_reason] : "other";
        if (d.refusal) stop = "refusal";
      }
    }
  }
  if (stop === undefined) throw new StreamCutError();
  yield* flush();
  if (usage) yield usage;
  yield { type: "stop", reason: stop };
}

/** Chat Completions' stream, chunk by chunk, up to `[DONE]`; a chunk that reports an error throws. */
async function* completionChunks(
  url: string,
  options: ProviderOptions,
  body: ChatCompletionCreateParamsStreaming,
  signal: AbortSignal,
): AsyncGenerator<Chunk> {
  const headers = {
    accept: "application/json",
    authorization: `Bearer ${options.apiKey}`,
  };
  for await (const event of postForEvents({ url, headers, body, signal, timeoutMs: options.timeoutMs })) {
    if (event.data.startsWith("[DONE]")) return;
    if (event.event === "error") throw new StreamErrorEvent(eventData(event));
    if (event.event !== undefined) continue;
    const data = eventData(event);
    if (isJsonObject(data) && data.error !== undefined) throw new StreamErrorEvent(data);
    // Cast: an unnamed event's data is a chunk of the API's stream.
    yield data as Chunk;
  }
}

export function createOpenAIProvider(options: ProviderOptions & { name: string }): Provider {
  const baseUrl = options.baseURL ?? "https://api.openai.com/v1";
  const url = endpoint(baseUrl, "/chat/completions");
  return classifiedProvider(options.name, baseUrl, (request, signal) =>
    openaiParts(completionChunks(url, options, openaiBody(request), signal)),
  );
}
