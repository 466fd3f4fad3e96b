// Owns building a request from the projection: the tools offered, the
// thinking asked for, the window guard, the thread's attachments, and which
// earlier reasoning may go back (bound to an unchanged history).
import {
  capToolOutputs,
  charsOfEvents,
  checkProviderView,
  describeViewProblem,
  project,
  tokensOfChars,
} from "../compaction/index.js";
import { JpError } from "../errors.js";
import {
  type Attachment,
  type Event,
  healProviderView,
  isJsonObject,
  isKnown,
  REASONING_LEFT_OUT_KEY,
} from "../events/index.js";
import { BadRequestError } from "../llm/errors.js";
import {
  bindReasoning,
  boundReasoning,
  headerDigest,
  type LeftOutReason,
  type LeftOutReasoning,
  unboundUntil,
} from "../llm/reasoning-binding.js";
import { toolIsAskedFor, withAskedTools } from "../llm/tool-choice.js";
import { recordedTop, requestTools } from "../llm/tool-changes.js";
import type { ModelRequest, ReasoningRequest, ToolDefinition } from "../llm/types.js";
import { leftOutLines } from "../render/reasoning.js";
import { withRecallWhenUseful } from "../tools/recall.js";
import type { Tool } from "../tools/types.js";
import type { Collected } from "../llm/assemble.js";
import type { TurnOptions } from "./types.js";
import { clearingHeader, clearings, type ProviderClearing } from "./provider-clearing.js";
import { grouped } from "../numbers.js";

export function toolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** A request's size at four characters a token: cheap, no tokenizer, enough to see one far over a window. */
export function approximateTokens(request: ModelRequest): number {
  const frame = (request.system?.length ?? 0) + JSON.stringify(request.tools).length;
  return tokensOfChars(frame + charsOfEvents(request.events));
}

/**
 * Whether the turn asks for its forced tool instead of forcing it: the
 * provider cannot force one, or the model refuses forced tool use (Sonnet
 * 5.5, models that always think).
 */
export function asksForTool(options: TurnOptions): boolean {
  return options.forcedTool !== undefined && toolIsAskedFor(options.provider.accepts, options.facts);
}

/**
 * Whether the turn's requests keep the conversation's usual tools and say
 * this question's own where it is asked (`llm/tool-changes.ts`): on a model
 * with preserved thinking whose provider takes tool changes.
 */
export function saysToolChanges(options: TurnOptions): boolean {
  return (
    options.facts?.preservedThinking === true &&
    options.provider.accepts.toolChanges === true &&
    options.standingTools !== undefined
  );
}

/**
 * Whether the question turns tool use off where tools are said as changes:
 * it offers none of the usual ones. The tools then stay declared and the
 * request says so by its tool choice; no change is recorded on the question.
 */
export function turnsToolsOff(options: TurnOptions): boolean {
  return saysToolChanges(options) && options.tools.length === 0 && (options.standingTools?.length ?? 0) > 0;
}

/** What stays on top where tools are said as changes: the usual tools, with recall (offered from the first request). */
export function topTools(options: TurnOptions): ToolDefinition[] {
  return toolDefinitions(withRecallWhenUseful(options.standingTools ?? options.tools, STABLE));
}

/** The tools the turn offers, as a request of a model with preserved thinking offers them. */
export function offeredTools(options: TurnOptions): ToolDefinition[] {
  return toolDefinitions(withRecallWhenUseful(options.tools, STABLE));
}

const STABLE = { activeCompactions: 0, cutOutputs: 0, stable: true };

/**
 * Whether the turn forces a tool where the provider refuses thinking with a
 * forced call (Anthropic): then it thinks in none of its requests.
 */
