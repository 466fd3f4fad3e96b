// Owns Ollama's own API, spoken natively (`ollama/…`): `POST /api/chat`
// streamed as NDJSON, with `tools`, `think` and `keep_alive`, and the
// context (`options.num_ctx`) set to what the conversation needs, up to the
// model's own length from `POST /api/show`, so the server never cuts older
// messages off in silence.
import {
  type Event,
  isJsonObject,
  isSent,
  PROVIDER_BLOCK_KEY,
  REASONING_FIELD_KEY,
  responseModels,
  isBinaryAttachment,
  questionWithDocuments,
} from "../../../events/index.js";
import { assertNever } from "../../../errors.js";
import { tokensOfChars } from "../../../compaction/index.js";
import { GPT_OSS_EFFORTS, reasoningGoesBack, type ModelFacts } from "../../capabilities.js";
import { BadRequestError, HttpStatusError, StreamCutError, StreamErrorEvent } from "../../errors.js";
import {
  bearerIfKeyed,
  classifiedProvider,
  endpoint,
  askModelApi,
  transportOptions,
  type ProviderOptions,
} from "../../http.js";
import { postForLines } from "../../../net/http.js";
import { generatedCallId, resultText } from "../../tool-arguments.js";
import type { AcceptedFields, ModelRequest, Provider, StopReason, StreamPart } from "../../types.js";
import type { BuiltInProvider } from "../built-in.js";

export const OLLAMA_BASE_URL = "http://127.0.0.1:11434";

interface ToolCall {
  /** The call's id: Ollama's own where it gave one (JP's recordings of Qwen 3.5 carry one), else jp's. */
  id?: string;
  function: { name: string; arguments: Record<string, unknown> };
}

export interface OllamaMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  thinking?: string;
  tool_calls?: ToolCall[];
  /** On a tool message: which tool answered, and which call of it (templates pair results with calls by it). */
  tool_name?: string;
  tool_call_id?: string;
  /** On a user message: its images, base64. */
  images?: string[];
}

export interface OllamaBody {
  model: string;
  messages: OllamaMessage[];
  stream: true;
  tools?: { type: "function"; function: { name: string; description: string; parameters: unknown } }[];
  think?: boolean | "low" | "medium" | "high";
  keep_alive?: string;
  options: { num_ctx?: number; num_predict: number };
}

/** The smallest context Ollama is asked for: its own default on small machines. */
const MIN_CONTEXT = 4096;

/** The projection as Ollama messages; a response's blocks share one assistant message. */
export function toOllamaMessages(
  system: string | undefined,
  events: readonly Event[],
  model: string,
): OllamaMessage[] {
  const messages: OllamaMessage[] = system ? [{ role: "system", content: system }] : [];
  const writers = responseModels(events);
  const names = new Map<string, string>();
  const assistant = (): OllamaMessage => {
    const last = messages.at(-1);
    if (last?.role === "assistant") return last;
    const made: OllamaMessage = { role: "assistant", content: "" };
    messages.push(made);
    return made;
  };
  events.forEach((event, i) => {
    if (!isSent(event)) return;
    const e = event;
    switch (e.type) {
      case "chat_request": {
        const images = (e.attachments ?? []).filter(isBinaryAttachment).map((a) => a.data);
        messages.push({
          role: "user",
          content: questionWithDocuments(e.content, e.attachments),
          ...(images.length ? { images } : {}),
        });
        break;
      }
      case "chat_response": {
        const metadata = isJsonObject(e.metadata) ? e.metadata : {};
        if (typeof e.reasoning === "string") {
          // Ollama's own thinking goes back to the model that wrote it (as Ollama's clients send it).
          if (
            metadata[REASONING_FIELD_KEY] === "thinking" &&
            e.reasoning &&
            reasoningGoesBack(writers[i], model)
          ) {
            const a = assistant();
            a.thinking = `${a.thinking ?? ""}${e.reasoning}`;
          }
          break;
        }
        if (metadata[PROVIDER_BLOCK_KEY] === true) break;
        const a = assistant();
        a.content += typeof e.message === "string" ? e.message : JSON.stringify(e.data);
        break;
      }
      case "tool_call_request":
        names.set(e.id, e.name);
        (assistant().tool_calls ??= []).push({
          id: e.id,
          function: { name: e.name, arguments: e.arguments },
        });
        break;
      case "tool_call_response":
        messages.push({
          role: "tool",
          content: resultText(e),
          tool_name: names.get(e.id) ?? "",
          tool_call_id: e.id,
        });
        break;
      default:
        assertNever(e, "sent event kind");
    }
  });
  return messages;
}

