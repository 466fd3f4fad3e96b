// Owns one turn of `jp q`: the request, then cycles of project → request →
// stream → append responses → approve and run tools → append results, until
// the model stops calling tools. Each step is a named function below.
import { JpError } from "../errors.js";
import { type Event, type ToolCallRequest, type UsageRecord } from "../events/index.js";
import { AbortedError } from "../llm/errors.js";
import { streamWithRetries } from "../llm/retry.js";
import type { ModelRequest } from "../llm/types.js";
import { collect, type Collected, emptyCollected, responseEvents } from "../llm/assemble.js";
import { answerText, CONTINUE_PROMPT, mergedContinuation, mergingOutput } from "./continuation.js";
import { markFailed, recordCutAnswer, recordQuestion, recordResponse } from "./record.js";
import {
  boundElsewhere,
  thinkingRefused,
  buildRequest,
  missedTool,
  overWindow,
  recordBinding,
  tellLeftOut,
} from "./request.js";
import {
  approveCalls,
  type Approved,
  type Remembered,
  runApproved,
  syntheticResponse,
  withApprovedArguments,
} from "./tool-calls.js";
import type { TurnOptions, TurnResult } from "./types.js";

/** What streaming one response came to; `discarded` holds the usage of attempts a retry threw away (they were billed). */
type Streamed =
  | { ok: true; collected: Collected; interrupted: boolean; discarded: UsageRecord[] }
  /** `collected`: what arrived before the stream failed. */
  | { ok: false; error: unknown; discarded: UsageRecord[]; collected: Collected };

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
    return { ok: false, error, discarded, collected };
  } finally {
    options.output.responseDone();
  }
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
  if (oversize instanceof JpError)
    return { streamed: { ok: false, error: oversize, discarded: [], collected: emptyCollected() }, warned };
  return { streamed: await streamResponse(request, options), warned: warned || oversize === "warned" };
}

/**
 * One request built and sent; when the provider refuses earlier reasoning jp
 * took for valid, built and sent once more with none (the refused answer's
 * usage comes back to be recorded with the next).
 */
async function ask(
  asked: () => readonly Event[],
  options: TurnOptions,
  /** The options the answer streams with (a continued answer's output merges it with what came before). */
  streaming: TurnOptions,
  state: { forcing: boolean; insisting: boolean; warned: boolean },
  first: boolean,
) {
  let built = buildRequest(asked(), options, state.forcing, state.insisting);
  tellLeftOut(built.leftOut, options);
  let sent = await sendRequest(built.request, streaming, first, state.warned);
  let refusedUsage: UsageRecord[] = [];
  if (!sent.streamed.ok && boundElsewhere(sent.streamed.error) && built.header) {
    options.output.notice(
      `${options.modelId} refused earlier reasoning as bound to a different conversation; asking again without it`,
    );
    refusedUsage = sent.streamed.discarded;
    built = buildRequest(asked(), options, state.forcing, state.insisting, true);
    sent = await sendRequest(built.request, streaming, false, state.warned);
  }
  if (!sent.streamed.ok && thinkingRefused(sent.streamed.error, built.request, options)) {
    const reason = sent.streamed.error instanceof Error ? sent.streamed.error.message : "";
    const where = options.rememberRefusedThinking?.(reason);
    options.output.notice(
      `${options.modelId} refused the thinking sent as configured (${reason}); asking again without it${where ? `, and from now on (remembered in ${where})` : ""}`,
    );
    refusedUsage = [...refusedUsage, ...sent.streamed.discarded];
    // The rest of the turn asks without it too: the same model would refuse it again.
    options.reasoning = undefined;
    streaming.reasoning = undefined;
    built = buildRequest(asked(), options, state.forcing, state.insisting);
    sent = await sendRequest(built.request, streaming, false, state.warned);
  }
  return { built, sent, refusedUsage };
}

/** What is said of an answer the output cap cut off, once it is not continued (again). */
function cutOffNotice(continuations: number): string {
  return continuations
    ? `the answer was still cut off at the token limit after ${continuations} continuations (assistant.request.max_continuations)`
    : "the response was cut off at the token limit (assistant.request.max_tokens)";
}

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
    requests += 1;
    const streaming =
      continuing === undefined ? options : { ...options, output: mergingOutput(options.output, continuing) };
    const { built, sent, refusedUsage } = await ask(
      asked,
      options,
      streaming,
      { forcing, insisting, warned },
      requests === 1,
    );
    warned = sent.warned;
    const streamed = sent.streamed;
    if (!streamed.ok) {
      const billed = [...unrecorded, ...refusedUsage, ...streamed.discarded];
      const { kept, unbilled } = recordCutAnswer(streamed.collected, streamed.error, billed, options);
      if (!answered) markFailed(options, streamed.error, unbilled, kept);
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
      options.output.notice(cutOffNotice(continuations));
    }
    continuing = undefined;
    if (collected.calls.length === 0) return { interrupted: false, requests, lastStop: collected.stop };
    if ((await answerCalls(collected.calls, responses, options, remembered)).interrupted)
      return { interrupted: true, requests };
  }
}
