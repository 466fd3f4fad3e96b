// Owns the projection: what the model sees once the active compactions are
// applied to the raw stream (docs/architecture.md §5). Pure; never throws on valid input.
import type { Compaction, Event, ToolCallRequest, ToolCallResponse, ToolPolicy } from "../events/index.js";
import { isKind, NO_TURN, TurnCounter } from "../events/index.js";
import { indexCompactions, newestFirst, type CompactionEntry } from "./activation.js";
import { PROVIDER_VISIBLE } from "./validate.js";

export const SUMMARY_REQUEST = "[Summary of previous conversation]";

/** Where a projected turn came from, in 0-based raw turns. */
export type TurnOrigin =
  { kind: "kept"; turn: number } | { kind: "summary"; from: number; to: number; compaction: string };

export interface ProjectionStats {
  rawEvents: number;
  projectedEvents: number;
  activeCompactions: number;
  summarizedTurns: number;
  reasoningStripped: number;
  toolCallsStripped: number;
  toolCallsOmitted: number;
}

export interface Projection {
  events: Event[];
  /**
   * Where each active compaction's reach ends in `events`, ascending and
   * distinct: the count of leading events up to the last one it replaced or
   * altered (or up to the one before the last it removed). A later compaction
   * that reaches further leaves such a prefix as it is, so these are the
   * stable points for a provider's prompt cache.
   */
  settled: number[];
  /** One entry per projected turn, in order. */
  origins: TurnOrigin[];
  stats: ProjectionStats;
}

interface Covering {
  entry: CompactionEntry;
  /** In the compaction's last turn with `to_call`: raw positions after this are not covered. */
  cutoff: number;
}

/** Raw position of the response to `to_call` (or its request) inside `to_turn`; -1 when absent. */
function toCallCutoff(events: readonly Event[], turns: Int32Array, c: Compaction): number {
  let cutoff = -1;
  for (let i = 0; i < events.length; i++) {
    if (turns[i] !== c.to_turn) continue;
    const e = events[i]!;
    if ((e.type === "tool_call_request" || e.type === "tool_call_response") && e.id === c.to_call) cutoff = i;
  }
  return cutoff;
}

function stripRequest(e: ToolCallRequest): ToolCallRequest {
  return { ...e, arguments: {} };
}

function stripResponse(e: ToolCallResponse, name: string): ToolCallResponse {
  return { ...e, content: `[compacted] ${name}: ${e.is_error ? "error" : "success"}` };
}

const ANSWERS: ReadonlySet<Event["type"]> = new Set<Event["type"]>([
  "chat_response",
  "tool_call_request",
  "tool_call_response",
  "inquiry_request",
  "inquiry_response",
]);

/** Turns named by a `request_failed` that hold no answer (a late answer makes the turn count again). */
export function failedTurns(events: readonly Event[], turns: ArrayLike<number>): Set<number> {
  const named = new Set<number>();
  for (const e of events) if (isKind(e, "request_failed")) named.add(e.turn);
  if (named.size === 0) return named;
  for (let i = 0; i < events.length; i++) if (ANSWERS.has(events[i]!.type)) named.delete(turns[i]!);
  return named;
}

