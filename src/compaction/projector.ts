// Owns projecting the raw stream event by event (docs/architecture.md §5):
// which compaction covers each event, what a summary puts in its range's
// place, what a stripped reasoning block or tool call becomes. Pure.
import type {
  ChatResponse,
  Compaction,
  Event,
  Summary,
  ToolCallRequest,
  ToolCallResponse,
  ToolPolicy,
} from "../events/index.js";
import { isKind, NO_TURN, PROVIDER_SUMMARY_KEY, TurnCounter } from "../events/index.js";
import { newestFirst, type CompactionEntry } from "./activation.js";
import { type ReasoningReport } from "./reasoning-report.js";
import { recordEvent, recordsWork, renderRecord } from "./record.js";
import { WorkReader } from "./record-facts.js";

export const SUMMARY_REQUEST = "[Summary of previous conversation]";

/** The answer where a summary's range resumes after a pinned turn or a newer summary: its text is read once. */
export const SUMMARY_SHOWN_ABOVE = "[These turns are covered by the same summary, given above.]";

/**
 * The request a summary stands in for, naming the raw turns its compaction
 * covers (1-based) and how `recall` reads them. It depends on the compaction
 * alone, so it is the same in every request and the prompt cache holds.
 */
export function summaryRequest(c: Compaction, turnCount: number): string {
  const from = c.from_turn + 1;
  const to = Math.min(c.to_turn, turnCount - 1) + 1;
  const turns = from === to ? `${from}` : `${from}-${to}`;
  const named =
    from === to
      ? `turn ${turns}; recall ${JSON.stringify({ turns })} reads it`
      : `turns ${turns}; recall ${JSON.stringify({ turns })} reads them`;
  return `${SUMMARY_REQUEST.slice(0, -1)}: ${named}]`;
}

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

interface Covering {
  entry: CompactionEntry;
  /** In the compaction's last turn with `to_call`: raw positions after this are not covered. */
  cutoff: number;
}

/** Raw position of the response to `to_call` (or its request) inside `to_turn`; -1 when absent. */
function toCallCutoff(shape: StreamShape, c: Compaction): number {
  return shape.callPositions[c.to_turn]?.get(c.to_call ?? "") ?? -1;
}

function stripRequest(e: ToolCallRequest): ToolCallRequest {
  return { ...e, arguments: {} };
}

/** A stripped response: what remains says how it ended and how `recall` reads it whole. */
function stripResponse(e: ToolCallResponse, name: string): ToolCallResponse {
  const recall = JSON.stringify({ call: e.id });
  return {
    ...e,
    content: `[compacted] ${name}: ${e.is_error ? "error" : "success"}; recall ${recall} reads it`,
  };
}

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
  /** Per turn, the last raw position of each tool call's request or response, by its id. */
  callPositions: (Map<string, number> | undefined)[];
  /** Turns no compaction changes: the newest pin event of each says so. */
  pinned: Set<number>;
  /** The failed questions among `failed`, in turn order, each with why and what came of it. */
  failures: FailedQuestion[];
  /** The failed questions whose answer's stream failed partway: what arrived is kept and sent on. */
  cutAnswers: FailedQuestion[];
  /** The reasoning the newest request left out, and what providers dropped. */
  reasoning: ReasoningReport;
}

/**
 * A summary turn's answer: its text, and for a summary the provider wrote, its
 * block and writer (that provider sends the block back in place of the text).
 */
function summaryResponse(summary: Summary, timestamp: string): ChatResponse {
  const provider = summary.provider;
  if (!provider) return { type: "chat_response", timestamp, message: summary.text };
  return {
    type: "chat_response",
    timestamp,
    message: summary.text,
    metadata: {
      [PROVIDER_SUMMARY_KEY]: {
        block: provider.block,
        continues: provider.continues,
        ...(provider.betas ? { betas: [...provider.betas] } : {}),
      },
      ...(summary.model ? { model: summary.model } : {}),
    },
  };
}

