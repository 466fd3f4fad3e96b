// Owns turning one provider stream into events: text, reasoning and its
// signatures, citations, whole blocks and tool calls collected as they
// arrive, shown as they come, and the events a response records.
import type { Price } from "../config/schema.js";
import {
  type ChatResponse,
  CITATIONS_KEY,
  CUT_ARGUMENTS_KEY,
  DISCARDED_ATTEMPTS_KEY,
  type Event,
  INPUT_TRANSFORMATIONS_KEY,
  isJsonObject,
  type JsonObject,
  type KnownEvent,
  OPENAI_REASONING_ITEM_KEY,
  PROVIDER_BLOCK_KEY,
  REASONING_FIELD_KEY,
  REASONING_SIGNATURE_KEY,
  REDACTED_REASONING_KEY,
  REFUSAL_KEY,
  STREAM_FAILED_KEY,
  type ToolCallRequest,
  type UsageRecord,
} from "../events/index.js";
import type { ModelFacts } from "./capabilities.js";
import { requestCost } from "./pricing.js";
import type { StopReason, StreamPart } from "./types.js";
import { usageRecord } from "./usage.js";

/** What assembling a stream needs of the turn: the clock its events are stamped by, and where the text shows as it comes. */
export interface AssemblyOptions {
  now: () => Date;
  output: { text(delta: string): void; reasoning(delta: string): void };
}

/** What the events of a response record beyond their blocks: the model that wrote them, and its prices. */
export interface ResponseOptions {
  modelId: string;
  now: () => Date;
  facts?: Pick<ModelFacts, "price">;
}

/** What one response streamed: its blocks as events, in the order they came. */
export interface Collected {
  /** Response events (chat_response, tool_call_request), one per content block. */
  blocks: KnownEvent[];
  /** The text or reasoning block still growing, also the last of `blocks`. */
  open?: ChatResponse;
  calls: ToolCallRequest[];
  /** A call whose arguments the output limit cut off: recorded, answered as not run, and the turn ends. */
  cut?: ToolCallRequest;
  /** The field an OpenAI-compatible server sends reasoning in, recorded so it goes back there. */
  reasoningField?: string;
  usage?: UsageRecord;
  stop?: StopReason;
  /** What the provider said of the stop (a refusal's explanation). */
  stopDetail?: string;
  /** What the provider changed in the request before the model saw it (thinking blocks it dropped). */
  inputTransformations?: JsonObject[];
}

export const emptyCollected = (): Collected => ({ blocks: [], calls: [] });

/** The metadata of a response event, as an object to add to. */
export function metadataOf(event: KnownEvent): JsonObject {
  if (!isJsonObject(event.metadata)) event.metadata = {};
  return event.metadata;
}

/**
 * The block in progress if it is of `kind` (a refusal is a message of its
 * own), else a new one: a change of kind starts a new block, as it does in
 * a provider's stream.
 */
export function openBlock(
  collected: Collected,
  kind: "message" | "reasoning" | "refusal",
  at: string,
): ChatResponse {
  const open = collected.open;
  if (open) {
    if (kind === "reasoning" && open.reasoning !== undefined) return open;
    if (kind === "message" && open.message !== undefined && !isRefusal(open)) return open;
    if (kind === "refusal" && open.message !== undefined && isRefusal(open)) return open;
  }
  const block: ChatResponse =
    kind === "reasoning"
      ? { type: "chat_response", timestamp: at, reasoning: "" }
      : { type: "chat_response", timestamp: at, message: "" };
  if (kind === "refusal") block.metadata = { [REFUSAL_KEY]: true };
  if (kind === "reasoning" && collected.reasoningField)
    block.metadata = { [REASONING_FIELD_KEY]: collected.reasoningField };
  collected.blocks.push(block);
  collected.open = block;
  return block;
}

export const isRefusal = (e: ChatResponse) => isJsonObject(e.metadata) && e.metadata[REFUSAL_KEY] === true;

/** The latest block of `collected` matching `test`. */
export function lastBlock(
  collected: Collected,
  test: (e: ChatResponse) => boolean,
): ChatResponse | undefined {
  for (let i = collected.blocks.length - 1; i >= 0; i--) {
    const e = collected.blocks[i]!;
    if (e.type === "chat_response" && test(e)) return e;
  }
  return undefined;
}

export function append(block: ChatResponse, field: "message" | "reasoning", text: string): void {
  block[field] = (block[field] ?? "") + text;
}

/** Text of the answer: a second text block of one answer starts a paragraph of its own on screen too. */
export function collectText(collected: Collected, text: string, options: AssemblyOptions): void {
  const before = collected.open;
  const block = openBlock(collected, "message", options.now().toISOString());
  const another = collected.blocks.some(
    (e) => e !== block && e.type === "chat_response" && e.message !== undefined,
  );
  if (block !== before && another) options.output.text("\n\n");
  append(block, "message", text);
  options.output.text(text);
}

/** The signature of the latest reasoning block, which may come in pieces. */
export function signReasoning(collected: Collected, signature: string): void {
  const target = lastBlock(collected, (e) => e.reasoning !== undefined);
  if (!target) return;
  const metadata = metadataOf(target);
  const previous = metadata[REASONING_SIGNATURE_KEY];
  metadata[REASONING_SIGNATURE_KEY] = `${typeof previous === "string" ? previous : ""}${signature}`;
}

/** A citation of the text block in progress; one that arrives before the block's first text opens it. */
export function cite(collected: Collected, citation: JsonObject, at: string): void {
  const metadata = metadataOf(openBlock(collected, "message", at));
  const list: unknown = metadata[CITATIONS_KEY];
  metadata[CITATIONS_KEY] = Array.isArray(list) ? list.concat([citation]) : [citation];
}

