// Owns how compactions read in output: policies, ranges, states, timelines.
import type { CompactionEntry, Fact, TurnRange } from "../compaction/index.js";
import { describeToolPolicy } from "../compaction/index.js";
import { turnList, turnsLabel, type Compaction } from "../events/index.js";
import { formatTokens } from "../tokens/count.js";
import { counted } from "./words.js";
import { visible } from "./visible.js";
import { grouped } from "../numbers.js";

/** The policies of a compaction as words: `summary`, `reasoning`, `tools`, `tools (omit)`. */
export function policyNames(c: Compaction): string[] {
  const names: string[] = [];
  if (c.summary) names.push("summary");
  if (c.reasoning) names.push("reasoning");
  if (c.tool_calls) {
    const mode = describeToolPolicy(c.tool_calls);
    names.push(mode === "strip" ? "tools" : `tools (${mode})`);
  }
  // Named when few enough to read on one line: which tools a compaction treats apart matters.
  const overrides = Object.keys(c.tool_overrides ?? {});
  if (overrides.length > 0 && overrides.length <= 3)
    names.push(`${counted(overrides.length, "tool hint")} (${overrides.join(", ")})`);
  else if (overrides.length) names.push(counted(overrides.length, "tool hint"));
  return names;
}

export function describePolicies(c: Compaction): string {
  return policyNames(c).join(" + ") || "no policy";
}

export function stateLabel(entry: CompactionEntry): string {
  switch (entry.state.kind) {
    case "active":
      return "active";
    case "deferred":
      return `deferred until turn ${entry.state.untilTurn + 1}`;
    case "reset":
      return "reset";
  }
}

/** Turns outside the planned compactions, shown together while they fare alike. */
interface Group extends TurnRange {
  existing: number[];
  /** Pinned turns: no compaction changes them. */
  pinned: boolean;
  /** A turn a planned compaction covers: its line is the compaction's. */
  planned: boolean;
}

/** What the timeline shows of a compaction outcome (the compaction service makes one). */
export interface TimelineOutcome {
  planned: readonly {
    label: string;
    compaction: Compaction;
    extendedFrom?: TurnRange;
    summaryNotGenerated?: { model: string };
  }[];
  skipped: readonly { label: string; reason: string }[];
  tokens: { before: number; after: number };
  cacheRewrite: number;
  atRisk: readonly Fact[];
  /** How many distinct facts the texts that leave the view hold. */
  factsLeaving: number;
  reasoningLost?: { turns: readonly number[]; tokens: number };
}

type PlannedItem = TimelineOutcome["planned"][number];

/**
 * A planned compaction's line: the range it records, the pinned turns it goes
 * around and the compactions it overlaps, with its range's tokens.
 */
function plannedLine(
  p: PlannedItem,
  o: {
    dryRun: boolean;
    last: number;
    pinned?: ReadonlySet<number>;
    active: readonly CompactionEntry[];
    fmt: (n: number) => string;
    rangeTokens: (projection: "before" | "after", range: TurnRange) => number;
  },
): string {
  const range = { from: p.compaction.from_turn, to: Math.min(p.compaction.to_turn, o.last) };
  const pinned = [...(o.pinned ?? [])].filter((t) => t >= range.from && t <= range.to).sort((a, b) => a - b);
  const overlapped = o.active
    .filter((e) => e.event.from_turn <= range.to && range.from <= e.event.to_turn)
    .map((e) => e.number);
  const count = range.to - range.from + 1 - pinned.length;
  const notes = [
    ...(pinned.length
      ? [
          `pinned ${pinned.length === 1 ? "turn" : "turns"} ${pinned.map((t) => t + 1).join(", ")} left as ${pinned.length === 1 ? "it is" : "they are"}`,
        ]
      : []),
    ...(overlapped.length ? [`over compaction #${overlapped.join(", #")}`] : []),
  ];
  const before = o.rangeTokens("before", range);
  const tokens = p.summaryNotGenerated
    ? `${o.fmt(before)} tokens now; the summary by ${p.summaryNotGenerated.model} is not generated in a dry run`
    : `${o.fmt(before)} → ${o.fmt(o.rangeTokens("after", range))} tokens`;
  return `${o.dryRun ? "Would compact" : "Compacted"} ${turnsLabel(range.from, range.to)} (${grouped(count)} total, ${describePolicies(p.compaction)}${notes.length ? `; ${notes.join("; ")}` : ""}): ${tokens}.`;
}

const covers = (c: Compaction, t: number) => c.from_turn <= t && t <= c.to_turn;

