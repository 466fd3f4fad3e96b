// Owns one turn of `jp q`: the request, then cycles of project → request →
// stream → append responses → approve and run tools → append results, until
// the model stops calling tools. Each step is a named function below.
import {
  capToolOutputs,
  checkProviderView,
  describeViewProblem,
  project,
  tokensOfChars,
  type OutputCap,
} from "../compaction/index.js";
import { withRecallWhenUseful } from "../tools/recall.js";
import {
  healProviderView,
  ASKED_FOR_TOOL_KEY,
  type Attachment,
  type ChatResponse,
  INPUT_TRANSFORMATIONS_KEY,
  CITATIONS_KEY,
  CUT_ARGUMENTS_KEY,
  DISCARDED_ATTEMPTS_KEY,
  type Event,
  isJsonObject,
  isKnown,
  type JsonObject,
  type KnownEvent,
  OPENAI_REASONING_ITEM_KEY,
  PROVIDER_BLOCK_KEY,
  REASONING_FIELD_KEY,
  REASONING_LEFT_OUT_KEY,
  REASONING_SIGNATURE_KEY,
  REDACTED_REASONING_KEY,
  REFUSAL_KEY,
  type ToolCallRequest,
  turnCount,
  type UsageRecord,
} from "../events/index.js";
import { JpError } from "../errors.js";

import type { TurnOutput } from "./output.js";
import { questionWithDocuments } from "../llm/attachments.js";
import { AbortedError } from "../llm/errors.js";
import { streamWithRetries } from "../llm/retry.js";
import { usageRecord } from "../llm/usage.js";
import { requestCost } from "../llm/pricing.js";
import type { Price } from "../config/schema.js";
import type { ModelFacts } from "../llm/capabilities.js";
import { toolIsAskedFor, withAskedTools } from "../llm/tool-choice.js";
import {
  bindReasoning,
  boundReasoning,
  headerDigest,
  type LeftOutReason,
  type LeftOutReasoning,
  unboundUntil,
} from "../llm/reasoning-binding.js";
import { BadRequestError } from "../llm/errors.js";
import { leftOutLines } from "../render/reasoning.js";
import type {
  ModelRequest,
  Provider,
  ReasoningRequest,
  RequestCache,
  StopReason,
  StreamPart,
  ToolDefinition,
} from "../llm/types.js";
import type { Prompter } from "../tools/prompter.js";
import type { Tool } from "../tools/types.js";
import {
  type Approved,
  approveCalls,
  INTERRUPTED,
  type Remembered,
  runApproved,
  syntheticResponse,
  withApprovedArguments,
} from "./tool-calls.js";

/** Where the turn's events go: the conversation log, or memory with --no-persist. */
export interface TurnLog {
  events(): readonly Event[];
  append(group: readonly Event[]): void;
  /** False with --no-persist: what is appended lives in memory only, and messages must not say it is kept. */
  persisted?: boolean;
}

export interface TurnOptions {
  log: TurnLog;
  provider: Provider;
  modelId: string;
  modelName: string;
  system?: string;
  maxTokens: number;
  /** Thinking asked for by the config; absent is off. */
  reasoning?: ReasoningRequest;
  /**
   * On a model with preserved thinking, what the provider is asked to do with
   * a thinking block whose prefix changed all the same: drop it (default) or
   * refuse the request.
   */
  prefixMismatch?: "drop" | "error";
  /** What the model accepts (its capabilities), when known. */
  facts?: ModelFacts;
  /** Prompt caching, when on: the key is the conversation's id. */
  cache?: RequestCache;
  maxRetries: number;
  backoffMs: number;
  /** Times an answer cut off at maxTokens is asked to go on; absent or 0: never. */
  maxContinuations?: number;
  tools: readonly Tool[];
  /**
   * What `conversation.attachments` names, read for this turn: sent before the
   * first question of every request, as JP sends its thread's attachments,
   * and not recorded (the config says what they are).
   */
  threadAttachments?: readonly Attachment[];
  /** What `-a` attached to the question, recorded with it. */
  attachments?: readonly Attachment[];
  /** The failed turn whose question this turn asks again (`jp q --retry`), recorded on the question. */
  retryOf?: number;
  /** Force the first request to call this tool; later requests choose freely. */
  forcedTool?: string;
  prompter: Prompter;
  output: TurnOutput;
  now: () => Date;
  cwd: string;
  signal: AbortSignal;
  /** The model's context window in tokens, when known: a request clearly above it is not sent. */
  contextWindow?: number;
  /** The view's cap of each tool's output (its max_output_bytes): longer ones are shown as head and tail. */
  outputCap?: OutputCap;
  /** Whether automatic compaction runs before each request (the refusal says what is left to do). */
  autoCompacts?: boolean;
  /** Called before every provider request with the stream; may return events to append first (auto compaction). */
  beforeRequest?: (events: readonly Event[]) => Promise<Event[] | undefined>;
}

