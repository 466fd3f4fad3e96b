// Owns OpenAI's Responses API (`POST /v1/responses`), which the `openai`
// provider speaks: the projection as input items (messages, reasoning items
// with their encrypted content, function calls and their outputs), nothing
// stored at OpenAI (`store: false`), and the streamed events back to parts.
import {
  type ChatResponse,
  type Event,
  isJsonObject,
  isSent,
  type JsonObject,
  OPENAI_PHASE_KEY,
  OPENAI_REASONING_ITEM_KEY,
  PROVIDER_BLOCK_KEY,
  responseModels,
  dataUrl,
  fileName,
} from "../../../events/index.js";
import { assertNever } from "../../../errors.js";
import { questionParts, type QuestionParts } from "../../attachments.js";
import { effortOfBudget, nearestEffort, reasoningGoesBack, type Effort } from "../../capabilities.js";
import { StreamCutError, StreamErrorEvent } from "../../errors.js";
import {
  classifiedProvider,
  endpoint,
  eventData,
  transportOptions,
  type ProviderOptions,
} from "../../http.js";
import { postForEvents } from "../../../net/http.js";
import type { ServerSentEvent } from "../../../net/sse.js";
import { malformedArguments, tryToolArguments, resultText } from "../../tool-arguments.js";
import type { AcceptedFields, ModelRequest, Provider, StopReason, StreamPart } from "../../types.js";
import { toolChoiceOf } from "../../tool-choice.js";
import { inputTransformationsOf } from "../../reasoning-binding.js";

// The Responses API's own shapes, as the SDK declares them (types only: no code loads).
import type {
  ResponseCreateParamsStreaming,
  ResponseInputContent,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";
import { grouped } from "../../../numbers.js";

/**
 * A recorded reasoning item as it goes back: its id, its text where it came
 * (a summary, or the raw reasoning text open-weight models give as
 * `content`), and its encrypted content.
 */
function reasoningItem(e: ChatResponse, item: JsonObject): ResponseInputItem | undefined {
  if (typeof item.id !== "string") return undefined;
  const text = e.reasoning ?? "";
  const raw = item.text === "content";
  // Nothing is stored at OpenAI (store: false): an item that is only an id names nothing it can find,
  // and the request fails ("Item with id 'rs_…' not found"). Raw reasoning text stands by itself.
  if (typeof item.encrypted_content !== "string" && !(raw && text)) return undefined;
  return {
    type: "reasoning",
    id: item.id,
    summary: text && !raw ? [{ type: "summary_text", text }] : [],
    ...(text && raw ? { content: [{ type: "reasoning_text" as const, text }] } : {}),
    ...(typeof item.encrypted_content === "string" ? { encrypted_content: item.encrypted_content } : {}),
  };
}

/** One response event as an input item; undefined for what this API has no place for. */
function responseItem(
  e: ChatResponse,
  writer: string | undefined,
  model: string,
): ResponseInputItem | undefined {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  if (typeof e.reasoning === "string") {
    // Only OpenAI's own reasoning items go back, and only to the model that wrote them.
    const item = metadata[OPENAI_REASONING_ITEM_KEY];
    if (!isJsonObject(item) || !reasoningGoesBack(writer, model)) return undefined;
    return reasoningItem(e, item);
  }
  // Another provider's own blocks (Anthropic server tools) have no place here.
  if (metadata[PROVIDER_BLOCK_KEY] === true) return undefined;
  const text = typeof e.message === "string" ? e.message : JSON.stringify(e.data);
  if (text === "") return undefined;
  const phase = metadata[OPENAI_PHASE_KEY];
  return phase === "commentary" || phase === "final_answer"
    ? { role: "assistant", content: text, phase }
    : { role: "assistant", content: text };
}

/** The projection as Responses API input items, in order. */
export function toResponsesInput(events: readonly Event[], model: string): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  const writers = responseModels(events);
  events.forEach((event, i) => {
    if (!isSent(event)) return;
    const e = event;
    switch (e.type) {
      case "chat_request":
        items.push({ role: "user", content: questionParts(e.content, e.attachments, RESPONSES_PARTS) });
        break;
      case "chat_response": {
        const item = responseItem(e, writers[i], model);
        if (item) items.push(item);
        break;
      }
      case "tool_call_request":
        items.push({
          type: "function_call",
          call_id: e.id,
          name: e.name,
          arguments: JSON.stringify(e.arguments),
        });
        break;
      case "tool_call_response":
        items.push({
          type: "function_call_output",
          call_id: e.id,
          output: resultText(e),
        });
        break;
      default:
        assertNever(e, "sent event kind");
    }
  });
  return items;
}