/** The turns 0..`last` in runs alike: planned, pinned, or under the same active compactions. */
function turnGroups(
  outcome: TimelineOutcome,
  active: readonly CompactionEntry[],
  last: number,
  pinnedTurns: ReadonlySet<number> | undefined,
): Group[] {
  const groups: Group[] = [];
  for (let t = 0; t <= last; t++) {
    if (outcome.planned.some((p) => covers(p.compaction, t))) {
      groups.push({ from: t, to: t, existing: [], pinned: false, planned: true });
      continue;
    }
    const pinned = pinnedTurns?.has(t) ?? false;
    const old = pinned ? [] : active.flatMap((e) => (covers(e.event, t) ? [e.number] : []));
    const prev = groups.at(-1);
    if (
      prev &&
      !prev.planned &&
      prev.pinned === pinned &&
      prev.existing.join() === old.join() &&
      prev.to === t - 1
    )
      prev.to = t;
    else groups.push({ from: t, to: t, existing: old, pinned, planned: false });
  }
  return groups;
}

/** The compact command's timeline, in 1-based turns, with token figures. */
export function renderTimeline(
  outcome: TimelineOutcome,
  existing: readonly CompactionEntry[],
  options: {
    dryRun: boolean;
    approximate: boolean;
    turnCount: number;
    rangeTokens: (projection: "before" | "after", range: TurnRange) => number;
    /** Turns no compaction changes (0-based). */
    pinned?: ReadonlySet<number>;
  },
): string[] {
  const lines: string[] = [];
  const fmt = (n: number) => formatTokens(n, options.approximate);
  if (outcome.planned.length === 0) {
    lines.push("Nothing to compact.");
    for (const s of outcome.skipped) lines.push(`  ${s.label}: ${s.reason}.`);
    return lines;
  }
  const active = existing.filter((e) => e.state.kind === "active");
  const last = options.turnCount - 1;
  // One line per planned compaction, with the range it records; the turns outside them grouped as they are.
  const placed: { at: number; line: string }[] = outcome.planned.map((p) => ({
    at: p.compaction.from_turn,
    line: plannedLine(p, { ...options, last, active, fmt }),
  }));
  for (const g of turnGroups(outcome, active, last, options.pinned)) {
    if (g.planned) continue;
    const label = turnsLabel(g.from, g.to);
    placed.push({
      at: g.from,
      line: g.pinned
        ? `Pinned ${label}: no compaction changes ${g.from === g.to ? "it" : "them"}.`
        : g.existing.length
          ? `Already compacted ${label} (by #${g.existing.join(", #")}).`
          : `Kept ${label}.`,
    });
  }
  lines.push(...placed.sort((x, y) => x.at - y.at).map((p) => p.line));
  for (const p of outcome.planned) {
    if (p.extendedFrom) {
      lines.push(
        `  ${p.label}: the summary range ${turnsLabel(p.extendedFrom.from, p.extendedFrom.to)} grew to ${turnsLabel(p.compaction.from_turn, p.compaction.to_turn)} to cover an existing summary.`,
      );
    }
  }
  for (const s of outcome.skipped) lines.push(`  ${s.label}: nothing to compact (${s.reason}).`);
  lines.push(
    `Request: ${fmt(outcome.tokens.before)} → ${fmt(outcome.tokens.after)} tokens${options.dryRun ? " if applied" : ""}.`,
  );
  if (outcome.factsLeaving > 0)
    lines.push(
      `Facts: ${heldLine(outcome.factsLeaving, outcome.atRisk.length)}.${outcome.atRisk.length ? ` At risk: ${atRiskLine(outcome.atRisk, 12)}. Name them in a summary (--summary) to keep them in view; recall reads them back.` : ""}`,
    );
  if (outcome.cacheRewrite > 0)
    lines.push(
      `Cache: the request changes from the first compacted turn on, so ${fmt(outcome.cacheRewrite)} tokens are written to the provider's prompt cache again, once (at 1.25× the input price on Anthropic).`,
    );
  const lost = outcome.reasoningLost;
  if (lost?.turns.length) lines.push(`Reasoning: the thinking of ${reasoningLostLine(lost, fmt)}.`);
  return lines;
}

/**
 * What a compaction costs in reasoning, after "the thinking of": on a model
 * with preserved thinking, that of the turns after the first change stops going back.
 */
export function reasoningLostLine(
  lost: { turns: readonly number[]; tokens: number },
  fmt: (n: number) => string,
): string {
  return `${turnList(lost.turns)} (${fmt(lost.tokens)} tokens) stops going back to the model, which reads it only while all before it is unchanged and no thinking between was left out; the log keeps it`;
}

/** How many of the facts the compacted turns hold the view still holds (in what it keeps, the summary, the record). */
export function heldLine(leaving: number, atRisk: number): string {
  return `the view still holds ${grouped(leaving - atRisk)} of the ${counted(leaving, "fact")} these turns hold`;
}

/** How many facts leave the view and stay nowhere, and the first of them (the summary can name them). */
export function atRiskLine(facts: readonly Fact[], shown = 8): string {
  const names = facts.slice(0, shown).map((f) => visible(f.text));
  const more = facts.length > shown ? `, and ${facts.length - shown} more` : "";
  return `${counted(facts.length, "fact")} nowhere else in view: ${names.join(", ")}${more}`;
}
