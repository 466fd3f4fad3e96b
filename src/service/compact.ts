// The compaction service that `jp conversation compact`, `fork` and `q --compact` share.
// Owns carrying out compaction rules on a conversation: planning each rule
// against the stream as extended by the previous ones, generating derived
// summaries, and measuring tokens before and after. It appends nothing; the
// caller writes the result as one group.
import {
  capToolOutputs,
  factsAtRisk,
  type OutputCap,
  planRule,
  project,
  streamShape,
  type Fact,
  rawEventsOfTurns,
  SummaryOverlapError,
  type Projection,
  type ToolHint,
  type TurnRange,
} from "../compaction/index.js";
import type { ResolvedRule } from "../config/compaction-rules.js";
import type { Compaction, CompactionSource, Event } from "../events/index.js";
import {
  boundReasoning,
  lostReasoning,
  trustsUnbound,
  type LostReasoning,
} from "../llm/reasoning-binding.js";
import type { ProviderSummary } from "../llm/provider-summary.js";
import { withAskedTools } from "../llm/tool-choice.js";
import { summaryBilling, type Summarizer } from "../llm/summarize.js";
import { cacheRewriteTokens } from "../tokens/cache-rewrite.js";
import type { TokenCounter } from "../tokens/count.js";

export interface TokenFigures {
  /** The whole request. */
  before: number;
  after: number;
  /** The turns the compaction covers. */
  rangeBefore: number;
  rangeAfter: number;
}

export interface PlannedCompaction {
  label: string;
  compaction: Compaction;
  extendedFrom?: TurnRange;
  /** Set in a dry run when a derived summary was not generated; token figures then leave it out. */
  summaryNotGenerated?: { model: string };
  tokens: TokenFigures;
}

export interface CompactionOutcome {
  planned: PlannedCompaction[];
  skipped: { label: string; reason: string }[];
  before: Projection;
  after: Projection;
  /** The events with the planned compactions appended. */
  events: Event[];
  tokens: { before: number; after: number };
  /** Tokens of the request from the first event the compactions change: written to the provider's cache again, once. */
  cacheRewrite: number;
  /** The facts that leave the model's view and stay nowhere in it (the loss report). */
  atRisk: Fact[];
  /** The bound reasoning (preserved thinking) that stops going back to the model, by raw turn, and its tokens. */
  reasoningLost: LostReasoning;
}

/**
 * Summaries the conversation's provider writes itself (`llm/provider-summary.ts`):
 * generated summaries by `model` of a range from the first turn go through it.
 */
export interface ProviderSummaries {
  /** The conversation's model, which writes them. */
  model: string;
  /** The view's cap of each tool's output, as `jp q` applies it. */
  outputCap: OutputCap;
  /** The provider's summary of `events`: the turns to summarise as `jp q` sends them. */
  summarize(events: readonly Event[], instructions?: string): Promise<ProviderSummary>;
}

export interface CompactionInput {
  events: readonly Event[];
  rules: readonly ResolvedRule[];
  hints: Readonly<Record<string, ToolHint>>;
  source: CompactionSource;
  note?: string;
  now: Date;
  newId: () => string;
  counter: TokenCounter;
  summarizer: Summarizer;
  /** The model that writes derived summaries when a rule names none. */
  defaultModel: string;
  providerSummaries?: ProviderSummaries;
  dryRun: boolean;
  deferredUntilTurn?: number;
}

/**
 * Tokens of the projected turns that come from raw turns `range`. A summary
 * turn counts where its range starts, so adjacent ranges never count it twice.
 */
export function rangeTokens(projection: Projection, counter: TokenCounter, range: TurnRange): number {
  let total = 0;
  for (const { origin, events } of projection.turns) {
    const at = origin.kind === "kept" ? origin.turn : origin.from;
    if (at >= range.from && at <= range.to) total += counter.events(events);
  }
  return total;
}

const extended = (range: TurnRange | undefined) => (range ? { extendedFrom: range } : {});

/**
 * Whether the provider can write the summary of `range`: its block goes first
 * in place of the turns it summarises, so the range starts at the first turn
 * and no pinned turn inside it stays in view.
 */
function writtenWhole(events: readonly Event[], range: TurnRange): boolean {
  if (range.from !== 0) return false;
  return ![...streamShape(events).pinned].some((t) => t <= range.to);
}

/**
 * The turns up to the end of `range` exactly as `jp q` sends them: projected,
 * long outputs cut, questions with the words that asked for a tool, and only
 * the reasoning whose history is unchanged. The provider's summary stands for
 * this history: the same events, so later reasoning stays bound to it.
 */
