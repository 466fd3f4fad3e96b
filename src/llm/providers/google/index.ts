// Owns Google's Gemini API, spoken natively (`google/…`):
// `streamGenerateContent?alt=sse` with contents and parts, function calls
// and responses, thought parts and the thought signatures Gemini 3 needs
// back on the exact part they came with, `thinkingConfig` from jp's
// reasoning settings, and the model's limits from `GET /v1beta/models/{id}`.
import {
  type ChatResponse,
  type Event,
  GEMINI_SIGNATURE_KEY,
  GEMINI_UNNAMED_CALL_KEY,
  isJsonObject,
  isSent,
  PROVIDER_BLOCK_KEY,
  responseModels,
  type ToolCallRequest,
  isBinaryAttachment,
  questionWithDocuments,
} from "../../../events/index.js";
import { assertNever } from "../../../errors.js";
import {
  budgetOfEffort,
  effortOfBudget,
  nearestEffort,
  reasoningGoesBack,
  type Effort,
  type ModelFacts,
} from "../../capabilities.js";
import { StreamCutError, StreamErrorEvent } from "../../errors.js";
import {
  classifiedProvider,
  endpoint,
  eventData,
  askModelApiFor,
  NO_SUCH_MODEL,
  transportOptions,
  type ProviderOptions,
} from "../../http.js";
import { postForEvents } from "../../../net/http.js";
import type { ServerSentEvent } from "../../../net/sse.js";
import { generatedCallId } from "../../tool-arguments.js";
import type { AcceptedFields, ModelRequest, Provider, StopReason, StreamPart, Usage } from "../../types.js";
import { toolChoiceOf } from "../../tool-choice.js";

// Gemini's usage report, as its SDK declares it (types only: no code loads).
import type { GenerateContentResponseUsageMetadata } from "@google/genai";
import type { BuiltInProvider } from "../built-in.js";

/**
 * A part as the REST API documents it (the SDK declares some of its fields
 * as classes; over the wire they are plain JSON).
 */
export interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
  inlineData?: { mimeType: string; data: string };
}

export interface Content {
  role?: "user" | "model";
  parts?: Part[];
}

export const GEMINI_BASE_URL = "https://generativelanguage.googleapis.com";

/** A `streamGenerateContent` body as the REST API documents it. */
export interface GeminiBody {
  contents: Content[];
  systemInstruction?: Content;
  tools?: { functionDeclarations: { name: string; description: string; parametersJsonSchema: unknown }[] }[];
  toolConfig?: { functionCallingConfig: { mode: "AUTO" | "ANY"; allowedFunctionNames?: string[] } };
  generationConfig: {
    maxOutputTokens: number;
    thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: ThinkingLevel };
  };
}

/**
 * What a function call without this model's signature carries instead: the
 * value Google documents for calls it did not write (another model's, or
 * an imported conversation's), which skips the check.
 */
const FOREIGN_CALL_SIGNATURE = "skip_thought_signature_validator";

function signatureOf(e: ChatResponse | ToolCallRequest): string | undefined {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  const signature = metadata[GEMINI_SIGNATURE_KEY];
  return typeof signature === "string" && signature ? signature : undefined;
}

/** A response event as a model part; undefined for what Gemini has no place for. */
function responsePart(e: ChatResponse, own: boolean): Part | undefined {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  const signature = own ? signatureOf(e) : undefined;
  const signed = signature ? { thoughtSignature: signature } : {};
  if (typeof e.reasoning === "string") {
    // Only this model's own thoughts go back, with their signature.
    if (!signature) return undefined;
    return { text: e.reasoning, thought: true, ...signed };
  }
  if (metadata[PROVIDER_BLOCK_KEY] === true) return undefined;
  const text = typeof e.message === "string" ? e.message : JSON.stringify(e.data);
  if (!text && !signature) return undefined;
  return { text, ...signed };
}

