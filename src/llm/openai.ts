// Owns OpenAI Chat Completions and OpenAI-compatible servers (Ollama,
// llama.cpp, OpenRouter): mapping the projection to messages and the streamed
// chunks back to stream parts.
import type { Event } from "../events/index.js";
import { clientOptions, parseToolArguments, sdkProvider, type SdkOptions } from "./sdk.js";
import type { ModelRequest, Provider, StopReason, StreamPart } from "./types.js";

interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}
/** The assistant's side of a step: its text, its tool calls, or both. */
interface AssistantMessage {
  role: "assistant";
  content: string | null;
  tool_calls?: ToolCall[];
}
type Message = AssistantMessage | (Record<string, unknown> & { role: "system" | "user" | "tool" });

export function toOpenAIMessages(system: string | undefined, events: readonly Event[]): Message[] {
  const messages: Message[] = system ? [{ role: "system", content: system }] : [];
  const assistant = (): AssistantMessage => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const created: AssistantMessage = { role: "assistant", content: null };
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
        a.content = a.content ? `${a.content}${text}` : text;
        break;
      }
      case "tool_call_request": {
        const a = assistant();
        const calls = a.tool_calls ?? [];
        calls.push({
          id: String(e.id),
          type: "function",
          function: { name: String(e.name), arguments: JSON.stringify(e.arguments) },
        });
        a.tool_calls = calls;
        break;
      }
      case "tool_call_response":
        messages.push({
          role: "tool",
          tool_call_id: e.id,
          content: e.is_error ? `Error: ${String(e.content)}` : e.content,
        });
        break;
      default:
        break;
    }
  }
  return messages;
}

export function openaiBody(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
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
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    body.tool_choice =
      request.toolChoice === "auto"
        ? "auto"
        : { type: "function", function: { name: request.toolChoice.name } };
  }
  return body;
}

const STOP: Record<string, StopReason> = {
  stop: "end",
  tool_calls: "tool_use",
  function_call: "tool_use",
  length: "max_tokens",
  content_filter: "refusal",
};

interface Chunk {
  choices?: {
    delta?: {
      content?: string | null;
      reasoning_content?: string | null;
      reasoning?: string | null;
      refusal?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number | null } | null;
  } | null;
}

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
      const d = choice.delta ?? {};
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
        stop = STOP[choice.finish_reason] ?? "other";
        if (d.refusal) stop = "refusal";
      }
    }
  }
  if (stop === undefined)
    throw Object.assign(new Error("the stream ended before the message was complete"), {
      name: "StreamDropped",
    });
  yield* flush();
  if (usage) yield usage;
  yield { type: "stop", reason: stop };
}

export function createOpenAIProvider(options: SdkOptions & { name: string }): Provider {
  type Client = {
    chat: { completions: { create(body: unknown, opts: unknown): Promise<AsyncIterable<Chunk>> } };
  };
  return sdkProvider<Client>(
    options.name,
    options.baseURL ?? "https://api.openai.com/v1",
    async () => {
      const { default: OpenAI } = await import("openai");
      return new OpenAI(clientOptions(options));
    },
    async function* (client, request, signal) {
      yield* openaiParts(await client.chat.completions.create(openaiBody(request), { signal }));
    },
  );
}
