// Owns the projection: what the model sees once the active compactions are
// applied to the raw stream (docs/architecture.md §5). Pure; never throws on valid input.
import type { Compaction, Event, ToolCallRequest, ToolCallResponse, ToolPolicy } from "../events/index.js";
import { isKind, NO_TURN, TurnCounter } from "../events/index.js";
import { CompactionIndexer, newestFirst, type CompactionEntry } from "./activation.js";
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
function toCallCutoff(shape: StreamShape, c: Compaction): number {
  return shape.callPositions.get(`${c.to_turn}:${c.to_call ?? ""}`) ?? -1;
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

/** What projecting needs to know of the whole stream before it goes through it in order. */
export interface StreamShape {
  turnCount: number;
  /**
   * Turns left out whole: those named by a `request_failed` that hold no
   * answer (a late answer makes the turn count again), and those that hold
   * nothing a model can see (a turn started and abandoned before its request):
   * a provider has no message for them, and they must not count as turns of the view.
   */
  failed: Set<number>;
  entries: CompactionEntry[];
  /** The last raw position of each tool call's request or response, by `turn:id`. */
  callPositions: Map<string, number>;
}

/** One pass over the stream (an array, or a log read as it streams) for what projecting it needs. */
export function streamShape(events: Iterable<Event>): StreamShape {
  const counter = new TurnCounter();
  const seen: boolean[] = [];
  const answered: boolean[] = [];
  const named = new Set<number>();
  const callPositions = new Map<string, number>();
  const compactions = new CompactionIndexer();
  let position = -1;
  for (const e of events) {
    position++;
    const t = counter.next(e);
    compactions.add(e, position, counter.count);
    if (isKind(e, "request_failed")) named.add(e.turn);
    if (t === NO_TURN) continue;
    if (PROVIDER_VISIBLE.has(e.type)) seen[t] = true;
    if (ANSWERS.has(e.type)) answered[t] = true;
    if (isKind(e, "tool_call_request") || isKind(e, "tool_call_response"))
      callPositions.set(`${t}:${e.id}`, position);
  }
  const turnCount = counter.count;
  const failed = new Set([...named].filter((t) => !answered[t]));
  for (let t = 0; t < turnCount; t++) if (!seen[t]) failed.add(t);
  return { turnCount, failed, entries: compactions.finish(turnCount).entries, callPositions };
}

/** Turns named by a `request_failed` that hold no answer (a late answer makes the turn count again). */
export function failedTurns(events: readonly Event[], turns: ArrayLike<number>): Set<number> {
  const named = new Set<number>();
  for (const e of events) if (isKind(e, "request_failed")) named.add(e.turn);
  if (named.size === 0) return named;
  for (let i = 0; i < events.length; i++) if (ANSWERS.has(events[i]!.type)) named.delete(turns[i]!);
  return named;
}

export function project(events: readonly Event[]): Projection {
  const out: Event[] = [];
  const origins: TurnOrigin[] = [];
  const { stats, settled } = projectStream(events, streamShape(events), {
    event: (e) => out.push(e),
    origin: (o) => origins.push(o),
  });
  return { events: out, origins, stats, settled };
}

/** The active compactions, newest first; per raw turn those covering it; and the summary that wins each turn. */
function coverage(shape: StreamShape): {
  ordered: CompactionEntry[];
  covering: Covering[][];
  summaryOf: (CompactionEntry | undefined)[];
} {
  const { turnCount } = shape;
  const ordered = newestFirst(shape.entries);
  // Per raw turn, the active compactions covering it, newest first.
  const covering: Covering[][] = Array.from({ length: turnCount }, () => []);
  for (const entry of ordered) {
    const c = entry.event;
    const last = Math.min(c.to_turn, turnCount - 1);
    const cutoff = c.to_call !== undefined && c.to_turn < turnCount ? toCallCutoff(shape, c) : Infinity;
    for (let t = c.from_turn; t <= last; t++) {
      covering[t]!.push({ entry, cutoff: t === c.to_turn ? cutoff : Infinity });
    }
  }
  // Summaries cover whole turns; the newest covering summary wins the turn.
  const summaryOf = covering.map(
    (list) => list.find((cov) => cov.entry.event.summary !== undefined && cov.cutoff === Infinity)?.entry,
  );
  return { ordered, covering, summaryOf };
}

/** How many turns the projection has, and how many compactions are active, before it is made (for a header). */
export function projectionOutline(shape: StreamShape): { turns: number; activeCompactions: number } {
  const { ordered, summaryOf } = coverage(shape);
  let turns = 0;
  let open: CompactionEntry | undefined;
  let inSummary = false;
  for (let t = 0; t < shape.turnCount; t++) {
    if (shape.failed.has(t)) continue;
    const summary = summaryOf[t];
    // As projectStream opens origins: a kept turn, or a summary not extending the one before.
    if (summary === undefined || summary !== open || !inSummary) turns++;
    inSummary = summary !== undefined;
    open = summary;
  }
  return { turns, activeCompactions: ordered.length };
}

/** Where projected events and origins go, as they are made. */
export interface ProjectionSink {
  event(e: Event): void;
  /** A projected turn begins (its events follow); a summary origin's `to` grows until the next one. */
  origin(o: TurnOrigin): void;
}

/**
 * The projection made in one pass in stream order, given the stream's shape
 * (`streamShape` of the same events): what `project` makes, handed to `sink`
 * as it is made, so a log of any size projects in bounded memory.
 */
export function projectStream(
  events: Iterable<Event>,
  shape: StreamShape,
  sink: ProjectionSink,
): { stats: ProjectionStats; settled: number[] } {
  const { failed } = shape;
  const { ordered, covering, summaryOf } = coverage(shape);

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
    rawEvents: 0,
    projectedEvents: 0,
    activeCompactions: ordered.length,
    summarizedTurns: summaryOf.filter((s) => s !== undefined).length,
    reasoningStripped: 0,
    toolCallsStripped: 0,
    toolCallsOmitted: 0,
  };

  let emitted = 0;
  const emit = (...made: Event[]) => {
    for (const e of made) sink.event(e);
    emitted += made.length;
  };
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
      if (position <= cov.cutoff && has(cov.entry.event)) reach.set(cov.entry.event, emitted);
  };
  const summarizes = (c: Compaction) => c.summary !== undefined;
  /** Raw position of each call's request: its response is settled as the request was decided. */
  const callPosition = new Map<string, number>();

  const turnOf = new TurnCounter();
  let i = -1;
  for (const e of events) {
    i++;
    const t = turnOf.next(e);
    if (t === NO_TURN) {
      if (e.type !== "compaction" && e.type !== "compaction_reset" && e.type !== "request_failed") emit(e);
      continue;
    }
    if (failed.has(t)) continue;
    const summary = summaryOf[t];
    if (t !== lastTurn) {
      if (summary === undefined) {
        sink.origin({ kind: "kept", turn: t });
        openSummary = undefined;
      } else if (summary !== lastSummary || !openSummary) {
        openSummary = { kind: "summary", from: t, to: t, compaction: summary.event.id };
        sink.origin(openSummary);
        emit(
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
      emit(e);
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
      emit(policy?.request ? stripRequest(e) : e);
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
      emit(policy?.response ? stripResponse(e, name) : e);
      if (policy?.response) settle(t, decidedAt, decides);
    } else {
      emit(e);
    }
  }
  stats.projectedEvents = emitted;
  stats.rawEvents = i + 1;
  const settled = [...new Set(reach.values())].sort((a, b) => a - b);
  return { stats, settled };
}