/** A compaction entry that carries a summary: the one that wins the turns it covers. */
type SummaryEntry = CompactionEntry & { event: Compaction & { summary: Summary } };

const hasSummary = (entry: CompactionEntry): entry is SummaryEntry => entry.event.summary !== undefined;

/** The active compactions, newest first; per raw turn those covering it; and the summary that wins each turn. */
export function coverage(shape: StreamShape): {
  ordered: CompactionEntry[];
  covering: Covering[][];
  summaryOf: (SummaryEntry | undefined)[];
} {
  const { turnCount } = shape;
  const ordered = newestFirst(shape.entries);
  // Per raw turn, the active compactions covering it, newest first.
  const covering: Covering[][] = Array.from({ length: turnCount }, () => []);
  for (const entry of ordered) {
    const c = entry.event;
    const last = Math.min(c.to_turn, turnCount - 1);
    const cutoff = c.to_call !== undefined && c.to_turn < turnCount ? toCallCutoff(shape, c) : Infinity;
    covering.slice(c.from_turn, last + 1).forEach((list, k) => {
      // A pinned turn is left as it is: the compaction applies around it.
      if (shape.pinned.has(c.from_turn + k)) return;
      list.push({ entry, cutoff: c.from_turn + k === c.to_turn ? cutoff : Infinity });
    });
  }
  // Summaries cover whole turns; the newest covering summary wins the turn.
  const summaryOf = covering.map((list) => {
    for (const cov of list) if (cov.cutoff === Infinity && hasSummary(cov.entry)) return cov.entry;
    return undefined;
  });
  return { ordered, covering, summaryOf };
}

/** Where projected events and origins go, as they are made. */
export interface ProjectionSink {
  event: (e: Event) => void;
  /** A projected turn begins (its events follow); a summary origin's `to` grows until the next one. */
  origin: (o: TurnOrigin) => void;
}

/** What became of a tool call at its request: the policy that decided it, or dropped under a summary. */
type CallFate = ToolPolicy | "dropped" | undefined;

const summarizes = (c: Compaction) => c.summary !== undefined;
export const strips = (c: Compaction) => c.reasoning === "strip";
const toolPolicyOf = (c: Compaction, name: string): ToolPolicy | undefined =>
  c.tool_overrides?.[name] ?? c.tool_calls;

/** projectStream's state between events; each `take` decides one raw event. */
export class StreamProjector {
  private readonly covering: Covering[][];
  private readonly summaryOf: (SummaryEntry | undefined)[];
  private readonly stats: ProjectionStats;
  private emitted = 0;
  // Tool call decisions are made at the request and followed by its response, so pairs stay whole.
  private readonly callNames = new Map<string, string>();
  private readonly callFate = new Map<string, CallFate>();
  /** Raw position of each call's request: its response is settled as the request was decided. */
  private readonly callPosition = new Map<string, number>();
  private lastTurn = NO_TURN;
  private lastSummary: SummaryEntry | undefined;
  /** The summaries whose text the model has read: where their range resumes, they are pointed to. */
  private readonly shownSummaries = new Set<SummaryEntry>();
  /** The summary origin the next turn may extend: the last origin, when it is a summary. */
  private openSummary: Extract<TurnOrigin, { kind: "summary" }> | undefined;
  /**
   * Each compaction's reach in its own right, as if no newer one covered the
   * same events: an auto compaction that reaches further keeps the prefix
   * that the previous one settled.
   */
  private readonly reach = new Map<Compaction, number>();
  private readonly turnOf = new TurnCounter();
  /**
   * The work of the turns each summary wins, read as they pass: its record
   * goes where the compaction is. Keyed by the compaction's id: the shape's
   * events and the stream's are different objects when a log is read twice.
   */
  private readonly records = new Map<string, WorkReader>();
  /** Records waiting for the next turn to begin: they go before its question. */
  private pendingRecords: Event[] = [];