/**
 * The context to ask for: what the request needs (its size at four
 * characters a token, plus the answer), rounded up to a power of two so that
 * it changes rarely (a new num_ctx reloads the model), never above the
 * model's own length.
 */
export function contextFor(
  body: Omit<OllamaBody, "options">,
  numPredict: number,
  window: number | undefined,
): number {
  const needed =
    tokensOfChars(JSON.stringify(body.messages).length + JSON.stringify(body.tools ?? []).length) +
    numPredict;
  let size = MIN_CONTEXT;
  while (size < needed) size *= 2;
  return window === undefined ? size : Math.min(size, window);
}

/**
 * `think` from jp's reasoning. Off is said (as JP says it), else a model that
 * thinks by default (Qwen 3.5) thinks unasked and hidden; only a model known
 * not to think is told nothing, and one that cannot stop (gpt-oss) is asked
 * for its least. A level goes only to a model that takes levels (gpt-oss);
 * others take `true`, and a level they do not know is silently their default
 * (Ollama's thinking guide).
 */
function thinkOf(request: ModelRequest): OllamaBody["think"] {
  const r = request.reasoning;
  if (!r || r.effort === "none" || (!r.effort && !r.budgetTokens)) {
    if (request.facts?.reasons === false) return undefined;
    return request.facts?.efforts?.includes("low") ? "low" : false;
  }
  const level = r.effort;
  const levelled = level === "low" || level === "medium" || level === "high";
  return levelled && request.facts?.efforts?.includes(level) ? level : true;
}

/**
 * A tool's JSON Schema as Ollama's server reads it (api.ToolFunctionParameters:
 * type, $defs, items, required, properties); it drops other keywords
 * (additionalProperties…) on decoding, so they are not sent.
 */
function serverParameters(schema: Record<string, unknown>): Record<string, unknown> {
  const read = ["$defs", "items", "required", "properties"].filter((k) => schema[k] !== undefined);
  return { type: "object", ...Object.fromEntries(read.map((k) => [k, schema[k]])) };
}

/**
 * What /api/chat accepts besides its messages: `think`, and no way to force a
 * tool (a forced one is offered alone and asked for in words). Ollama caches
 * the prompt prefix of a loaded model by itself.
 */
export const OLLAMA_ACCEPTS: AcceptedFields = {
  cacheKey: false,
  cacheControl: false,
  reasoning: "think",
  toolChoice: "none",
  thinksWhileForced: true,
  attachments: ["image"],
};

export function ollamaBody(request: ModelRequest, keepAlive?: string): OllamaBody {
  const wanted = request.toolChoice === "auto" ? undefined : request.toolChoice.name;
  const offered = wanted ? request.tools.filter((t) => t.name === wanted) : request.tools;
  const partial = {
    model: request.model,
    messages: toOllamaMessages(request.system, request.events, request.model),
    stream: true as const,
    ...(offered.length
      ? {
          tools: offered.map((t) => ({
            type: "function" as const,
            function: {
              name: t.name,
              description: t.description,
              parameters: serverParameters(t.parameters),
            },
          })),
        }
      : {}),
  };
  const think = thinkOf(request);
  return {
    ...partial,
    ...(think !== undefined ? { think } : {}),
    ...(keepAlive ? { keep_alive: keepAlive } : {}),
    options: {
      num_ctx: contextFor(partial, request.maxTokens, request.facts?.contextWindow),
      num_predict: request.maxTokens,
    },
  };
}

interface Chunk {
  /** A call's `id`: Ollama issues one (`call_7bvei3gw` in JP's recordings), though its published schema omits it. */
  message?: { content?: string; thinking?: string; tool_calls?: ToolCall[] };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: unknown;
}