/** Whether a call goes back with its id: not when Gemini sent it without one (jp's id is its own). */
const hasServerId = (e: ToolCallRequest) =>
  !(isJsonObject(e.metadata) && e.metadata[GEMINI_UNNAMED_CALL_KEY] === true);

function callPart(e: ToolCallRequest, own: boolean): Part {
  const signature = own ? signatureOf(e) : undefined;
  return {
    functionCall: { ...(hasServerId(e) ? { id: e.id } : {}), name: e.name, args: e.arguments },
    thoughtSignature: signature ?? FOREIGN_CALL_SIGNATURE,
  };
}

/** The projection as Gemini contents: user and model turns, consecutive parts of one role together. */
export function toGeminiContents(events: readonly Event[], model: string): Content[] {
  const contents: Content[] = [];
  const writers = responseModels(events);
  const calls = new Map<string, ToolCallRequest>();
  const push = (role: "user" | "model", part: Part) => {
    const last = contents.at(-1);
    if (last?.role === role) (last.parts ??= []).push(part);
    else contents.push({ role, parts: [part] });
  };
  events.forEach((event, i) => {
    if (!isSent(event)) return;
    const e = event;
    const own = reasoningGoesBack(writers[i], model) && writers[i] !== undefined;
    switch (e.type) {
      case "chat_request":
        // Images and PDFs go inline before the question, where Google's prompting guide places them.
        for (const a of (e.attachments ?? []).filter(isBinaryAttachment))
          push("user", { inlineData: { mimeType: a.media_type, data: a.data } });
        push("user", { text: questionWithDocuments(e.content, e.attachments) });
        break;
      case "chat_response": {
        const part = responsePart(e, own);
        if (part) push("model", part);
        break;
      }
      case "tool_call_request":
        calls.set(e.id, e);
        push("model", callPart(e, own));
        break;
      case "tool_call_response": {
        const call = calls.get(e.id);
        push("user", {
          functionResponse: {
            ...(call && !hasServerId(call) ? {} : { id: e.id }),
            name: call?.name ?? "",
            response: e.is_error ? { error: e.content } : { output: e.content },
          },
        });
        break;
      }
      default:
        assertNever(e, "sent event kind");
    }
  });
  return contents;
}

/** Gemini's thinking levels, by the SDK's enum values (ThinkingLevel), for jp's efforts. */
type ThinkingLevel = "MINIMAL" | "LOW" | "MEDIUM" | "HIGH";
const THINKING_LEVEL: Partial<Record<Effort, ThinkingLevel>> = {
  minimal: "MINIMAL",
  low: "LOW",
  medium: "MEDIUM",
  high: "HIGH",
};

/**
 * The levels of a Gemini model jp does not know, from its name: from Gemini 3
 * on models take levels, not budgets (as JP infers them); Flash models have
 * the lower ones too.
 */
function inferredLevels(model: string): readonly Effort[] | undefined {
  const version = /^gemini-(\d+)/.exec(model)?.[1];
  if (version === undefined || Number(version) < 3) return undefined;
  return model.includes("flash") ? ["minimal", "low", "medium", "high"] : ["low", "high"];
}

/**
 * The thinking of a request: a level on models that take levels (Gemini 3),
 * else a budget within the model's range. Off is said, as JP says it (the
 * least level, or the least budget, with no thoughts shown): unsaid, 2.5 Flash
 * and Pro and Gemini 3 think anyway and bill for it.
 */
export function geminiThinking(request: ModelRequest): GeminiBody["generationConfig"]["thinkingConfig"] {
  const asked = request.reasoning;
  const off = !asked || asked.effort === "none" || (!asked.effort && !asked.budgetTokens);
  const levels = request.facts?.efforts ?? inferredLevels(request.model);
  const range = request.facts?.thinkingBudget;
  if (levels?.length) {
    const wanted = off ? "minimal" : (asked.effort ?? effortOfBudget(asked.budgetTokens ?? 0));
    const level = nearestEffort(wanted, levels) ?? "high";
    return { includeThoughts: !off, thinkingLevel: THINKING_LEVEL[level] ?? "HIGH" };
  }
  if (off) return range ? { includeThoughts: false, thinkingBudget: range.min } : undefined;
  const budget = asked.budgetTokens ?? budgetOfEffort(asked.effort ?? "medium", request.maxTokens);
  return {
    includeThoughts: true,
    thinkingBudget: range ? Math.min(Math.max(budget, range.min), range.max) : budget,
  };
}