  constructor(
    private readonly shape: StreamShape,
    private readonly sink: ProjectionSink,
  ) {
    const { ordered, covering, summaryOf } = coverage(shape);
    this.covering = covering;
    this.summaryOf = summaryOf;
    this.stats = {
      rawEvents: 0,
      projectedEvents: 0,
      activeCompactions: ordered.length,
      summarizedTurns: summaryOf.filter((s) => s !== undefined).length,
      reasoningStripped: 0,
      toolCallsStripped: 0,
      toolCallsOmitted: 0,
    };
  }

  take(e: Event, i: number): void {
    const t = this.turnOf.next(e);
    if (t === NO_TURN) {
      if (isKind(e, "compaction")) this.record(e);
      else if (e.type !== "compaction_reset" && e.type !== "request_failed") this.emit(e);
      return;
    }
    if (this.shape.failed.has(t)) return;
    const summary = this.summaryOf[t];
    if (t !== this.lastTurn) this.beginTurn(t, i, e, summary);
    this.dispatch(e, t, i, summary);
    // A turn has begun in the view: the records waiting for it go before its question.
    if (e.type === "turn_start") this.flushRecords();
  }

  private dispatch(e: Event, t: number, i: number, summary: SummaryEntry | undefined): void {
    if (summary !== undefined) {
      if (recordsWork(summary.event)) this.readerFor(summary.event.id).add(e, t);
      if (isKind(e, "tool_call_request")) this.callFate.set(e.id, "dropped");
      this.settle(t, i, summarizes);
    } else if (isKind(e, "chat_response")) this.response(e, t, i);
    else if (isKind(e, "tool_call_request")) this.callRequest(e, t, i);
    else if (isKind(e, "tool_call_response")) this.callResponse(e, t, i);
    else this.emit(e);
  }

  private readerFor(id: string): WorkReader {
    let reader = this.records.get(id);
    if (!reader) {
      reader = new WorkReader();
      this.records.set(id, reader);
    }
    return reader;
  }

  finish(rawEvents: number): { stats: ProjectionStats; settled: number[] } {
    this.flushRecords();
    this.stats.projectedEvents = this.emitted;
    this.stats.rawEvents = rawEvents;
    const settled = [...new Set(this.reach.values())].sort((a, b) => a - b);
    return { stats: this.stats, settled };
  }

  /**
   * At a compaction's place in the stream: the record of the work of the
   * turns its summary won, if it won any (a newer summary may have taken them
   * all). An automatic compaction is made inside the turn that needs it, so
   * its record goes right there; any other is made between turns (or applies
   * from the next one), so its record goes first in the next turn, before its
   * question. Either way every request since was asked with it in view, and
   * every one before is as it was.
   */
  private record(c: Compaction): void {
    const reader = this.records.get(c.id);
    if (!reader) return;
    this.records.delete(c.id);
    const text = renderRecord(reader);
    if (text === undefined) return;
    if (c.source === "auto") this.emit(recordEvent(c, text));
    else this.pendingRecords.push(recordEvent(c, text));
  }

  /** The records waiting for a turn, emitted now (after a turn's start, or at the end of the stream). */
  private flushRecords(): void {
    for (const e of this.pendingRecords) this.emit(e);
    this.pendingRecords = [];
  }

  private emit(e: Event): void {
    this.sink.event(e);
    this.emitted += 1;
  }

  /** The newest compaction covering position `position` of turn `t` that `has` what is asked. */
  private winner(t: number, position: number, has: (c: Compaction) => boolean): Compaction | undefined {
    for (const cov of this.covering[t] ?? [])
      if (position <= cov.cutoff && has(cov.entry.event)) return cov.entry.event;
    return undefined;
  }