/** Stream parts from Ollama's chunks; the last one (`done`) has the reason and the counts. */
export async function* ollamaParts(chunks: AsyncIterable<Chunk>): AsyncGenerator<StreamPart> {
  let calls = 0;
  let field = false;
  for await (const chunk of chunks) {
    if (chunk.error !== undefined) throw new StreamErrorEvent(chunk);
    const m = chunk.message ?? {};
    if (m.thinking) {
      if (!field) yield { type: "reasoning_field", field: "thinking" };
      field = true;
      yield { type: "reasoning", text: m.thinking };
    }
    if (m.content) yield { type: "text", text: m.content };
    for (const call of m.tool_calls ?? []) {
      calls++;
      yield {
        type: "tool_call",
        // The provider's own id where it gives one; a made-up one only where it does not.
        id: call.id || generatedCallId(),
        name: call.function.name,
        arguments: call.function.arguments,
      };
    }
    if (chunk.done) {
      yield {
        type: "usage",
        ...(chunk.prompt_eval_count !== undefined ? { inputTokens: chunk.prompt_eval_count } : {}),
        ...(chunk.eval_count !== undefined ? { outputTokens: chunk.eval_count } : {}),
      };
      const reason: StopReason = chunk.done_reason === "length" ? "max_tokens" : calls ? "tool_use" : "end";
      yield { type: "stop", reason };
      return;
    }
  }
  throw new StreamCutError();
}

/** The answer to a streamed request, line by line. */
function postChat(url: string, options: ProviderOptions, body: OllamaBody, signal: AbortSignal) {
  const headers = {
    accept: "application/x-ndjson",
    ...bearerIfKeyed(options),
  };
  return postForLines({ url, headers, body, signal, ...transportOptions(options) });
}

/** The stream's chunks, one per line of JSON; a line that is not JSON throws. */
export async function* ollamaChunks(lines: AsyncIterable<string>): AsyncGenerator<Chunk> {
  for await (const line of lines) {
    if (!line.trim()) continue;
    let chunk: unknown;
    try {
      chunk = JSON.parse(line);
    } catch {
      throw new StreamErrorEvent(`the stream sent a line that is not JSON: ${line.slice(0, 100)}`);
    }
    if (isChunk(chunk)) yield chunk;
  }
}

/** Each line is one JSON object of the stream; anything else is not a chunk. */
function isChunk(value: unknown): value is Chunk {
  return isJsonObject(value);
}

/** A model that is not pulled: one error naming the command that fixes it. */
function notPulled(error: unknown, model: string): BadRequestError | undefined {
  if (!(error instanceof HttpStatusError) || error.status !== 404) return undefined;
  return new BadRequestError("llm.ollama_not_pulled", `Ollama has no model '${model}'`, {
    hint: `pull it first: ollama pull ${model}`,
  });
}

/** The model's length and whether it thinks, from `POST /api/show`. */
async function showModel(name: string, options: ProviderOptions & { baseURL: string }, signal: AbortSignal) {
  const info = await askModelApi(
    {
      url: endpoint(options.baseURL, "/api/show"),
      headers: { accept: "application/json" },
      body: { model: name },
      signal,
    },
    options,
  );
  if (!isJsonObject(info)) return undefined;
  const facts: ModelFacts = {};
  const modelInfo = isJsonObject(info.model_info) ? info.model_info : {};
  for (const [key, value] of Object.entries(modelInfo))
    if (key.endsWith(".context_length") && typeof value === "number") facts.contextWindow = value;
  if (Array.isArray(info.capabilities)) {
    facts.reasons = info.capabilities.includes("thinking");
    if (facts.reasons)
      facts.thinking = { adaptive: false, enabled: true, disabled: true, between_tools: false };
  }
  // gpt-oss thinks at a level and cannot be turned off; the others on or off.
  if (facts.reasons && name.startsWith("gpt-oss")) facts.efforts = GPT_OSS_EFFORTS;
  return facts;
}

export function createOllamaProvider(
  options: ProviderOptions & { baseURL: string; keepAlive?: string },
): Provider {
  const url = endpoint(options.baseURL, "/api/chat");
  const provider = classifiedProvider("ollama", options, OLLAMA_ACCEPTS, async function* (request, signal) {
    try {
      yield* ollamaParts(
        ollamaChunks(postChat(url, options, ollamaBody(request, options.keepAlive), signal)),
      );
    } catch (error) {
      throw notPulled(error, request.model) ?? error;
    }
  });
  return { ...provider, modelFacts: (name, signal) => showModel(name, options, signal) };
}

/** A local Ollama server: its own /api/chat, its OpenAI-compatible API under /v1; no key. */
export const ollama = {
  name: "ollama",
  title: "Ollama",
  api: "ollama",
  baseUrl: OLLAMA_BASE_URL,
  chatBaseUrl: `${OLLAMA_BASE_URL}/v1`,
  keyEnv: [],
} as const satisfies BuiltInProvider;