/**
 * The reasoning effort of a request: the one asked for (or the one a budget
 * stands for), else the least the model takes, so a reasoning model asked
 * for none does not spend its output cap thinking.
 */
export function responsesEffort(request: ModelRequest): { effort?: ReasoningEffort; notice?: string } {
  const facts = request.facts;
  const accepted = facts?.efforts;
  const asked = request.reasoning;
  let wanted: Effort | undefined = asked?.effort;
  let notice: string | undefined;
  if (wanted === undefined && asked?.budgetTokens) {
    wanted = effortOfBudget(asked.budgetTokens);
    notice = `${request.model} takes a reasoning effort, not a budget: the budget of ${grouped(asked.budgetTokens)} tokens is sent as effort "${wanted}" (set assistant.reasoning.effort to choose)`;
  }
  if (wanted === undefined) {
    if (!facts?.reasons || !accepted?.length) return {};
    wanted = accepted.includes("none") ? "none" : accepted.includes("minimal") ? "minimal" : "low";
  }
  if (facts?.reasons === false)
    return { notice: `${request.model} does not reason: assistant.reasoning is not sent` };
  if (!accepted?.length) return { effort: wanted, ...(notice ? { notice } : {}) };
  return { effort: nearestEffort(wanted, accepted) ?? wanted, ...(notice ? { notice } : {}) };
}

/** What the Responses API accepts besides its input. */
export const RESPONSES_ACCEPTS: AcceptedFields = {
  cacheKey: true,
  cacheControl: false,
  reasoning: "reasoning.effort",
  toolChoice: "named",
  thinksWhileForced: true,
  attachments: ["image", "pdf"],
};

export function responsesBody(request: ModelRequest): ResponseCreateParamsStreaming {
  const input = toResponsesInput(request.events, request.model);
  // GPT-6.2 on reads `instructions` after `input`: there the system prompt would be no cached prefix.
  const developer = request.system && request.facts?.developerPrompt ? request.system : undefined;
  const body: ResponseCreateParamsStreaming = {
    model: request.model,
    input: developer !== undefined ? [{ role: "developer", content: developer }, ...input] : input,
    stream: true,
    // Nothing is kept at OpenAI: every request carries the whole conversation, reasoning encrypted.
    store: false,
    max_output_tokens: request.maxTokens,
  };
  const { forced } = toolChoiceOf(request, RESPONSES_ACCEPTS);
  if (request.system && developer === undefined) body.instructions = request.system;
  if (request.cache) body.prompt_cache_key = request.cache.key;
  // Caching off, on a model that caches (and bills writes) unless told: explicit mode with no breakpoint.
  else if (request.facts?.explicitCaching) body.prompt_cache_options = { mode: "explicit" };
  const { effort } = responsesEffort(request);
  if (effort) body.reasoning = { effort, summary: "auto" };
  // Whenever the model may reason, its reasoning comes back encrypted: nothing is stored at OpenAI, so
  // an item without it could not go back. A model jp does not know may be a reasoning model too.
  if (request.facts?.reasons !== false && effort !== "none") body.include = ["reasoning.encrypted_content"];
  if (request.tools.length) {
    body.tools = request.tools.map((t) => ({
      type: "function" as const,
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      strict: false,
    }));
    body.tool_choice = forced ? { type: "function", name: forced } : "auto";
  }
  return body;
}

