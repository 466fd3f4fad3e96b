// Owns what an interruption can leave behind and the events that repair it by
// appending: a tool call whose process was killed before its result was
// recorded gets an error result, and a question that never got an answer is
// marked failed (left out of what the model sees, so it is never sent twice).
// Nothing is rewritten; a repair is a visible event like any other.
import { isKind, NO_TURN, TurnCounter, type Event } from "../events/index.js";

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
  const counter = new TurnCounter();
  const turns = events.map((e) => counter.next(e));
  const last = counter.count - 1;
  const answered = new Set<string>();
  for (const e of events) if (isKind(e, "tool_call_response")) answered.add(e.id);
  const repairs: Event[] = [];
  for (const [i, e] of events.entries()) {
    if (turns[i] !== last || turns[i] === NO_TURN) continue;
    if (!isKind(e, "tool_call_request") || answered.has(e.id)) continue;
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
  const lastEvents = events.filter((_, i) => turns[i] === last);
  const asked = lastEvents.some((e) => e.type === "chat_request");
  const replied = lastEvents.some((e) => e.type !== "turn_start" && e.type !== "chat_request");
  const marked = events.some((e) => isKind(e, "request_failed") && e.turn === last);
  if (asked && !replied && !marked)
    repairs.push({ type: "request_failed", timestamp: at, turn: last, reason: UNANSWERED_REQUEST });
  return repairs;
}