/** What generateContent accepts besides contents: Gemini caches prefixes by itself, with no key or marks. */
export const GEMINI_ACCEPTS: AcceptedFields = {
  cacheKey: false,
  cacheControl: false,
  reasoning: "thinkingConfig",
  toolChoice: "named",
  thinksWhileForced: true,
  attachments: ["image", "pdf"],
};

export function geminiBody(request: ModelRequest): GeminiBody {
  const body: GeminiBody = {
    contents: toGeminiContents(request.events, request.model),
    generationConfig: { maxOutputTokens: request.maxTokens },
  };
  const { forced } = toolChoiceOf(request, GEMINI_ACCEPTS);
  if (request.system) body.systemInstruction = { parts: [{ text: request.system }] };
  const thinking = geminiThinking(request);
  if (thinking) body.generationConfig.thinkingConfig = thinking;
  if (request.tools.length) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parametersJsonSchema: { type: "object", ...t.parameters },
        })),
      },
    ];
    body.toolConfig = {
      functionCallingConfig: forced ? { mode: "ANY", allowedFunctionNames: [forced] } : { mode: "AUTO" },
    };
  }
  return body;
}

/** Gemini's finish reasons; the safety family is a refusal. */
const STOP: Readonly<Record<string, StopReason>> = {
  STOP: "end",
  MAX_TOKENS: "max_tokens",
  SAFETY: "refusal",
  RECITATION: "refusal",
  BLOCKLIST: "refusal",
  PROHIBITED_CONTENT: "refusal",
  SPII: "refusal",
  IMAGE_SAFETY: "refusal",
};

/** Gemini counts thoughts apart from the answer; both are billed as output. */
function usageOf(meta: GenerateContentResponseUsageMetadata): Usage {
  const thoughts = meta.thoughtsTokenCount ?? 0;
  return {
    ...(meta.promptTokenCount !== undefined ? { inputTokens: meta.promptTokenCount } : {}),
    outputTokens: (meta.candidatesTokenCount ?? 0) + thoughts,
    ...(meta.cachedContentTokenCount ? { cacheReadTokens: meta.cachedContentTokenCount } : {}),
    ...(thoughts ? { reasoningTokens: thoughts } : {}),
  };
}

/** A streamed chunk: the first candidate's new parts, its finish reason, and the usage so far. */
interface Chunk {
  candidates?: { content?: { parts?: Part[] }; finishReason?: string }[];
  usageMetadata?: GenerateContentResponseUsageMetadata;
  error?: unknown;
}

/** The parts one streamed part makes, given the block in progress. */
function* partParts(part: Part, open: { kind?: "text" | "thought" }): Generator<StreamPart> {
  const signed = (): StreamPart[] =>
    part.thoughtSignature
      ? [{ type: "block_metadata", metadata: { [GEMINI_SIGNATURE_KEY]: part.thoughtSignature } }]
      : [];
  if (part.functionCall) {
    if (open.kind) yield { type: "block_end" };
    open.kind = undefined;
    const call = part.functionCall;
    yield {
      type: "tool_call",
      id: call.id ?? generatedCallId(),
      name: call.name ?? "",
      arguments: call.args ?? {},
    };
    if (call.id === undefined)
      yield { type: "block_metadata", metadata: { [GEMINI_UNNAMED_CALL_KEY]: true } };
    yield* signed();
    return;
  }
  if (part.text === undefined && !part.thoughtSignature) return;
  if (!part.text && !part.thought && part.thoughtSignature) {
    // A signature on an empty text part (how Gemini 3 ends an answer) stays on a part of its own, as it
    // came: merged onto the text before it, it would go back on a part Gemini never signed.
    if (open.kind) yield { type: "block_end" };
    yield { type: "text", text: "" };
    yield* signed();
    yield { type: "block_end" };
    open.kind = undefined;
    return;
  }
  const kind = part.thought ? "thought" : "text";
  if (open.kind !== kind) {
    if (open.kind) yield { type: "block_end" };
    open.kind = kind;
    yield kind === "thought" ? { type: "reasoning", text: "" } : { type: "text", text: "" };
  }
  if (part.text)
    yield kind === "thought" ? { type: "reasoning", text: part.text } : { type: "text", text: part.text };
  yield* signed();
}