export function project(events: readonly Event[]): Projection {
  const counter = new TurnCounter();
  const turns = new Int32Array(events.length);
  for (let i = 0; i < events.length; i++) turns[i] = counter.next(events[i]!);
  const turnCount = counter.count;

  // Turns whose request failed before anything answered it are left out whole, and so are
  // turns that hold nothing a model can see (a turn started and abandoned before its request):
  // a provider has no message for them, and they must not count as turns of the view.
  const failed = failedTurns(events, turns);
  const seen = new Uint8Array(turnCount);
  for (let i = 0; i < events.length; i++)
    if (turns[i] !== NO_TURN && PROVIDER_VISIBLE.has(events[i]!.type)) seen[turns[i]!] = 1;
  for (let t = 0; t < turnCount; t++) if (!seen[t]) failed.add(t);

  const { entries } = indexCompactions(events);
  const ordered = newestFirst(entries);

  // Per raw turn, the active compactions covering it, newest first.
  const covering: Covering[][] = Array.from({ length: turnCount }, () => []);
  for (const entry of ordered) {
    const c = entry.event;
    const last = Math.min(c.to_turn, turnCount - 1);
    const cutoff =
      c.to_call !== undefined && c.to_turn < turnCount ? toCallCutoff(events, turns, c) : Infinity;
    for (let t = c.from_turn; t <= last; t++) {
      covering[t]!.push({ entry, cutoff: t === c.to_turn ? cutoff : Infinity });
    }
  }

  // Summaries cover whole turns; the newest covering summary wins the turn.
  const summaryOf: (CompactionEntry | undefined)[] = covering.map(
    (list) => list.find((cov) => cov.entry.event.summary !== undefined && cov.cutoff === Infinity)?.entry,
  );

  const winner = (t: number, position: number, has: (c: Compaction) => boolean): Compaction | undefined => {
    const list = covering[t];
    if (!list) return undefined;
    for (const cov of list) {
      if (position > cov.cutoff) continue;
      if (has(cov.entry.event)) return cov.entry.event;
    }
    return undefined;
  };

  const toolPolicyOf = (c: Compaction, name: string): ToolPolicy | undefined =>
    c.tool_overrides?.[name] ?? c.tool_calls;

  const stats: ProjectionStats = {
    rawEvents: events.length,
    projectedEvents: 0,
    activeCompactions: ordered.length,
    summarizedTurns: summaryOf.filter((s) => s !== undefined).length,
    reasoningStripped: 0,
    toolCallsStripped: 0,
    toolCallsOmitted: 0,
  };

  const out: Event[] = [];
  const origins: TurnOrigin[] = [];
  // Tool call decisions are made at the request and followed by its response, so pairs stay whole.
  const callNames = new Map<string, string>();
  const callPolicy = new Map<string, ToolPolicy | "dropped" | undefined>();
  let lastTurn = NO_TURN;
  let lastSummary: CompactionEntry | undefined;
  /** The summary origin the next turn may extend: the last origin, when it is a summary. */
  let openSummary: Extract<TurnOrigin, { kind: "summary" }> | undefined;
  // Each compaction's reach in its own right, as if no newer one covered the same events:
  // an auto compaction that reaches further keeps the prefix that the previous one settled.
  const reach = new Map<Compaction, number>();
  const settle = (t: number, position: number, has: (c: Compaction) => boolean) => {
    for (const cov of covering[t] ?? [])
      if (position <= cov.cutoff && has(cov.entry.event)) reach.set(cov.entry.event, out.length);
  };
  const summarizes = (c: Compaction) => c.summary !== undefined;
  /** Raw position of each call's request: its response is settled as the request was decided. */
  const callPosition = new Map<string, number>();

  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    const t = turns[i]!;
    if (t === NO_TURN) {
      if (e.type !== "compaction" && e.type !== "compaction_reset" && e.type !== "request_failed")
        out.push(e);
      continue;
    }
    if (failed.has(t)) continue;
    const summary = summaryOf[t];
    if (t !== lastTurn) {
      if (summary === undefined) {
        origins.push({ kind: "kept", turn: t });
        openSummary = undefined;
      } else if (summary !== lastSummary || !openSummary) {
        openSummary = { kind: "summary", from: t, to: t, compaction: summary.event.id };
        origins.push(openSummary);
        out.push(
          { type: "turn_start", timestamp: e.timestamp ?? "" },
          { type: "chat_request", timestamp: e.timestamp ?? "", content: SUMMARY_REQUEST },
          { type: "chat_response", timestamp: e.timestamp ?? "", message: summary.event.summary!.text },
        );
        settle(t, i, summarizes);
      } else {
        openSummary.to = t;
      }
      lastTurn = t;
      lastSummary = summary;
    }
    if (summary !== undefined) {
      if (isKind(e, "tool_call_request")) callPolicy.set(e.id, "dropped");
      settle(t, i, summarizes);
      continue;
    }

    if (isKind(e, "chat_response")) {
      const strips = (c: Compaction) => c.reasoning === "strip";
      if (e.reasoning !== undefined && winner(t, i, strips)) {
        stats.reasoningStripped += 1;
        settle(t, i, strips);
        continue;
      }
      out.push(e);
    } else if (isKind(e, "tool_call_request")) {
      callNames.set(e.id, e.name);
      callPosition.set(e.id, i);
      const decides = (c: Compaction) => toolPolicyOf(c, e.name) !== undefined;
      const c = winner(t, i, decides);
      const policy = c ? toolPolicyOf(c, e.name) : undefined;
      callPolicy.set(e.id, policy);
      if (policy?.policy === "omit") {
        stats.toolCallsOmitted += 1;
        settle(t, i, decides);
        continue;
      }
      if (policy && (policy.request || policy.response)) stats.toolCallsStripped += 1;
      out.push(policy?.request ? stripRequest(e) : e);
      if (policy?.request) settle(t, i, decides);
    } else if (isKind(e, "tool_call_response")) {
      const name = callNames.get(e.id) ?? "unknown";
      const decides = (c: Compaction) => toolPolicyOf(c, name) !== undefined;
      const decidedAt = callPosition.get(e.id) ?? i;
      let policy: ToolPolicy | "dropped" | undefined;
      if (callPolicy.has(e.id)) {
        policy = callPolicy.get(e.id);
      } else {
        const c = winner(t, i, decides);
        policy = c ? toolPolicyOf(c, name) : undefined;
      }
      if (policy === "dropped") {
        settle(t, i, summarizes);
        continue;
      }
      if (policy?.policy === "omit") {
        settle(t, decidedAt, decides);
        continue;
      }
      out.push(policy?.response ? stripResponse(e, name) : e);
      if (policy?.response) settle(t, decidedAt, decides);
    } else {
      out.push(e);
    }
  }
  stats.projectedEvents = out.length;
  const settled = [...new Set(reach.values())].sort((a, b) => a - b);
  return { events: out, origins, stats, settled };
}