type WholeBlock = Extract<
  StreamPart,
  { type: "redacted_reasoning" | "provider_block" | "tool_call" | "cut_tool_call" }
>;

/** A part that is a block by itself, recorded as its event; a call cut off is kept apart to be answered as not run. */
export function collectWhole(collected: Collected, part: WholeBlock, at: string): void {
  collected.open = undefined;
  switch (part.type) {
    case "redacted_reasoning":
      collected.blocks.push({
        type: "chat_response",
        timestamp: at,
        reasoning: "",
        metadata: { [REDACTED_REASONING_KEY]: part.data },
      });
      return;
    case "provider_block":
      collected.blocks.push({
        type: "chat_response",
        timestamp: at,
        data: part.block,
        metadata: { [PROVIDER_BLOCK_KEY]: true },
      });
      return;
    case "tool_call":
    case "cut_tool_call": {
      const call: ToolCallRequest = {
        type: "tool_call_request",
        timestamp: at,
        id: part.id,
        name: part.name,
        ...(part.type === "tool_call"
          ? { arguments: part.arguments }
          : { arguments: {}, metadata: { [CUT_ARGUMENTS_KEY]: part.partialArguments } }),
      };
      collected.blocks.push(call);
      if (part.type === "tool_call") collected.calls.push(call);
      else collected.cut = call;
      return;
    }
  }
}

/** Add one stream part to what the response has made so far (and show it). */
export function collect(collected: Collected, part: StreamPart, options: AssemblyOptions): void {
  const at = () => options.now().toISOString();
  switch (part.type) {
    case "text":
      collectText(collected, part.text, options);
      break;
    case "refusal":
      append(openBlock(collected, "refusal", at()), "message", part.text);
      options.output.text(part.text);
      break;
    case "reasoning":
      append(openBlock(collected, "reasoning", at()), "reasoning", part.text);
      options.output.reasoning(part.text);
      break;
    case "reasoning_signature":
      signReasoning(collected, part.signature);
      break;
    case "block_metadata": {
      const last = collected.blocks.at(-1);
      if (last) Object.assign(metadataOf(last), part.metadata);
      break;
    }
    case "reasoning_item": {
      const target = lastBlock(collected, (e) => e.reasoning !== undefined);
      if (target) metadataOf(target)[OPENAI_REASONING_ITEM_KEY] = part.item;
      break;
    }
    case "reasoning_field":
      collected.reasoningField = part.field;
      break;
    case "citation":
      cite(collected, part.citation, at());
      break;
    case "block_end":
      collected.open = undefined;
      break;
    case "redacted_reasoning":
    case "provider_block":
    case "tool_call":
    case "cut_tool_call":
      collectWhole(collected, part, at());
      break;
    case "usage":
      collected.usage = usageRecord(part);
      break;
    case "input_transformations":
      collected.inputTransformations = [...(collected.inputTransformations ?? []), ...part.items];
      break;
    case "stop":
      collected.stop = part.reason;
      if (part.detail) collected.stopDetail = part.detail;
      break;
  }
}

/** Every call of a response that has no answer yet, the cut-off one included. */
export function unanswered(collected: Collected): ToolCallRequest[] {
  return collected.cut ? [...collected.calls, collected.cut] : collected.calls;
}

/** The metadata that records billed attempts which left no response of their own. */
export function discardedMetadata(discarded: readonly UsageRecord[]): JsonObject {
  return discarded.length ? { [DISCARDED_ATTEMPTS_KEY]: [...discarded] } : {};
}

/** A request's usage with its cost: the provider's where it said one, else priced at the model's list prices. */
export function withCost(usage: UsageRecord, price: Price | undefined): UsageRecord {
  if (usage.cost_usd !== undefined || !price) return usage;
  return { ...usage, cost_usd: requestCost(usage, price) };
}

/** The response events of one model response, usage (with its cost) and model on the last one. */
export function responseEvents(
  collected: Collected,
  options: ResponseOptions,
  interrupted: boolean,
  billedBefore: readonly UsageRecord[] = [],
  /** Why the stream failed partway, for what arrived before (`STREAM_FAILED_KEY`). */
  streamFailed?: string,
): Event[] {
  const price = options.facts?.price;
  const discarded = billedBefore.map((usage) => withCost(usage, price));
  const usage = collected.usage ? withCost(collected.usage, price) : undefined;
  const events: KnownEvent[] = [...collected.blocks];
  // An answer that is nothing but a refusal is still recorded, as one.
  if (events.length === 0 && collected.stop === "refusal")
    events.push({
      type: "chat_response",
      timestamp: options.now().toISOString(),
      message: "",
      metadata: { [REFUSAL_KEY]: true },
    });
  // An answer with nothing in it (Gemini's, with no parts) was still billed: it is recorded, empty, with its usage.
  if (events.length === 0 && (interrupted || usage || collected.stop))
    events.push({ type: "chat_response", timestamp: options.now().toISOString(), message: "" });
  const last = events.at(-1);
  if (last) {
    last.metadata = {
      ...(isJsonObject(last.metadata) ? last.metadata : {}),
      model: options.modelId,
      ...(usage ? { usage } : {}),
      ...discardedMetadata(discarded),
      ...(collected.stop ? { stop_reason: collected.stop } : {}),
      ...(collected.stopDetail ? { stop_detail: collected.stopDetail } : {}),
      ...(collected.inputTransformations?.length
        ? { [INPUT_TRANSFORMATIONS_KEY]: collected.inputTransformations }
        : {}),
      ...(interrupted ? { interrupted: true } : {}),
      ...(streamFailed !== undefined ? { [STREAM_FAILED_KEY]: streamFailed } : {}),
    };
  }
  return events;
}
