// Owns what a turn writes to its log besides the response: the question with
// its attachments, and a request that failed, kept for --retry.
import { redactSecrets } from "../llm/redact.js";
import { JpError } from "../errors.js";
import {
  ASKED_FOR_TOOL_KEY,
  type Event,
  type JsonObject,
  type ToolCallRequest,
  turnCount,
  type UsageRecord,
} from "../events/index.js";
import {
  type Collected,
  discardedMetadata,
  isRefusal,
  lastBlock,
  responseEvents,
  unanswered,
} from "../llm/assemble.js";
import { grouped } from "../numbers.js";
import { recordedTop, toolChangesOf, type ToolChanges, withToolChanges } from "../llm/tool-changes.js";
import type { ToolDefinition } from "../llm/types.js";
import {
  asksForTool,
  forcingStopsThinking,
  offeredTools,
  saysToolChanges,
  topTools,
  turnsToolsOff,
} from "./request.js";
import { INTERRUPTED, syntheticResponse } from "./tool-calls.js";
import type { TurnOptions } from "./types.js";

/** What a failure says of the question it left without an answer. */
export const KEPT_FAILED =
  "the question is kept in the log, marked as failed, and is not sent again; `jp q --retry` asks it again";

/** The event that marks the last turn of `events` as failed: its question is not sent again. */
export function requestFailed(
  at: string,
  events: readonly Event[],
  error: unknown,
  metadata?: JsonObject,
): Event {
  return {
    type: "request_failed",
    timestamp: at,
    turn: turnCount(events) - 1,
    // A failure may quote a URL with its key (`?key=…`) or a header: recorded without them.
    reason: redactSecrets(error instanceof Error ? error.message : String(error)),
    ...(metadata ? { metadata } : {}),
  };
}

/** What a failure says of a question whose answer failed partway: what arrived is kept. */
export const KEPT_CUT =
  "what arrived is kept in the log, marked as cut, and is sent on like an interrupted answer; `jp q --retry` asks the question again";

/** `kept`: what arrived before the failure is in the log (`recordCutAnswer`). */
export function markFailed(
  options: TurnOptions,
  error: unknown,
  discarded: readonly UsageRecord[],
  kept = false,
): void {
  const billed = discarded.length ? { model: options.modelId, ...discardedMetadata(discarded) } : undefined;
  options.log.append([requestFailed(options.now().toISOString(), options.log.events(), error, billed)]);
  const note =
    options.log.persisted === false
      ? "nothing was recorded (--no-persist): to ask again, run the same command"
      : kept
        ? KEPT_CUT
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
export function recordResponse(
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

/** The answer to a call whose stream failed before it could run. */
export const CUT_BY_FAILURE = "not run: the answer's stream failed before it was complete";

/**
 * What arrived of an answer before its stream failed, kept as an interrupted
 * answer is (with answers for its calls, which will not run) and marked with
 * the failure (`STREAM_FAILED_KEY`). `kept`: whether anything arrived;
 * `unbilled`: the usage no recorded event holds yet.
 */
export function recordCutAnswer(
  collected: Collected,
  error: unknown,
  billed: readonly UsageRecord[],
  options: TurnOptions,
): { kept: boolean; unbilled: UsageRecord[] } {
  if (collected.blocks.length === 0)
    return { kept: false, unbilled: collected.usage ? [...billed, collected.usage] : [...billed] };
  const at = options.now().toISOString();
  const why = error instanceof Error ? error.message : String(error);
  const responses = responseEvents(collected, options, false, billed, why);
  options.log.append([
    ...responses,
    ...unanswered(collected).map((c) => syntheticResponse(c, CUT_BY_FAILURE, at)),
  ]);
  return { kept: true, unbilled: [] };
}

/** The answer to a call the output limit cut off: the model sees it was not run, and why. */
export const CUT_CALL =
  "not run: the answer was cut off at the output limit before this call's arguments were complete";

export function cutCallError(call: ToolCallRequest, options: TurnOptions): JpError {
  return new JpError(
    "turn.cut_tool_call",
    `the answer was cut off at the output limit (${grouped(options.maxTokens)} tokens) while the model was writing the arguments of ${call.name || "a tool call"}; nothing was run`,
    {
      hint: "raise assistant.request.max_tokens (-c or config), or ask for a smaller step; the call is recorded as not run",
    },
  );
}

/** The answer to a call cut off when the model's window filled up. */
export const CUT_BY_WINDOW =
  "not run: the model's context window filled up before this call's arguments were complete";

/** The window filled up while the model answered: what arrived is kept, and compaction makes room. */
export function windowFullError(options: TurnOptions): JpError {
  return new JpError(
    "turn.context_window_exceeded",
    `the conversation filled ${options.modelId}'s context window while it answered; what arrived is kept`,
    {
      hint: "make room, e.g. `jp conversation compact -k s:..-2` (summarise all but the last two turns) or `-k t` (strip tool calls), then `jp q` to go on",
    },
  );
}

/** The events that open a turn: its start and its question, with what was attached and asked for. */
export function questionEvents(
  query: string,
  options: Pick<TurnOptions, "now" | "attachments" | "retryOf">,
  forcedTool?: string,
  tools?: { changes: ToolChanges | undefined; top?: readonly ToolDefinition[] },
): Event[] {
  const start = options.now().toISOString();
  const metadata: JsonObject = {
    ...(options.retryOf !== undefined ? { retry_of: options.retryOf } : {}),
    ...(forcedTool !== undefined ? { [ASKED_FOR_TOOL_KEY]: forcedTool } : {}),
  };
  const recorded = tools ? withToolChanges(metadata, tools.changes, tools.top) : metadata;
  return [
    { type: "turn_start", timestamp: start },
    {
      type: "chat_request",
      timestamp: start,
      content: query,
      ...(options.attachments?.length ? { attachments: [...options.attachments] } : {}),
      ...(Object.keys(recorded).length ? { metadata: recorded } : {}),
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

/**
 * What a question records of its tools where they are said as changes
 * (`saysToolChanges`): the tools on top, if the log has none yet, and what
 * it offers besides them or holds back.
 */
function toolRecord(
  options: TurnOptions,
): { changes: ToolChanges | undefined; top?: readonly ToolDefinition[] } | undefined {
  if (!saysToolChanges(options)) return undefined;
  const recorded = recordedTop(options.log.events());
  const top = recorded ?? topTools(options);
  const changes = turnsToolsOff(options) ? undefined : toolChangesOf(offeredTools(options), top);
  return recorded ? { changes } : { changes, top };
}

export function recordQuestion(query: string, options: TurnOptions): void {
  options.log.append(
    questionEvents(
      query,
      options,
      asksForTool(options) ? options.forcedTool : undefined,
      toolRecord(options),
    ),
  );
  const asked = options.reasoning?.budgetTokens || options.reasoning?.effort;
  const configured = asked && options.reasoning?.effort !== "none";
  if (configured && forcingStopsThinking(options))
    options.output.notice(
      `thinking is off for this turn: a forced tool call (-u ${options.forcedTool}) cannot be combined with it`,
    );
}
