// Owns the check that a projected stream is something a provider accepts:
// tool responses follow their requests, finished turns answer every request,
// and no turn is empty.
import type { Event } from "../events/index.js";
import { isKind, isSent, NO_TURN, TurnCounter } from "../events/index.js";

export type ViewProblem =
  | { kind: "orphan_response"; turn: number; id: string }
  | { kind: "missing_response"; turn: number; id: string }
  | { kind: "empty_turn"; turn: number };

export interface CheckOptions {
  /**
   * Whether the last turn must be complete too. Before a provider request it
   * must (every tool call answered); a stored conversation's last turn may
   * still be in progress.
   */
  lastTurnFinished?: boolean;
}

/** Event kinds that become part of a provider request. */
/** Problems found, in stream order; an empty list means the view is valid. Turns are 0-based projected turns. */
export function checkProviderView(events: readonly Event[], options: CheckOptions = {}): ViewProblem[] {
  const problems: ViewProblem[] = [];
  const counter = new TurnCounter();
  const open = new Map<string, number>();
  const visible: boolean[] = [];
  for (const e of events) {
    const t = counter.next(e);
    if (t === NO_TURN) continue;
    visible[t] ||= isSent(e);
    if (isKind(e, "tool_call_request")) open.set(e.id, t);
    else if (isKind(e, "tool_call_response")) {
      if (open.has(e.id)) open.delete(e.id);
      else problems.push({ kind: "orphan_response", turn: t, id: e.id });
    }
  }
  const lastTurn = counter.count - 1;
  for (const [id, t] of open) {
    if (t < lastTurn || options.lastTurnFinished) problems.push({ kind: "missing_response", turn: t, id });
  }
  for (let t = 0; t <= lastTurn; t++) if (!visible[t]) problems.push({ kind: "empty_turn", turn: t });
  return problems;
}

export function describeViewProblem(p: ViewProblem): string {
  switch (p.kind) {
    case "orphan_response":
      return `turn ${p.turn + 1}: tool response ${p.id} has no request before it`;
    case "missing_response":
      return `turn ${p.turn + 1}: tool call ${p.id} has no response`;
    case "empty_turn":
      return `turn ${p.turn + 1} has nothing a model can see`;
  }
}