export function forcingStopsThinking(options: TurnOptions): boolean {
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
export function turnThinking(options: TurnOptions): ReasoningRequest | undefined {
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
export function overWindow(
  request: ModelRequest,
  options: TurnOptions,
  mayWarn: boolean,
): JpError | "warned" | undefined {
  const window = options.contextWindow;
  if (window === undefined) return undefined;
  const size = approximateTokens(request);
  if (size <= window) return undefined;
  const fmt = (n: number) => grouped(n);
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
export function rawTurns(turns: ReturnType<typeof project>["turns"]): Map<Event, number> {
  const turnOf = new Map<Event, number>();
  for (const t of turns) if (t.origin.kind === "kept") for (const e of t.events) turnOf.set(e, t.origin.turn);
  return turnOf;
}

/** Left-out reasoning grouped by raw turn and reason, in order. */
export function leftOutByTurn(
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
export function withThreadAttachments(
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
  const recallView = {
    activeCompactions: stats.activeCompactions,
    cutOutputs: shown.cut,
    stable: options.facts?.preservedThinking === true,
  };
  const asked = withAskedTools(
    withThreadAttachments(shown.events, options.threadAttachments),
    forced && insist,
  );
  const tools = saysToolChanges(options)
    ? requestTools(recordedTop(events) ?? topTools(options), asked)
    : toolDefinitions(withRecallWhenUseful(options.tools, recallView));
  const request: ModelRequest = {
    model: options.modelName,
    ...(options.system ? { system: options.system } : {}),
    events: asked,
    tools,
    toolChoice:
      forced && options.forcedTool
        ? { name: options.forcedTool, ...(insist ? { insist: true } : {}) }
        : "auto",
    ...(turnsToolsOff(options) ? { toolsOff: true } : {}),
    maxTokens: options.maxTokens,
    ...(turnThinking(options) ? { reasoning: turnThinking(options) } : {}),
    ...(options.facts ? { facts: options.facts } : {}),
    ...(options.cache ? { cache: options.cache, settled } : {}),
  };
  if (options.serverClearsToolUses) {
    const { edit, ends } = providerClears(request, options.serverClearsToolUses);
    request.clearToolUses = edit;
    // A clearing changes only what follows the results cleared before it: breakpoints where the
    // clearings so far end let the next one's first request read the prefix before it from the cache.
    if (request.settled) request.settled = [...new Set([...request.settled, ...ends])].sort((a, b) => a - b);
  }
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

/**
 * What the request asks the provider to clear: all tool uses but those a bulk
 * clearing keeps; and where each clearing so far ends (events up to its last result).
 */
function providerClears(
  request: ModelRequest,
  policy: ProviderClearing,
): { edit: NonNullable<ModelRequest["clearToolUses"]>; ends: number[] } {
  const results = request.events.flatMap((e, i) => (e.type === "tool_call_response" ? [i] : []));
  const made = clearings(request.events, policy, clearingHeader(policy, request.system, request.tools));
  const cleared = made.at(-1) ?? 0;
  return {
    edit: { trigger: policy.trigger, keep: results.length - cleared, clearAtLeast: policy.clearAtLeast },
    ends: made.map((n) => results[n - 1]! + 1),
  };
}

/** Whether a response called the turn's forced tool. */
export function calledForced(collected: Collected, options: TurnOptions): boolean {
  return collected.calls.some((c) => c.name === options.forcedTool);
}

/**
 * An answer to a request that asked for the forced tool without calling it:
 * set aside to ask again, firmly ("again"), or kept with a word ("kept").
 */
export function missedTool(
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
/**
 * The provider refused the thinking jp sent as configured to a model whose
 * thinking it knows nothing of (an id neither its table nor the Models API
 * describes): a 400 that names thinking or effort.
 */
export function thinkingRefused(error: unknown, request: ModelRequest, options: TurnOptions): boolean {
  if (!(error instanceof BadRequestError) || options.facts?.thinking !== undefined) return false;
  const sent = request.reasoning;
  if (!sent || sent.effort === "none" || (!sent.effort && !sent.budgetTokens)) return false;
  return /thinking|effort|reasoning/i.test(error.message);
}

export function boundElsewhere(error: unknown): boolean {
  return error instanceof BadRequestError && /bound to a different conversation/i.test(error.message);
}

/**
 * Say which turns' reasoning this request leaves out, when that changed since
 * the last response recorded it: the model will not see it, and the user
 * should know why.
 */
export function tellLeftOut(leftOut: readonly ReasoningLeftOut[], options: TurnOptions): void {
  if (leftOut.length === 0) return;
  const events = options.log.events();
  const last = events.findLast((e) => e.type === "chat_response" || e.type === "tool_call_request");
  const before =
    last && isKnown(last) && isJsonObject(last.metadata) ? last.metadata[REASONING_LEFT_OUT_KEY] : undefined;
  if (JSON.stringify(before) === JSON.stringify(leftOut)) return;
  for (const line of leftOutLines(leftOut, options.modelId)) options.output.notice(line);
}

/** On a model with preserved thinking: what each new reasoning block is bound to, and what the request left out. */
export function recordBinding(built: BuiltRequest, responses: readonly Event[]): void {
  if (built.header === undefined) return;
  bindReasoning(built.request.events, built.header, responses);
  const last = responses.at(-1);
  if (last && isKnown(last) && built.leftOut.length)
    last.metadata = {
      ...(isJsonObject(last.metadata) ? last.metadata : {}),
      [REASONING_LEFT_OUT_KEY]: built.leftOut.map((l) => ({ ...l })),
    };
}