/** Stream parts from Gemini's chunks; a stream that ends without a finish reason was cut. */
export async function* geminiParts(chunks: AsyncIterable<Chunk>): AsyncGenerator<StreamPart> {
  const open: { kind?: "text" | "thought" } = {};
  let calls = 0;
  let finish: string | undefined;
  let usage: Usage | undefined;
  for await (const chunk of chunks) {
    if (chunk.error !== undefined) throw new StreamErrorEvent(chunk);
    if (chunk.usageMetadata) usage = usageOf(chunk.usageMetadata);
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (part.functionCall) calls++;
      yield* partParts(part, open);
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
  }
  if (finish === undefined) throw new StreamCutError();
  if (open.kind) yield { type: "block_end" };
  if (usage) yield { type: "usage", ...usage };
  const stop = STOP[finish] ?? "other";
  yield { type: "stop", reason: stop === "end" && calls ? "tool_use" : stop };
}

/** The answer to a streamed request, as server-sent events. */
function postGenerate(url: string, options: ProviderOptions, body: GeminiBody, signal: AbortSignal) {
  const headers = { accept: "text/event-stream", "x-goog-api-key": options.apiKey };
  return postForEvents({ url, headers, body, signal, ...transportOptions(options) });
}

/** The stream's chunks, one per server-sent event. */
export async function* geminiChunks(frames: AsyncIterable<ServerSentEvent>): AsyncGenerator<Chunk> {
  for await (const event of frames) {
    if (event.data === "") continue;
    const data = eventData(event);
    if (isJsonObject(data)) yield data;
  }
}

/** A model's limits from `GET /v1beta/models/{id}`; undefined when Google does not know it. */
async function geminiModel(
  name: string,
  options: ProviderOptions & { baseURL: string },
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const info = await askModelApiFor(
    {
      url: endpoint(options.baseURL, `/v1beta/models/${encodeURIComponent(name)}`),
      headers: { accept: "application/json", "x-goog-api-key": options.apiKey },
      signal,
    },
    options,
  );
  if (info === NO_SUCH_MODEL) return { notFound: true };
  if (!isJsonObject(info)) return undefined;
  const facts: ModelFacts = {};
  if (typeof info.inputTokenLimit === "number") facts.contextWindow = info.inputTokenLimit;
  if (typeof info.outputTokenLimit === "number") facts.maxOutputTokens = info.outputTokenLimit;
  return facts;
}

export function createGeminiProvider(options: ProviderOptions & { baseURL: string }): Provider {
  const provider = classifiedProvider("google", options, GEMINI_ACCEPTS, (request, signal) =>
    geminiParts(
      geminiChunks(
        postGenerate(
          endpoint(
            options.baseURL,
            `/v1beta/models/${encodeURIComponent(request.model)}:streamGenerateContent?alt=sse`,
          ),
          options,
          geminiBody(request),
          signal,
        ),
      ),
    ),
  );
  return { ...provider, modelFacts: (name, signal) => geminiModel(name, options, signal) };
}

/** Gemini's own API; Google's SDKs read either key name, GEMINI_API_KEY first. */
export const google = {
  name: "google",
  title: "Gemini",
  api: "gemini",
  baseUrl: GEMINI_BASE_URL,
  keyEnv: ["GEMINI_API_KEY", "GOOGLE_API_KEY"],
} as const satisfies BuiltInProvider;