  private settle(t: number, position: number, has: (c: Compaction) => boolean): void {
    for (const cov of this.covering[t] ?? [])
      if (position <= cov.cutoff && has(cov.entry.event)) this.reach.set(cov.entry.event, this.emitted);
  }

  /**
   * A raw turn begins: a kept turn opens an origin; a summary opens one (with
   * its text) unless it extends the last. A pinned turn (or a newer summary)
   * inside a summary's range splits it: after it, the rest of the range is a
   * turn that points back to the summary, which the model reads once.
   */
  private beginTurn(t: number, i: number, e: Event, summary: SummaryEntry | undefined): void {
    if (summary === undefined) {
      this.sink.origin({ kind: "kept", turn: t });
      this.openSummary = undefined;
    } else if (summary !== this.lastSummary || !this.openSummary) {
      this.openSummary = { kind: "summary", from: t, to: t, compaction: summary.event.id };
      this.sink.origin(this.openSummary);
      const timestamp = e.timestamp ?? "";
      const request = summaryRequest(summary.event, this.shape.turnCount);
      this.emit({ type: "turn_start", timestamp });
      this.emit({ type: "chat_request", timestamp, content: request });
      this.emit(
        this.shownSummaries.has(summary)
          ? { type: "chat_response", timestamp, message: SUMMARY_SHOWN_ABOVE }
          : summaryResponse(summary.event.summary, timestamp),
      );
      this.shownSummaries.add(summary);
      this.settle(t, i, summarizes);
    } else {
      this.openSummary.to = t;
    }
    this.lastTurn = t;
    this.lastSummary = summary;
  }

  private response(e: ChatResponse, t: number, i: number): void {
    if (e.reasoning !== undefined && this.winner(t, i, strips)) {
      this.stats.reasoningStripped += 1;
      this.settle(t, i, strips);
      return;
    }
    this.emit(e);
  }

  private callRequest(e: ToolCallRequest, t: number, i: number): void {
    this.callNames.set(e.id, e.name);
    this.callPosition.set(e.id, i);
    const decides = (c: Compaction) => toolPolicyOf(c, e.name) !== undefined;
    const c = this.winner(t, i, decides);
    const policy = c ? toolPolicyOf(c, e.name) : undefined;
    this.callFate.set(e.id, policy);
    if (policy?.policy === "omit") {
      this.stats.toolCallsOmitted += 1;
      this.settle(t, i, decides);
      return;
    }
    if (policy && (policy.request || policy.response)) this.stats.toolCallsStripped += 1;
    this.emit(policy?.request ? stripRequest(e) : e);
    if (policy?.request) this.settle(t, i, decides);
  }

  private callResponse(e: ToolCallResponse, t: number, i: number): void {
    const name = this.callNames.get(e.id) ?? "unknown";
    const decides = (c: Compaction) => toolPolicyOf(c, name) !== undefined;
    const decidedAt = this.callPosition.get(e.id) ?? i;
    const fate = this.callFate.has(e.id) ? this.callFate.get(e.id) : this.decidedBy(t, i, decides, name);
    if (fate === "dropped") {
      this.settle(t, i, summarizes);
      return;
    }
    if (fate?.policy === "omit") {
      this.settle(t, decidedAt, decides);
      return;
    }
    this.emit(fate?.response ? stripResponse(e, name) : e);
    if (fate?.response) this.settle(t, decidedAt, decides);
  }

  /** The policy for a response whose request this pass did not see. */
  private decidedBy(t: number, i: number, decides: (c: Compaction) => boolean, name: string): CallFate {
    const c = this.winner(t, i, decides);
    return c ? toolPolicyOf(c, name) : undefined;
  }
}

/** A question whose request failed and that holds no answer: not sent to the model. */
export interface FailedQuestion {
  /** 0-based raw turn. */
  turn: number;
  /** The newest failure's reason. */
  reason: string;
  /** The turn that asked it again (`jp q --retry`, which names it in `retry_of`), if one did. */
  retriedAs?: number;
}