export interface TurnResult {
  interrupted: boolean;
  requests: number;
  lastStop?: StopReason;
}

/** What one response streamed: its blocks as events, in the order they came. */
interface Collected {
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

const emptyCollected = (): Collected => ({ blocks: [], calls: [] });

/** The metadata of a response event, as an object to add to. */
function metadataOf(event: KnownEvent): JsonObject {
  if (!isJsonObject(event.metadata)) event.metadata = {};
  return event.metadata;
}

/**
 * The block in progress if it is of `kind` (a refusal is a message of its
 * own), else a new one: a change of kind starts a new block, as it does in
 * a provider's stream.
 */
function openBlock(
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

const isRefusal = (e: ChatResponse) => isJsonObject(e.metadata) && e.metadata[REFUSAL_KEY] === true;

/** The latest block of `collected` matching `test`. */
function lastBlock(collected: Collected, test: (e: ChatResponse) => boolean): ChatResponse | undefined {
  for (let i = collected.blocks.length - 1; i >= 0; i--) {
    const e = collected.blocks[i]!;
    if (e.type === "chat_response" && test(e)) return e;
  }
  return undefined;
}

function append(block: ChatResponse, field: "message" | "reasoning", text: string): void {
  block[field] = (block[field] ?? "") + text;
}

/** Text of the answer: a second text block of one answer starts a paragraph of its own on screen too. */
function collectText(collected: Collected, text: string, options: TurnOptions): void {
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
function signReasoning(collected: Collected, signature: string): void {
  const target = lastBlock(collected, (e) => e.reasoning !== undefined);
  if (!target) return;
  const metadata = metadataOf(target);
  const previous = metadata[REASONING_SIGNATURE_KEY];
  metadata[REASONING_SIGNATURE_KEY] = `${typeof previous === "string" ? previous : ""}${signature}`;
}

/** A citation of the text block in progress; one that arrives before the block's first text opens it. */
function cite(collected: Collected, citation: JsonObject, at: string): void {
  const metadata = metadataOf(openBlock(collected, "message", at));
  const list: unknown = metadata[CITATIONS_KEY];
  metadata[CITATIONS_KEY] = Array.isArray(list) ? list.concat([citation]) : [citation];
}

type WholeBlock = Extract<
  StreamPart,
  { type: "redacted_reasoning" | "provider_block" | "tool_call" | "cut_tool_call" }
>;

/** A part that is a block by itself, recorded as its event; a call cut off is kept apart to be answered as not run. */
function collectWhole(collected: Collected, part: WholeBlock, at: string): void {
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
function collect(collected: Collected, part: StreamPart, options: TurnOptions): void {
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

/** The answer to a call the output limit cut off: the model sees it was not run, and why. */
const CUT_CALL =
  "not run: the answer was cut off at the output limit before this call's arguments were complete";

/** Every call of a response that has no answer yet, the cut-off one included. */
function unanswered(collected: Collected): ToolCallRequest[] {
  return collected.cut ? [...collected.calls, collected.cut] : collected.calls;
}

function cutCallError(call: ToolCallRequest, options: TurnOptions): JpError {
  return new JpError(
    "turn.cut_tool_call",
    `the answer was cut off at the output limit (${options.maxTokens.toLocaleString("en-US")} tokens) while the model was writing the arguments of ${call.name || "a tool call"}; nothing was run`,
    {
      hint: "raise assistant.request.max_tokens (-c or config), or ask for a smaller step; the call is recorded as not run",
    },
  );
}

function toolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** A request's size at four characters a token: cheap, no tokenizer, enough to see one far over a window. */
export function approximateTokens(request: ModelRequest): number {
  let chars = (request.system?.length ?? 0) + JSON.stringify(request.tools).length;
  for (const e of request.events) {
    if (e.type === "chat_request") chars += questionWithDocuments(e.content, e.attachments).length;
    else if (e.type === "tool_call_response") chars += e.content.length;
    else if (e.type === "chat_response") chars += (e.message ?? e.reasoning ?? "").length;
    else if (e.type === "tool_call_request") chars += JSON.stringify(e.arguments).length;
  }
  return tokensOfChars(chars);
}

/**
 * Whether the turn asks for its forced tool instead of forcing it: the
 * provider cannot force one, or the model refuses forced tool use (Sonnet
 * 5.5, models that always think).
 */
function asksForTool(options: TurnOptions): boolean {
  return options.forcedTool !== undefined && toolIsAskedFor(options.provider.accepts, options.facts);
}

/**
 * Whether the turn forces a tool where the provider refuses thinking with a
 * forced call (Anthropic): then it thinks in none of its requests.
 */
function forcingStopsThinking(options: TurnOptions): boolean {
  return (
    options.forcedTool !== undefined && !asksForTool(options) && !options.provider.accepts.thinksWhileForced
  );
}

/**
 * The thinking of every request of the turn. One setting for the whole
 * turn: a provider that sees thinking on in one request of a tool loop and
 * off in the next refuses it. Off, where forcing stops thinking, is said as
 * off (effort none), so a model that thinks by default does not think unasked.
 */
function turnThinking(options: TurnOptions): ReasoningRequest | undefined {
  const reasoning = options.reasoning;
  if (!reasoning || (!reasoning.budgetTokens && !reasoning.effort)) return undefined;
  return forcingStopsThinking(options) ? { effort: "none" } : reasoning;
}

/**
 * Whether `request` fits the model's context window, by the cheap chars/4
 * estimate. Clearly over it (by more than a fifth, past the estimate's
 * error) it is not sent: uploading it only to be refused costs time and, at
 * some providers, money; the error says how to make it fit. Just over it, a
 * warning, once.
 */
function overWindow(
  request: ModelRequest,
  options: TurnOptions,
  mayWarn: boolean,
): JpError | "warned" | undefined {
  const window = options.contextWindow;
  if (window === undefined) return undefined;
  const size = approximateTokens(request);
  if (size <= window) return undefined;
  const fmt = (n: number) => n.toLocaleString("en-US");
  const what = `this request is about ${fmt(size)} tokens, more than the ${fmt(window)}-token context window of ${options.modelId}`;
  if (size <= window * 1.2) {
    if (!mayWarn) return undefined;
    options.output.notice(`warning: ${what}; the provider may refuse it`);
    return "warned";
  }
  return new JpError("turn.over_window", `${what}; it was not sent`, {
    hint: options.autoCompacts
      ? "automatic compaction could not bring it under the window (the newest turn is too large for what it may touch): compact by hand, e.g. `jp conversation compact -k t` (strip every tool call) or `-k s:..-1` (summarise all but the last turn), then `jp q --retry`"
      : "compact first, e.g. `jp conversation compact -k s:..-2` (summarise all but the last two turns) or `--keep-last 2`, then `jp q --retry`; or turn on conversation.compaction.auto",
  });
}

/** A request, and on a model with preserved thinking the digest of its header and the reasoning it leaves out. */
interface BuiltRequest {
  request: ModelRequest;
  header?: string;
  /** The reasoning left out, by raw turn (0-based) and why. */
  leftOut: ReasoningLeftOut[];
}

/** Reasoning blocks of one raw turn that a request left out, for one reason. */
interface ReasoningLeftOut {
  turn: number;
  blocks: number;
  reason: LeftOutReason;
}

/** The raw turn of each event of the view that kept its turn (summaries have none). */
function rawTurns(turns: ReturnType<typeof project>["turns"]): Map<Event, number> {
  const turnOf = new Map<Event, number>();
  for (const t of turns) if (t.origin.kind === "kept") for (const e of t.events) turnOf.set(e, t.origin.turn);
  return turnOf;
}

/** Left-out reasoning grouped by raw turn and reason, in order. */
function leftOutByTurn(
  view: readonly Event[],
  leftOut: readonly LeftOutReasoning[],
  turnOf: Map<Event, number>,
): ReasoningLeftOut[] {
  const groups: ReasoningLeftOut[] = [];
  for (const { index, reason } of leftOut) {
    const turn = turnOf.get(view[index]!);
    if (turn === undefined) continue;
    const last = groups.at(-1);
    if (last && last.turn === turn && last.reason === reason) last.blocks += 1;
    else groups.push({ turn, blocks: 1, reason });
  }
  return groups;
}

/** The view with the thread's attachments before the first question's own. */
function withThreadAttachments(
  events: readonly Event[],
  attachments: readonly Attachment[] | undefined,
): readonly Event[] {
  if (!attachments?.length) return events;
  const first = events.findIndex((e) => e.type === "chat_request");
  const question = events[first];
  if (question?.type !== "chat_request") return events;
  const out = [...events];
  out[first] = { ...question, attachments: [...attachments, ...(question.attachments ?? [])] };
  return out;
}

/**
 * Build the request from the projection, asserting the provider view is
 * valid. `forced`: the forced tool is asked for (firmly, with `insist`).
 * `refuseReasoning`: no earlier reasoning goes back (the provider refused it).
 */
export function buildRequest(
  events: readonly Event[],
  options: TurnOptions,
  forced: boolean,
  insist = false,
  refuseReasoning = false,
): BuiltRequest {
  const { events: view, settled, stats, turns } = project(events);
  let projected: readonly Event[] = view;
  let problems = checkProviderView(projected, { lastTurnFinished: true });
  // Only a log that lost a line to doctor's quarantine is healed: a sound one pays nothing more.
  if (problems.length) {
    projected = healProviderView(view, { lastTurnFinished: true });
    problems = checkProviderView(projected, { lastTurnFinished: true });
  }
  if (problems.length) {
    throw new JpError(
      "turn.invalid_view",
      `the request would be invalid: ${problems.map(describeViewProblem).join("; ")}`,
      {
        hint: "run `jp conversation doctor` on this conversation",
      },
    );
  }
  // Outputs over their tool's cap are shown as head and tail; the log keeps them whole.
  const shown = options.outputCap
    ? capToolOutputs(projected, options.outputCap)
    : { events: projected, cut: 0 };
  const tools = toolDefinitions(
    withRecallWhenUseful(options.tools, {
      activeCompactions: stats.activeCompactions,
      cutOutputs: shown.cut,
      stable: options.facts?.preservedThinking === true,
    }),
  );
  const asked = withAskedTools(
    withThreadAttachments(shown.events, options.threadAttachments),
    forced && insist,
  );
  const request: ModelRequest = {
    model: options.modelName,
    ...(options.system ? { system: options.system } : {}),
    events: asked,
    tools,
    toolChoice:
      forced && options.forcedTool
        ? { name: options.forcedTool, ...(insist ? { insist: true } : {}) }
        : "auto",
    maxTokens: options.maxTokens,
    ...(turnThinking(options) ? { reasoning: turnThinking(options) } : {}),
    ...(options.facts ? { facts: options.facts } : {}),
    ...(options.cache ? { cache: options.cache, settled } : {}),
  };
  if (!options.facts?.preservedThinking) return { request, leftOut: [] };
  // The model checks each thinking block's prefix: only those whose prefix is unchanged go back.
  const header = headerDigest(options.system, tools);
  const bound = boundReasoning(asked, header, {
    unboundUntil: unboundUntil(events, shown.events, shown.cut, options.outputCap),
    refuseAll: refuseReasoning,
  });
  request.events = bound.events;
  if (request.settled) request.settled = request.settled.map(bound.position);
  request.reasoningBinding = options.prefixMismatch ?? "drop";
  return { request, header, leftOut: leftOutByTurn(asked, bound.leftOut, rawTurns(turns)) };
}

/** What streaming one response came to; `discarded` holds the usage of attempts a retry threw away (they were billed). */
type Streamed =
  | { ok: true; collected: Collected; interrupted: boolean; discarded: UsageRecord[] }
  | { ok: false; error: unknown; discarded: UsageRecord[] };

/** Stream one response; on interruption, what arrived is returned with `interrupted`. */
async function streamResponse(request: ModelRequest, options: TurnOptions): Promise<Streamed> {
  let collected = emptyCollected();
  const discarded: UsageRecord[] = [];
  options.output.waiting();
  try {
    for await (const part of streamWithRetries(options.provider, request, {
      maxRetries: options.maxRetries,
      backoffMs: options.backoffMs,
      signal: options.signal,
      onRetry: (error, attempt, delay) => {
        options.output.retry(error, attempt, delay);
      },
    })) {
      if (part.type !== "restart") {
        collect(collected, part, options);
        continue;
      }
      if (collected.usage) discarded.push(collected.usage);
      collected = emptyCollected();
      options.output.restart();
    }
    return { ok: true, collected, interrupted: false, discarded };
  } catch (error) {
    if (error instanceof AbortedError || options.signal.aborted)
      return { ok: true, collected, interrupted: true, discarded };
    if (collected.usage) discarded.push(collected.usage);
    return { ok: false, error, discarded };
  } finally {
    options.output.responseDone();
  }
}

/** The metadata that records billed attempts which left no response of their own. */
function discardedMetadata(discarded: readonly UsageRecord[]): JsonObject {
  return discarded.length ? { [DISCARDED_ATTEMPTS_KEY]: [...discarded] } : {};
}

/** A request's usage with its cost: the provider's where it said one, else priced at the model's list prices. */
function withCost(usage: UsageRecord, price: Price | undefined): UsageRecord {
  if (usage.cost_usd !== undefined || !price) return usage;
  return { ...usage, cost_usd: requestCost(usage, price) };
}

/** The response events of one model response, usage (with its cost) and model on the last one. */
export function responseEvents(
  collected: Collected,
  options: Pick<TurnOptions, "modelId" | "now" | "facts">,
  interrupted: boolean,
  billedBefore: readonly UsageRecord[] = [],
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
    };
  }
  return events;
}

/** A first request that got no answer: marked failed, so the next request does not send the question twice. */
/** What a failure says of the question it left without an answer. */
const KEPT_FAILED =
  "the question is kept in the log, marked as failed, and is not sent again; `jp q --retry` asks it again";

/** The event that marks the last turn of `events` as failed: its question is not sent again. */
function requestFailed(at: string, events: readonly Event[], error: unknown, metadata?: JsonObject): Event {
  return {
    type: "request_failed",
    timestamp: at,
    turn: turnCount(events) - 1,
    reason: error instanceof Error ? error.message : String(error),
    ...(metadata ? { metadata } : {}),
  };
}

function markFailed(options: TurnOptions, error: unknown, discarded: readonly UsageRecord[]): void {
  const billed = discarded.length ? { model: options.modelId, ...discardedMetadata(discarded) } : undefined;
  options.log.append([requestFailed(options.now().toISOString(), options.log.events(), error, billed)]);
  const note =
    options.log.persisted === false
      ? "nothing was recorded (--no-persist): to ask again, run the same command"
      : KEPT_FAILED;
  if (error instanceof JpError) error.notes.push(note);
  else options.output.notice(note);
}

/**
 * Record a response. An interrupted one, or one whose call the output limit
 * cut off, gets answers for its calls that will not run, so the stream stays
 * valid for the next request; then the turn ends ("interrupted", or by
 * throwing). Otherwise says how it stopped, if worth saying.
 */
function recordResponse(
  collected: Collected,
  responses: Event[],
  interrupted: boolean,
  options: TurnOptions,
): "interrupted" | undefined {
  const at = options.now().toISOString();
  if (interrupted) {
    options.log.append([
      ...responses,
      ...unanswered(collected).map((c) => syntheticResponse(c, INTERRUPTED, at)),
    ]);
    return "interrupted";
  }
  const windowFull = collected.stop === "context_exceeded";
  if (collected.cut) {
    options.log.append([
      ...responses,
      ...unanswered(collected).map((c) => syntheticResponse(c, windowFull ? CUT_BY_WINDOW : CUT_CALL, at)),
    ]);
    throw windowFull ? windowFullError(options) : cutCallError(collected.cut, options);
  }
  // A response that calls tools is committed once its calls are approved (answerCalls), with the arguments that run.
  if (responses.length && (windowFull || collected.calls.length === 0)) options.log.append(responses);
  if (windowFull) throw windowFullError(options);
  if (collected.stop === "refusal" || lastBlock(collected, isRefusal))
    options.output.notice(
      collected.stopDetail
        ? `the model declined to answer: ${collected.stopDetail}`
        : "the model declined to answer",
    );
  return undefined;
}

/** The answer to a call cut off when the model's window filled up. */
const CUT_BY_WINDOW =
  "not run: the model's context window filled up before this call's arguments were complete";

/** The window filled up while the model answered: what arrived is kept, and compaction makes room. */
function windowFullError(options: TurnOptions): JpError {
  return new JpError(
    "turn.context_window_exceeded",
    `the conversation filled ${options.modelId}'s context window while it answered; what arrived is kept`,
    {
      hint: "make room, e.g. `jp conversation compact -k s:..-2` (summarise all but the last two turns) or `-k t` (strip tool calls), then `jp q` to go on",
    },
  );
}

/**
 * Approve the response's calls, commit the response with the arguments that
 * will run, then run them and commit their results. Whatever fails, every
 * committed call gets a response.
 */
async function answerCalls(
  calls: readonly ToolCallRequest[],
  responses: readonly Event[],
  options: TurnOptions,
  remembered: Remembered,
): Promise<{ interrupted: boolean }> {
  const failed = (error: unknown) =>
    calls.map((c) =>
      syntheticResponse(
        c,
        `tool call failed: ${error instanceof Error ? error.message : String(error)}`,
        options.now().toISOString(),
      ),
    );
  let approved: Approved;
  try {
    approved = await approveCalls(calls, responses, options, remembered);
  } catch (error) {
    options.log.append([...responses, ...failed(error)]);
    throw error;
  }
  options.log.append(withApprovedArguments(responses, approved));
  let ran: Awaited<ReturnType<typeof runApproved>>;
  try {
    ran = await runApproved(approved, options, remembered);
  } catch (error) {
    options.log.append(failed(error));
    throw error;
  }
  if (ran.group.length) options.log.append(ran.group);
  return { interrupted: ran.interrupted };
}

/** Continuations of a turn the provider paused (pause_turn) before jp stops sending it back. */
const MAX_PAUSES = 10;

/** Whether a response called the turn's forced tool. */
function calledForced(collected: Collected, options: TurnOptions): boolean {
  return collected.calls.some((c) => c.name === options.forcedTool);
}

/** A turn's first request checked by its provider before it is sent: notices shown, a refusal returned. */
function prepared(request: ModelRequest, options: TurnOptions): JpError | undefined {
  try {
    for (const notice of options.provider.prepare?.(request) ?? []) options.output.notice(notice);
    return undefined;
  } catch (error) {
    if (error instanceof JpError) return error;
    throw error;
  }
}

/** The question that opens the turn, recorded before anything is sent. */
/** The events that open a turn: its start and its question, with what was attached and asked for. */
function questionEvents(
  query: string,
  options: Pick<TurnOptions, "now" | "attachments" | "retryOf">,
  forcedTool?: string,
): Event[] {
  const start = options.now().toISOString();
  return [
    { type: "turn_start", timestamp: start },
    {
      type: "chat_request",
      timestamp: start,
      content: query,
      ...(options.attachments?.length ? { attachments: [...options.attachments] } : {}),
      ...(options.retryOf !== undefined || forcedTool !== undefined
        ? {
            metadata: {
              ...(options.retryOf !== undefined ? { retry_of: options.retryOf } : {}),
              ...(forcedTool !== undefined ? { [ASKED_FOR_TOOL_KEY]: forcedTool } : {}),
            },
          }
        : {}),
    },
  ];
}

/**
 * A question that could not be asked (a tool server that would not start):
 * recorded as asked and failed, so that nothing is lost and `jp q --retry`
 * asks it again.
 */
export function recordFailedQuestion(
  query: string,
  error: unknown,
  options: Pick<TurnOptions, "now" | "attachments" | "retryOf" | "log">,
): void {
  const asked = questionEvents(query, options);
  const at = options.now().toISOString();
  options.log.append([...asked, requestFailed(at, [...options.log.events(), ...asked], error)]);
  if (error instanceof JpError) error.notes.push(KEPT_FAILED);
}

function recordQuestion(query: string, options: TurnOptions): void {
  options.log.append(questionEvents(query, options, asksForTool(options) ? options.forcedTool : undefined));
  const asked = options.reasoning?.budgetTokens || options.reasoning?.effort;
  const configured = asked && options.reasoning?.effort !== "none";
  if (configured && forcingStopsThinking(options))
    options.output.notice(
      `thinking is off for this turn: a forced tool call (-u ${options.forcedTool}) cannot be combined with it`,
    );
}

/**
 * Send one request: checked by its provider first (the turn's first only)
 * and against the window, then streamed. `warned` says whether the window
 * warning was shown already; the result says whether it is now.
 */
async function sendRequest(
  request: ModelRequest,
  options: TurnOptions,
  first: boolean,
  warned: boolean,
): Promise<{ streamed: Streamed; warned: boolean }> {
  const refused = first ? prepared(request, options) : undefined;
  const oversize = refused ?? overWindow(request, options, !warned);
  if (oversize instanceof JpError) return { streamed: { ok: false, error: oversize, discarded: [] }, warned };
  return { streamed: await streamResponse(request, options), warned: warned || oversize === "warned" };
}

/**
 * An answer to a request that asked for the forced tool without calling it:
 * set aside to ask again, firmly ("again"), or kept with a word ("kept").
 */
function missedTool(
  collected: Collected,
  options: TurnOptions,
  insisted: boolean,
): "again" | "kept" | undefined {
  if (!asksForTool(options) || calledForced(collected, options)) return undefined;
  const what = `${options.modelId} ${insisted ? "did not call" : "answered without calling"} ${options.forcedTool}`;
  options.output.notice(
    insisted ? `${what} although asked twice; its answer is kept` : `${what}; asking again, more firmly`,
  );
  return insisted ? "kept" : "again";
}

/** Whether a provider refused a request for a thinking block bound to another prefix (Anthropic's 400). */
function boundElsewhere(error: unknown): boolean {
  return error instanceof BadRequestError && /bound to a different conversation/i.test(error.message);
}

/**
 * Say which turns' reasoning this request leaves out, when that changed since
 * the last response recorded it: the model will not see it, and the user
 * should know why.
 */
function tellLeftOut(leftOut: readonly ReasoningLeftOut[], options: TurnOptions): void {
  if (leftOut.length === 0) return;
  const events = options.log.events();
  const last = events.findLast((e) => e.type === "chat_response" || e.type === "tool_call_request");
  const before =
    last && isKnown(last) && isJsonObject(last.metadata) ? last.metadata[REASONING_LEFT_OUT_KEY] : undefined;
  if (JSON.stringify(before) === JSON.stringify(leftOut)) return;
  for (const line of leftOutLines(leftOut, options.modelId)) options.output.notice(line);
}

/** On a model with preserved thinking: what each new reasoning block is bound to, and what the request left out. */
function recordBinding(built: BuiltRequest, responses: readonly Event[]): void {
  if (built.header === undefined) return;
  bindReasoning(built.request.events, built.header, responses);
  const last = responses.at(-1);
  if (last && isKnown(last) && built.leftOut.length)
    last.metadata = {
      ...(isJsonObject(last.metadata) ? last.metadata : {}),
      [REASONING_LEFT_OUT_KEY]: built.leftOut.map((l) => ({ ...l })),
    };
}

/**
 * What asks a model to go on with an answer the output cap cut off: JP's own
 * words, so that the model repeats the answer's last characters and the two
 * pieces can be joined where they overlap. Sent, never recorded.
 */
export const CONTINUE_PROMPT =
  "Please continue from where you left off. DO NOT reason or mention being asked to continue the conversation, just do it. YOU MUST repeat between 10 and 100 characters from the end of the previous message, so that our system can find the correct merge point between the two messages.";

/** How far back a continuation's repeat is looked for, and how much of its start is held until then. */
const MERGE_WINDOW = 300;

/**
 * How many characters at the start of `next` repeat the end of `before`
 * (the merge point); 0 when it repeats fewer than 10, or none.
 */
export function overlapAt(before: string, next: string): number {
  const tail = before.slice(-MERGE_WINDOW);
  for (let k = Math.min(tail.length, next.length); k >= 10; k--)
    if (tail.endsWith(next.slice(0, k))) return k;
  return 0;
}

/**
 * The output of a continuation: its first text is held until the merge point
 * can be found (or the text ends), and the repeated characters are not shown
 * again.
 */
function mergingOutput(output: TurnOutput, before: string): TurnOutput {
  let held = "";
  let merged = false;
  const flush = () => {
    if (merged) return;
    merged = true;
    const rest = held.slice(overlapAt(before, held));
    if (rest) output.text(rest);
  };
  return {
    ...output,
    text(delta) {
      if (merged) {
        output.text(delta);
        return;
      }
      held += delta;
      if (held.length >= MERGE_WINDOW) flush();
    },
    responseDone() {
      flush();
      output.responseDone();
    },
  };
}

/**
 * A continuation as recorded: its text from the merge point on, and without
 * the reasoning it wrote (bound to the request that asked it to go on, which
 * is not recorded).
 */
function mergedContinuation(collected: Collected, before: string): void {
  collected.blocks = collected.blocks.filter(
    (b) => !(b.type === "chat_response" && b.reasoning !== undefined),
  );
  const first = collected.blocks.find(
    (b): b is ChatResponse => b.type === "chat_response" && b.message !== undefined,
  );
  if (first?.message !== undefined) first.message = first.message.slice(overlapAt(before, first.message));
}

/** The text of an answer's message blocks, in order. */
const answerText = (collected: Collected) =>
  collected.blocks.map((b) => (b.type === "chat_response" ? (b.message ?? "") : "")).join("");

/** Run one turn for `query`. */
export async function runTurn(query: string, options: TurnOptions): Promise<TurnResult> {
  recordQuestion(query, options);
  let requests = 0;
  let warned = false;
  let pauses = 0;
  // Until an answer is recorded, a failure marks the question as failed (it is not sent again).
  let answered = false;
  // The forced tool, when only asked for, is asked for once more (firmly) if the first answer does not call it.
  let insisting = false;
  let unrecorded: UsageRecord[] = [];
  // The answer so far while it is being continued after the output cap cut it off.
  let continuing: string | undefined;
  let continuations = 0;
  // Y and N at an approval prompt hold for the rest of this turn.
  const remembered: Remembered = new Map();
  for (;;) {
    const extra = await options.beforeRequest?.(options.log.events());
    if (extra?.length) options.log.append(extra);
    const forcing = requests === 0 || insisting;
    const asked = (): readonly Event[] =>
      continuing === undefined
        ? options.log.events()
        : [
            ...options.log.events(),
            { type: "chat_request", timestamp: options.now().toISOString(), content: CONTINUE_PROMPT },
          ];
    let built = buildRequest(asked(), options, forcing, insisting);
    tellLeftOut(built.leftOut, options);
    requests += 1;
    const streaming =
      continuing === undefined ? options : { ...options, output: mergingOutput(options.output, continuing) };
    let sent = await sendRequest(built.request, streaming, requests === 1, warned);
    let refusedUsage: UsageRecord[] = [];
    if (!sent.streamed.ok && boundElsewhere(sent.streamed.error) && built.header) {
      // A block jp took for valid was refused: ask once more with no earlier reasoning.
      options.output.notice(
        `${options.modelId} refused earlier reasoning as bound to a different conversation; asking again without it`,
      );
      refusedUsage = sent.streamed.discarded;
      built = buildRequest(asked(), options, forcing, insisting, true);
      sent = await sendRequest(built.request, streaming, false, warned);
    }
    warned = sent.warned;
    const streamed = sent.streamed;
    if (!streamed.ok) {
      if (!answered)
        markFailed(options, streamed.error, [...unrecorded, ...refusedUsage, ...streamed.discarded]);
      throw streamed.error;
    }
    const { collected, interrupted } = streamed;
    const discarded = [...unrecorded, ...refusedUsage, ...streamed.discarded];
    unrecorded = [];
    if (forcing && !interrupted && missedTool(collected, options, insisting) === "again") {
      // Not recorded: the firmer request replaces it (its usage is counted with the next answer).
      unrecorded = collected.usage ? [...discarded, collected.usage] : discarded;
      insisting = true;
      continue;
    }
    insisting = false;
    if (continuing !== undefined) mergedContinuation(collected, continuing);
    const responses = responseEvents(collected, options, interrupted, discarded);
    recordBinding(built, responses);
    answered = true;
    if (recordResponse(collected, responses, interrupted, options)) return { interrupted: true, requests };
    if (collected.stop === "pause" && collected.calls.length === 0) {
      // The server paused a long turn: sending it back as it is lets the model go on.
      if (++pauses <= MAX_PAUSES) continue;
      options.output.notice(`the provider paused this turn ${MAX_PAUSES} times; \`jp q\` goes on from here`);
    }
    if (collected.stop === "max_tokens" && collected.calls.length === 0 && !collected.cut) {
      // Cut off at the output cap: asked to go on, as JP does, and shown and recorded as one answer.
      if (continuations < (options.maxContinuations ?? 0)) {
        continuations += 1;
        continuing = (continuing ?? "") + answerText(collected);
        continue;
      }
      options.output.notice(
        continuations
          ? `the answer was still cut off at the token limit after ${continuations} continuations (assistant.request.max_continuations)`
          : "the response was cut off at the token limit (assistant.request.max_tokens)",
      );
    }
    continuing = undefined;
    if (collected.calls.length === 0) return { interrupted: false, requests, lastStop: collected.stop };
    if ((await answerCalls(collected.calls, responses, options, remembered)).interrupted)
      return { interrupted: true, requests };
  }
}