function sentHistory(events: readonly Event[], range: TurnRange, outputCap: OutputCap): Event[] {
  const projection = project(events);
  const shown = capToolOutputs(projection.events, outputCap);
  const bound = boundReasoning(withAskedTools(shown.events, false), undefined, {
    trustUnbound: trustsUnbound(events, projection.stats.activeCompactions, shown.cut),
  });
  const beyond = projection.turns.find(
    (t) => (t.origin.kind === "kept" ? t.origin.turn : t.origin.from) > range.to,
  );
  const end = beyond?.events[0] ? projection.events.indexOf(beyond.events[0]) : -1;
  return bound.events.slice(0, end === -1 ? bound.events.length : bound.position(end));
}

/**
 * One rule's compaction on `events`, complete (a derived summary generated
 * unless a dry run), or why there is none. A rule whose summary would widen a
 * supplied one is refused with the ranges that would do instead.
 */
async function compactionOf(
  events: readonly Event[],
  resolved: ResolvedRule,
  input: CompactionInput,
  timestamp: string,
): Promise<
  | { compaction: Compaction; summaryNotGenerated?: { model: string }; extendedFrom?: TurnRange }
  | { skipped: string }
> {
  const plan = planRule(events, resolved.rule, {
    id: input.newId(),
    timestamp,
    now: input.now.getTime(),
    source: input.source,
    note: input.note,
    toolHints: input.hints,
    deferredUntilTurn: input.deferredUntilTurn,
  });
  switch (plan.kind) {
    case "nothing":
      return { skipped: plan.reason };
    case "refused": {
      const suggest = plan.suggestions.map((r) => `--from ${r.from + 1} --to ${r.to + 1}`).join(" or ");
      throw new SummaryOverlapError(
        plan.reason,
        suggest ? `compact ${suggest} instead` : "reset the supplied summary first",
      );
    }
    case "ready":
      return { compaction: plan.compaction, ...extended(plan.extendedFrom) };
    case "needs_summary": {
      const model = resolved.summary?.model ?? input.defaultModel;
      if (input.dryRun)
        return {
          compaction: plan.complete("", model),
          summaryNotGenerated: { model },
          ...extended(plan.extendedFrom),
        };
      const provider = input.providerSummaries;
      if (provider && provider.model === model && writtenWhole(events, plan.range)) {
        const result = await provider.summarize(
          sentHistory(events, plan.range, provider.outputCap),
          resolved.summary?.instructions,
        );
        const compaction = plan.complete(result.text, result.model);
        return {
          compaction: {
            ...compaction,
            summary: {
              ...compaction.summary!,
              provider: { block: result.block, continues: result.continues },
            },
            metadata: summaryBilling(result),
          },
          ...extended(plan.extendedFrom),
        };
      }
      const result = await input.summarizer.summarize({
        events: rawEventsOfTurns(events, plan.range),
        instructions: resolved.summary?.instructions,
        context: resolved.summary?.context,
        model,
      });
      return {
        compaction: { ...plan.complete(result.text, result.model), metadata: summaryBilling(result) },
        ...extended(plan.extendedFrom),
      };
    }
  }
}

export async function compactConversation(input: CompactionInput): Promise<CompactionOutcome> {
  let events = [...input.events];
  const before = project(events);
  const planned: PlannedCompaction[] = [];
  const skipped: CompactionOutcome["skipped"] = [];
  let current = before;
  for (const [i, resolved] of input.rules.entries()) {
    // Later rules get later timestamps, so they win where rules overlap.
    const made = await compactionOf(events, resolved, input, new Date(input.now.getTime() + i).toISOString());
    if ("skipped" in made) {
      skipped.push({ label: resolved.label, reason: made.skipped });
      continue;
    }
    const { compaction, summaryNotGenerated } = made;
    const range = { from: compaction.from_turn, to: compaction.to_turn };
    const next = [...events, compaction];
    const projected = project(next);
    const tokens: TokenFigures = {
      before: input.counter.events(current.events),
      after: input.counter.events(projected.events),
      rangeBefore: rangeTokens(current, input.counter, range),
      rangeAfter: rangeTokens(projected, input.counter, range),
    };
    // A rule that changes nothing the model sees (stripping what those turns do not hold) is not recorded.
    if (!compaction.summary && tokens.after >= tokens.before) {
      skipped.push({
        label: resolved.label,
        reason: "it would save no tokens: those turns hold nothing it removes",
      });
      continue;
    }
    if (!summaryNotGenerated) compaction.stats = { tokens_before: tokens.before, tokens_after: tokens.after };
    planned.push({
      label: resolved.label,
      compaction,
      ...(made.extendedFrom ? { extendedFrom: made.extendedFrom } : {}),
      ...(summaryNotGenerated ? { summaryNotGenerated } : {}),
      tokens,
    });
    events = next;
    current = projected;
  }
  return {
    planned,
    skipped,
    before,
    after: current,
    events,
    tokens: { before: input.counter.events(before.events), after: input.counter.events(current.events) },
    cacheRewrite: cacheRewriteTokens(input.counter, before.events, current.events),
    atRisk: factsAtRisk(before.events, current.events),
    reasoningLost: lostReasoning(before, current, input.counter),
  };
}
