// Owns how compactions read in output: policies, ranges, states, timelines.
import type { CompactionEntry, Fact, TurnRange } from "../compaction/index.js";
import { describeToolPolicy } from "../compaction/index.js";
import { turnsLabel, type Compaction } from "../events/index.js";
import { formatTokens } from "../tokens/count.js";
import { counted } from "./words.js";
import { visible } from "./visible.js";

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

interface Group extends TurnRange {
  /** The planned compactions covering these turns. */
  fresh: PlannedItem[];
  existing: number[];
  /** Pinned turns: no compaction changes them. */
  pinned: boolean;
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
}

type PlannedItem = TimelineOutcome["planned"][number];

const sameItems = <T>(a: readonly T[], b: readonly T[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

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
  const covers = (c: Compaction, t: number) => c.from_turn <= t && t <= c.to_turn;
  const groups: Group[] = [];
  for (let t = 0; t < options.turnCount; t++) {
    const pinned = options.pinned?.has(t) ?? false;
    const fresh = pinned ? [] : outcome.planned.filter((p) => covers(p.compaction, t));
    const old = pinned ? [] : active.flatMap((e) => (covers(e.event, t) ? [e.number] : []));
    const last = groups.at(-1);
    if (last && last.pinned === pinned && sameItems(last.fresh, fresh) && last.existing.join() === old.join())
      last.to = t;
    else groups.push({ from: t, to: t, fresh, existing: old, pinned });
  }
  for (const g of groups) {
    const label = turnsLabel(g.from, g.to);
    if (g.pinned) {
      lines.push(`Pinned ${label}: no compaction changes ${g.from === g.to ? "it" : "them"}.`);
      continue;
    }
    const count = g.to - g.from + 1;
    const already = g.existing.length ? `already compacted by #${g.existing.join(", #")}` : "";
    if (g.fresh.length === 0) {
      lines.push(
        g.existing.length ? `Already compacted ${label} (by #${g.existing.join(", #")}).` : `Kept ${label}.`,
      );
      continue;
    }
    const policies = [...new Set(g.fresh.flatMap((p) => policyNames(p.compaction)))].join(" + ");
    const pending = g.fresh.map((p) => p.summaryNotGenerated).find((p) => p);
    const before = options.rangeTokens("before", g);
    const after = options.rangeTokens("after", g);
    const tokens = pending
      ? `${fmt(before)} tokens now; the summary by ${pending.model} is not generated in a dry run`
      : `${fmt(before)} → ${fmt(after)} tokens`;
    lines.push(
      `${options.dryRun ? "Would compact" : "Compacted"} ${label} (${count.toLocaleString("en-US")} total, ${policies}${already ? `; ${already}` : ""}): ${tokens}.`,
    );
  }
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
  if (outcome.atRisk.length)
    lines.push(
      `At risk: ${atRiskLine(outcome.atRisk, 12)}. Name them in a summary (--summary) to keep them in view; recall reads them back.`,
    );
  if (outcome.cacheRewrite > 0)
    lines.push(
      `Cache: the request changes from the first compacted turn on, so ${fmt(outcome.cacheRewrite)} tokens are written to the provider's prompt cache again, once (at 1.25× the input price on Anthropic).`,
    );
  return lines;
}

/** How many facts leave the view and stay nowhere, and the first of them (the summary can name them). */
export function atRiskLine(facts: readonly Fact[], shown = 8): string {
  const names = facts.slice(0, shown).map((f) => visible(f.text));
  const more = facts.length > shown ? `, and ${facts.length - shown} more` : "";
  return `${counted(facts.length, "fact")} nowhere else in view: ${names.join(", ")}${more}`;
}