/** The reasoning items a newer model's API removed for a changed prefix (`input_transformations`), when any. */
function* transformations(response: object): Generator<StreamPart> {
  const items = inputTransformationsOf(response);
  if (items.length) yield { type: "input_transformations", items };
}

function usagePart(usage: ResponseUsage): StreamPart {
  // From GPT-5.6 on, what was written to the cache too (not in the SDK's type yet): read as it came.
  const input: { cached_tokens: number; cache_write_tokens?: number } = usage.input_tokens_details;
  const cached = input.cached_tokens;
  const written = input.cache_write_tokens;
  const reasoning = usage.output_tokens_details.reasoning_tokens;
  return {
    type: "usage",
    // input_tokens already counts the cached ones; output_tokens the reasoning ones.
    inputTokens: usage.input_tokens,
    outputTokens: usage.output_tokens,
    ...(cached ? { cacheReadTokens: cached } : {}),
    ...(written ? { cacheWriteTokens: written } : {}),
    ...(reasoning ? { reasoningTokens: reasoning } : {}),
  };
}

/** The parts an output item makes once it is complete. */
function itemDone(item: ResponseOutputItem, cut: boolean): StreamPart[] {
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- hosted tools' items (web search, code interpreter…) are not offered by jp: nothing to record
  switch (item.type) {
    case "reasoning":
      return [
        {
          type: "reasoning_item",
          item: {
            id: item.id,
            ...(item.encrypted_content ? { encrypted_content: item.encrypted_content } : {}),
            // Where its text goes back: the raw reasoning text (`content`), else the summary.
            ...(item.content?.length ? { text: "content" } : {}),
          },
        },
        { type: "block_end" },
      ];
    case "message": {
      // From gpt-5.3-codex on, a message's phase goes back with it ("dropping it can degrade performance").
      const said = item.content.some((c) => c.type === "output_text" && c.text !== "");
      return item.phase && said
        ? [{ type: "block_metadata", metadata: { [OPENAI_PHASE_KEY]: item.phase } }, { type: "block_end" }]
        : [{ type: "block_end" }];
    }
    case "function_call": {
      const args = tryToolArguments(item.arguments);
      if (args !== undefined)
        return [{ type: "tool_call", id: item.call_id, name: item.name, arguments: args }];
      if (cut)
        return [
          { type: "cut_tool_call", id: item.call_id, name: item.name, partialArguments: item.arguments },
        ];
      throw new StreamErrorEvent(malformedArguments(item.name, item.arguments));
    }
    default:
      // Hosted tools jp does not offer: nothing to record.
      return [];
  }
}

/** Why an incomplete response stopped. */
function incompleteStop(reason: string | undefined): StopReason {
  return reason === "max_output_tokens" ? "max_tokens" : reason === "content_filter" ? "refusal" : "other";
}

/**
 * Stream parts from Responses API events. Text and reasoning summaries
 * stream as they come; a reasoning item's encrypted content and a call's
 * arguments are taken whole from `response.output_item.done`.
 */
