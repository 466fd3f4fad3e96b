// Owns planning: one rule resolved against the raw stream into zero or one
// compaction event (docs/architecture.md §6). Time, ids and hints are passed in.
import type { Compaction, CompactionSource, Event, Summary, ToolPolicy } from "../events/index.js";
import { groupTurns, turnsLabel, isKind } from "../events/index.js";
import { indexCompactions } from "./activation.js";
import { resolveRange, streamFacts, type RangeRequest, type TurnRange } from "./bounds.js";
import { resolveToolOverrides, type ToolHint } from "./policy.js";

export const NOTE_MAX = 200;

export type SummaryRequest =
  /** jp generates the text from raw events (a derived summary). */
  | { kind: "derive"; model?: string }
  /** The text was written by a person or the assistant (a supplied summary). */
  | { kind: "supplied"; text: string; author: "user" | "assistant" };

export interface CompactionRule extends RangeRequest {
  reasoning?: "strip";
  tool_calls?: ToolPolicy;
  summary?: SummaryRequest;
  /** false: a summary's view carries no record of the work of its turns (compaction/record.ts). */
  record?: false;
}

export interface PlanOptions {
  id: string;
  /** RFC 3339 time stamped on the event. */
  timestamp: string;
  /** Milliseconds since the epoch, for duration bounds. */
  now: number;
  source: CompactionSource;
  note?: string;
  /** Per-tool hints from config, frozen into `tool_overrides`. */
  toolHints?: Readonly<Record<string, ToolHint | undefined>>;
  deferredUntilTurn?: number;
}

export type Plan =
  | { kind: "nothing"; reason: string }
  | { kind: "refused"; reason: string; suggestions: TurnRange[] }
  | { kind: "ready"; compaction: Compaction; extendedFrom?: TurnRange }
  | {
      kind: "needs_summary";
      range: TurnRange;
      extendedFrom?: TurnRange;
      /** Build the event once the summariser has written `text` from the raw events of `range`. */
      complete(text: string, model?: string): Compaction;
    };

/** Cut a note to the limit; reports whether it was cut. */
export function truncateNote(note: string): { note: string; truncated: boolean } {
  // Code points, so a note is never cut inside a character (graphemes would need Intl.Segmenter).
  // eslint-disable-next-line @typescript-eslint/no-misused-spread
  const chars = [...note];
  if (chars.length <= NOTE_MAX) return { note, truncated: false };
  return { note: chars.slice(0, NOTE_MAX - 1).join("") + "…", truncated: true };
}

interface ExistingSummary {
  id: string;
  from: number;
  to: number;
  supplied: boolean;
}

function existingSummaries(events: readonly Event[]): ExistingSummary[] {
  return indexCompactions(events).entries.flatMap(({ event, state }) =>
    state.kind !== "reset" && event.summary !== undefined
      ? [
          {
            id: event.id,
            from: event.from_turn,
            to: event.to_turn,
            supplied: event.summary.source === "supplied",
          },
        ]
      : [],
  );
}

export type SummaryExtension =
  | { ok: true; range: TurnRange; absorbed: string[] }
  | { ok: false; reason: string; suggestions: TurnRange[] };

/**
 * Grow a new summary's range over every existing summary it intersects
 * (containment included), until stable. A supplied summary is never widened:
 * neither the new one when it is supplied, nor an existing supplied one that
 * the new range would have to swallow beyond what was asked.
 */
