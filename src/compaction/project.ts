// Owns the projection: what the model sees once the active compactions are
// applied to the raw stream (docs/architecture.md §5). Pure; never throws on valid input.
import type { Event } from "../events/index.js";
import {
  NO_TURN,
  TurnCounter,
  isGlobal,
  isJsonObject,
  isKind,
  isSent,
  STREAM_FAILED_KEY,
} from "../events/index.js";
import { CompactionIndexer, type CompactionEntry } from "./activation.js";
import {
  coverage,
  StreamProjector,
  type FailedQuestion,
  type ProjectionSink,
  type ProjectionStats,
  type StreamShape,
  type TurnOrigin,
} from "./projector.js";
import { ReasoningReporter } from "./reasoning-report.js";

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
  /** The projected turns in order, each with where it came from (global entries left out). */
  turns: ProjectedTurn[];
  stats: ProjectionStats;
}

const ANSWERS: ReadonlySet<Event["type"]> = new Set<Event["type"]>([
  "chat_response",
  "tool_call_request",
  "tool_call_response",
  "inquiry_request",
  "inquiry_response",
]);

/**
 * Collects the failed questions of a stream read once, event by event: turns
 * a `request_failed` names that hold no answer, with the newest failure's
 * reason and the turn that asked the question again.
 */
export class FailedQuestions {
  private readonly reasons = new Map<number, string>();
  private readonly answered = new Set<number>();
  /** Turns holding an answer whose stream failed partway (`STREAM_FAILED_KEY`). */
  private readonly cut = new Set<number>();
  private readonly retries = new Map<number, number>();

  /** Note one event, in the raw turn `turn` (NO_TURN for a global entry). */
  add(e: Event, turn: number): void {
    if (isKind(e, "request_failed")) this.reasons.set(e.turn, e.reason);
    if (turn === NO_TURN) return;
    if (ANSWERS.has(e.type)) this.answered.add(turn);
    if (isKind(e, "chat_response") && isJsonObject(e.metadata) && e.metadata[STREAM_FAILED_KEY] !== undefined)
      this.cut.add(turn);
    const retryOf = retryOfRequest(e);
    if (retryOf !== undefined && !this.retries.has(retryOf)) this.retries.set(retryOf, turn);
  }

  finish(): FailedQuestion[] {
    return this.questions((turn) => !this.answered.has(turn));
  }

  /** The failed questions that hold what arrived before their stream failed: sent on, and asked again by --retry. */
  cutAnswers(): FailedQuestion[] {
    return this.questions((turn) => this.answered.has(turn) && this.cut.has(turn));
  }

  private questions(which: (turn: number) => boolean): FailedQuestion[] {
    return [...this.reasons]
      .filter(([turn]) => which(turn))
      .sort(([a], [b]) => a - b)
      .map(([turn, reason]) => {
        const retriedAs = this.retries.get(turn);
        return { turn, reason, ...(retriedAs !== undefined ? { retriedAs } : {}) };
      });
  }
}

/** The failed turn a question asks again (`jp q --retry` records it), if it does. */
export function retryOfRequest(e: Event): number | undefined {
  const retryOf = isKind(e, "chat_request") && isJsonObject(e.metadata) ? e.metadata.retry_of : undefined;
  return typeof retryOf === "number" ? retryOf : undefined;
}

/** One pass over the stream (an array, or a log read as it streams) for what projecting it needs. */
export function streamShape(events: Iterable<Event>): StreamShape {
  const counter = new TurnCounter();
  const seen: boolean[] = [];
  // Maps per turn: a key made of the turn and the id cost a string per call, most of this pass.
  const callPositions: (Map<string, number> | undefined)[] = [];
  const compactions = new CompactionIndexer();
  const pins = new Map<number, boolean>();
  const questions = new FailedQuestions();
  const reasoning = new ReasoningReporter();
  let position = -1;
  for (const e of events) {
    position++;
    const t = counter.next(e);
    compactions.add(e, position, counter.count);
    questions.add(e, t);
    reasoning.add(e, t);
    if (isKind(e, "pin")) pins.set(e.turn, e.pinned);
    if (t === NO_TURN) continue;
    if (isSent(e)) seen[t] = true;
    if (isKind(e, "tool_call_request") || isKind(e, "tool_call_response"))
      (callPositions[t] ??= new Map()).set(e.id, position);
  }
  const turnCount = counter.count;
  const failures = questions.finish();
  const failed = new Set(failures.map((q) => q.turn));
  for (let t = 0; t < turnCount; t++) if (!seen[t]) failed.add(t);
  const pinned = new Set([...pins].flatMap(([turn, on]) => (on ? [turn] : [])));
  return {
    turnCount,
    failed,
    entries: compactions.finish(turnCount).entries,
    callPositions,
    pinned,
    failures,
    cutAnswers: questions.cutAnswers(),
    reasoning: reasoning.finish(),
  };
}

export function project(events: readonly Event[]): Projection {
  const out: Event[] = [];
  const turns: ProjectedTurn[] = [];
  const byTurn = turnSink((turn) => turns.push(turn));
  const { stats, settled } = projectStream(events, streamShape(events), {
    event: (e) => {
      out.push(e);
      byTurn.event(e);
    },
    origin: byTurn.origin,
  });
  byTurn.end();
  return { events: out, turns, stats, settled };
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
  const projector = new StreamProjector(shape, sink);
  let position = 0;
  for (const e of events) projector.take(e, position++);
  return projector.finish(position);
}

/** A projected turn whole: where it came from and its events (global entries left out). */
export interface ProjectedTurn {
  origin: TurnOrigin;
  events: Event[];
}

/**
 * A sink that gathers each projected turn with its origin and hands it to
 * `onTurn` once the next begins (or at `end`): the origin and the events are
 * paired where they are made, not by counting turns afterwards.
 */
export function turnSink(onTurn: (turn: ProjectedTurn) => void): ProjectionSink & { end: () => void } {
  let pending: ProjectedTurn | undefined;
  const end = () => {
    if (pending) onTurn(pending);
    pending = undefined;
  };
  return {
    origin: (origin) => {
      end();
      pending = { origin, events: [] };
    },
    event: (e) => {
      if (pending && !isGlobal(e)) pending.events.push(e);
    },
    end,
  };
}