export async function* responsesParts(
  events: AsyncIterable<ResponseStreamEvent>,
): AsyncGenerator<StreamPart> {
  let calls = 0;
  /** Items that began and have not ended: a call the output cap cut off still ends, as cut. */
  const open = new Map<number, ResponseOutputItem>();
  const args = new Map<number, string>();
  for await (const ev of events) {
    // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- events of hosted tools and lifecycle events carry nothing jp records
    switch (ev.type) {
      case "response.output_item.added":
        open.set(ev.output_index, ev.item);
        if (ev.item.type === "reasoning") yield { type: "reasoning", text: "" };
        break;
      case "response.reasoning_summary_part.added":
        if (ev.summary_index > 0) yield { type: "reasoning", text: "\n\n" };
        break;
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        yield { type: "reasoning", text: ev.delta };
        break;
      case "response.output_text.delta":
        yield { type: "text", text: ev.delta };
        break;
      case "response.refusal.delta":
        yield { type: "refusal", text: ev.delta };
        break;
      case "response.function_call_arguments.delta":
        args.set(ev.output_index, (args.get(ev.output_index) ?? "") + ev.delta);
        break;
      case "response.output_item.done":
        open.delete(ev.output_index);
        if (ev.item.type === "function_call") calls++;
        yield* itemDone(ev.item, false);
        break;
      case "response.completed":
        // Items whose output_item.done never came are whole in the response (openai-node's own recording has such).
        for (const [index, item] of ev.response.output.entries())
          if (open.has(index)) {
            if (item.type === "function_call") calls++;
            yield* itemDone(item, false);
          }
        if (ev.response.usage) yield usagePart(ev.response.usage);
        yield* transformations(ev.response);
        yield { type: "stop", reason: calls ? "tool_use" : "end" };
        return;
      case "response.incomplete": {
        const stop = incompleteStop(ev.response.incomplete_details?.reason);
        // A call the cap cut off never got its output_item.done: it ends here, cut.
        for (const [index, item] of open)
          if (item.type === "function_call")
            yield* itemDone({ ...item, arguments: args.get(index) ?? item.arguments }, stop === "max_tokens");
        if (ev.response.usage) yield usagePart(ev.response.usage);
        yield* transformations(ev.response);
        yield { type: "stop", reason: stop };
        return;
      }
      case "response.failed":
        throw new StreamErrorEvent(ev.response.error ?? "the response failed");
      case "error":
        throw new StreamErrorEvent({ error: { code: ev.code, message: ev.message } });
      default:
        break;
    }
  }
  // The stream ended before the response did: the connection dropped.
  throw new StreamCutError();
}

/** The answer to a streamed request, as server-sent events. */
function postResponses(
  url: string,
  options: ProviderOptions,
  body: ResponseCreateParamsStreaming,
  signal: AbortSignal,
) {
  const headers = { accept: "application/json", authorization: `Bearer ${options.apiKey}` };
  return postForEvents({ url, headers, body, signal, ...transportOptions(options) });
}

/** The Responses API's stream, event by event. */
export async function* responsesStreamEvents(
  frames: AsyncIterable<ServerSentEvent>,
): AsyncGenerator<ResponseStreamEvent> {
  for await (const event of frames) {
    if (event.data === "" || event.data.startsWith("[DONE]")) continue;
    const data = eventData(event);
    if (isStreamEvent(data)) yield data;
  }
}

/** Each event's data names its own type, one of the API's stream shapes; other data is not an event. */
function isStreamEvent(data: unknown): data is ResponseStreamEvent {
  return isJsonObject(data) && typeof data.type === "string";
}

export function createResponsesProvider(
  options: ProviderOptions & { name: string; baseURL: string },
): Provider {
  const url = endpoint(options.baseURL, "/responses");
  const provider = classifiedProvider(options.name, options, RESPONSES_ACCEPTS, (request, signal) =>
    responsesParts(responsesStreamEvents(postResponses(url, options, responsesBody(request), signal))),
  );
  return {
    ...provider,
    prepare: (request) => {
      const { notice } = responsesEffort(request);
      return notice ? [notice] : [];
    },
  };
}

/** A question's parts as the Responses API spells them. */
const RESPONSES_PARTS: QuestionParts<ResponseInputContent> = {
  text: (text) => ({ type: "input_text", text }),
  image: (a) => ({ type: "input_image", image_url: dataUrl(a), detail: "auto" }),
  pdf: (a) => ({ type: "input_file", filename: fileName(a), file_data: dataUrl(a) }),
};