export function extendSummaryRange(
  events: readonly Event[],
  requested: TurnRange,
  newIsSupplied: boolean,
  turnCount: number,
): SummaryExtension {
  const summaries = existingSummaries(events).filter((s) => s.from < turnCount);
  let range = { ...requested };
  const absorbed = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const s of summaries) {
      if (s.from > range.to || s.to < range.from) continue;
      if (!absorbed.has(s.id)) absorbed.add(s.id);
      const next = {
        from: Math.min(range.from, s.from),
        to: Math.max(range.to, Math.min(s.to, turnCount - 1)),
      };
      if (next.from !== range.from || next.to !== range.to) {
        range = next;
        changed = true;
      }
    }
  }
  const widened = range.from !== requested.from || range.to !== requested.to;
  const blockers = summaries.filter(
    (s) => s.from <= range.to && s.to >= range.from && (s.from < requested.from || s.to > requested.to),
  );
  const offending = newIsSupplied ? blockers : blockers.filter((s) => s.supplied);
  if (!widened || offending.length === 0) return { ok: true, range, absorbed: [...absorbed] };

  const lo = Math.min(...blockers.map((s) => s.from));
  const hi = Math.max(...blockers.map((s) => s.to));
  const suggestions: TurnRange[] = [];
  if (lo - 1 >= requested.from) suggestions.push({ from: requested.from, to: lo - 1 });
  if (hi + 1 <= requested.to) suggestions.push({ from: hi + 1, to: requested.to });
  const what = newIsSupplied
    ? "this supplied summary"
    : `the supplied summary over ${offending.map((s) => turnsLabel(s.from, s.to)).join(", ")}`;
  return {
    ok: false,
    reason: `${turnsLabel(requested.from, requested.to)} overlap an existing summary over ${blockers.map((s) => turnsLabel(s.from, s.to)).join(", ")}, and ${what} cannot be widened`,
    suggestions,
  };
}

function toolNamesIn(events: readonly Event[], range: TurnRange): Set<string> {
  const names = new Set<string>();
  for (const turn of groupTurns(events)) {
    if (turn.index < range.from || turn.index > range.to) continue;
    for (const e of turn.events) if (isKind(e, "tool_call_request")) names.add(e.name);
  }
  return names;
}

/** Resolve one rule against the raw stream. */
export function planRule(events: readonly Event[], rule: CompactionRule, options: PlanOptions): Plan {
  if (!rule.reasoning && !rule.tool_calls && !rule.summary) {
    return { kind: "nothing", reason: "the rule names no policy (reasoning, tool calls or summary)" };
  }
  const facts = streamFacts(events, options.now);
  const resolved = resolveRange(rule, facts);
  if (!resolved.ok) return { kind: "nothing", reason: resolved.reason };
  let range = resolved.range;
  let extendedFrom: TurnRange | undefined;
  if (rule.summary) {
    const extension = extendSummaryRange(events, range, rule.summary.kind === "supplied", facts.turnCount);
    if (!extension.ok)
      return { kind: "refused", reason: extension.reason, suggestions: extension.suggestions };
    if (extension.range.from !== range.from || extension.range.to !== range.to) extendedFrom = range;
    range = extension.range;
  }

  const build = (summary?: Summary): Compaction => {
    const event: Compaction = {
      type: "compaction",
      timestamp: options.timestamp,
      id: options.id,
      from_turn: range.from,
      to_turn: range.to,
      source: options.source,
    };
    if (summary) {
      event.summary = summary;
      if (rule.record === false) event.record = false;
    } else {
      if (rule.reasoning) event.reasoning = rule.reasoning;
      if (rule.tool_calls) {
        event.tool_calls = rule.tool_calls;
        const overrides = resolveToolOverrides(options.toolHints ?? {}, toolNamesIn(events, range));
        if (overrides) event.tool_overrides = overrides;
      }
    }
    if (options.deferredUntilTurn !== undefined) event.deferred_until_turn = options.deferredUntilTurn;
    if (options.note !== undefined && options.note !== "") event.note = truncateNote(options.note).note;
    return event;
  };

  const summary = rule.summary;
  if (summary?.kind === "derive") {
    return {
      kind: "needs_summary",
      range,
      ...(extendedFrom ? { extendedFrom } : {}),
      complete: (text, model) =>
        build({
          text,
          source: "derived",
          ...((model ?? summary.model) ? { model: model ?? summary.model } : {}),
        }),
    };
  }
  const compaction = build(
    summary ? { text: summary.text, source: "supplied", author: summary.author } : undefined,
  );
  return { kind: "ready", compaction, ...(extendedFrom ? { extendedFrom } : {}) };
}

/** The raw turn events of turns `from..to`: what a summariser reads (never a projection). */
export function rawEventsOfTurns(events: readonly Event[], range: TurnRange): Event[] {
  return groupTurns(events)
    .filter((t) => t.index >= range.from && t.index <= range.to)
    .flatMap((t) => t.events);
}
