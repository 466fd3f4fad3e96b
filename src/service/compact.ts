// The compaction service that `jp conversation compact`, `fork` and `q --compact` share.
// Owns carrying out compaction rules on a conversation: planning each rule
// against the stream as extended by the previous ones, generating derived
// summaries, and measuring tokens before and after. It appends nothing; the
// caller writes the result as one group.
import {
  lossReport,
  planRule,
  project,
  type Fact,
  rawEventsOfTurns,
  SummaryOverlapError,
  type Projection,
  type ToolHint,
  type TurnRange,
} from "../compaction/index.js";
import type { ResolvedRule } from "../config/compaction-rules.js";
import type { Compaction, CompactionSource, Event } from "../events/index.js";
import { droppedOnEdit, lostReasoning, type LostReasoning } from "../llm/reasoning-binding.js";
import { providerCompaction, type ProviderSummaries } from "../llm/provider-summary.js";
import { summaryBilling, type Summarizer } from "../llm/summarize.js";
import { cacheRewriteTokens } from "../tokens/cache-rewrite.js";
import type { TokenCounter } from "../tokens/count.js";
import { requestTokens, type RequestFrame } from "../tokens/request.js";

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
  /** How many distinct facts the texts that leave the view hold (atRisk among them). */
  factsLeaving: number;
  /** The bound reasoning (preserved thinking) that stops going back to the model, by raw turn, and its tokens. */
  reasoningLost: LostReasoning;
}

export interface CompactionInput {
  events: readonly Event[];
  /** The request's frame (system prompt, tools, output caps): whole-request figures count it as show --context does. */
  frame: RequestFrame;
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
  /** The model's API drops its reasoning after a prefix edit (GPT-6.2 on): what that costs is said. */
  dropsReasoningOnEdit?: boolean;
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
      const byProvider = await providerCompaction(
        events,
        plan,
        model,
        input.providerSummaries,
        resolved.summary,
      );
      if (byProvider) return { compaction: byProvider, ...extended(plan.extendedFrom) };
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
  const whole = (view: Projection) => requestTokens(input.frame, view, input.counter);
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
      before: whole(current),
      after: whole(projected),
      rangeBefore: rangeTokens(current, input.counter, range),
      rangeAfter: rangeTokens(projected, input.counter, range),
    };
    // A rule that changes nothing the model sees (stripping what those turns do not hold) is not recorded.
    // Judged on the turns it covers: the recall tool the first compaction brings would outweigh a small strip.
    if (!compaction.summary && tokens.rangeAfter >= tokens.rangeBefore) {
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
  const loss = lossReport(before.events, current.events);
  return {
    planned,
    skipped,
    before,
    after: current,
    events,
    tokens: { before: whole(before), after: whole(current) },
    cacheRewrite: cacheRewriteTokens(input.counter, before.events, current.events),
    atRisk: loss.atRisk,
    factsLeaving: loss.leaving,
    reasoningLost: (input.dropsReasoningOnEdit ? droppedOnEdit : lostReasoning)(
      before,
      current,
      input.counter,
    ),
  };
}
