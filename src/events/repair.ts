// Owns what an interruption can leave behind and the events that repair it by
// appending: a tool call whose process was killed before its result was
// recorded gets an error result, and a question that never got an answer is
// marked failed (left out of what the model sees, so it is never sent twice).
// Nothing is rewritten; a repair is a visible event like any other.
import { isKind, type Event } from "./kinds.js";
import { NO_TURN, TurnCounter } from "./turns.js";

export const INTERRUPTED_TOOL_CALL = "Tool call interrupted: no result was recorded.";
export const UNANSWERED_REQUEST = "interrupted before any response arrived";

/**
 * Error results for the tool calls of the last turn that have none, timestamped
 * `at`. Only the last turn: appended after it, the results still follow their
 * calls, which is all an interruption can leave. An unanswered call in an
 * earlier turn cannot be answered by appending (the provider needs the result
 * right after the call); doctor reports it.
 */
export function repairInterruptedTurn(events: readonly Event[], at: string): Event[] {
  // Only the last turn's events matter, and what answers them (results, a failure mark) can only
  // come after its start: look at the tail from there, not at the whole log.
  const counter = new TurnCounter();
  let start = events.length;
  let current = NO_TURN;
  for (let i = 0; i < events.length; i++) {
    const t = counter.next(events[i]!);
    if (t !== NO_TURN && t !== current) {
      current = t;
      start = i;
    }
  }
  const last = counter.count - 1;
  const tail = events.slice(start);
  // No turn follows the last, so every turn event of the tail is the last turn's.
  const tailCounter = new TurnCounter();
  const inLast = tail.map((e) => tailCounter.next(e) !== NO_TURN);
  const answered = new Set<string>();
  for (const e of tail) if (isKind(e, "tool_call_response")) answered.add(e.id);
  const repairs: Event[] = [];
  for (const [i, e] of tail.entries()) {
    if (!inLast[i] || !isKind(e, "tool_call_request") || answered.has(e.id)) continue;
    answered.add(e.id);
    repairs.push({
      type: "tool_call_response",
      timestamp: at,
      id: e.id,
      content: INTERRUPTED_TOOL_CALL,
      is_error: true,
      metadata: { repair: "interrupted" },
    });
  }
  // A question with no answer at all: the process died waiting for the first response.
  const lastEvents = tail.filter((_, i) => inLast[i]);
  const asked = lastEvents.some((e) => e.type === "chat_request");
  const replied = lastEvents.some((e) => e.type !== "turn_start" && e.type !== "chat_request");
  const marked = tail.some((e) => isKind(e, "request_failed") && e.turn === last);
  if (asked && !replied && !marked)
    repairs.push({ type: "request_failed", timestamp: at, turn: last, reason: UNANSWERED_REQUEST });
  return repairs;
}

/** The result a call gets in the provider view when its own result's line was lost. */
export const LOST_TOOL_RESULT = "Tool result lost: its line in the log could not be read.";

/**
 * The provider view of a log that lost lines (a damaged line quarantined by
 * doctor): a tool result whose call is gone is left out, and a call of a
 * finished turn whose result is gone is answered right after it with an
 * error, as for an interruption. Nothing is written: the log stays as it is,
 * and a view that lost nothing is returned as it came.
 */
export function healProviderView(
  events: readonly Event[],
  options: { lastTurnFinished: boolean },
): readonly Event[] {
  const requested = new Set<string>();
  const answered = new Set<string>();
  for (const e of events) {
    if (isKind(e, "tool_call_request")) requested.add(e.id);
    else if (isKind(e, "tool_call_response") && requested.has(e.id)) answered.add(e.id);
  }
  const counter = new TurnCounter();
  const turns = events.map((e) => counter.next(e));
  const lastTurn = counter.count - 1;
  const out: Event[] = [];
  const before = new Set<string>();
  let changed = false;
  for (const [i, e] of events.entries()) {
    if (isKind(e, "tool_call_response") && !before.has(e.id)) {
      changed = true;
      continue;
    }
    out.push(e);
    if (!isKind(e, "tool_call_request")) continue;
    before.add(e.id);
    if (answered.has(e.id) || (turns[i] === lastTurn && !options.lastTurnFinished)) continue;
    changed = true;
    out.push({
      type: "tool_call_response",
      timestamp: e.timestamp,
      id: e.id,
      content: LOST_TOOL_RESULT,
      is_error: true,
    });
  }
  return changed ? out : events;
}
