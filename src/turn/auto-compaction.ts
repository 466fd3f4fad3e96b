// Owns automatic compaction in the turn loop: before every provider request,
// measure the projected request and, over budget, record `auto` compactions
// (active at once) that bring it under — whole earlier turns by the configured
// rule, then the oldest tool results of the turn in progress.
import { providerCompaction, type ProviderSummaries } from "../llm/provider-summary.js";
import {
  earlierTurnsRange,
  overWindowRange,
  planCurrentTurnStrip,
  planRule,
  project,
  rawEventsOfTurns,
  type CompactionRule,
  type Plan,
  type ToolHint,
} from "../compaction/index.js";
import { ruleFromConfig, type SummaryOptions } from "../config/compaction-rules.js";
import { compactionBudget } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { recordedUsages, type Compaction, type Event } from "../events/index.js";
import { summaryBilling, type Summarizer } from "../llm/summarize.js";
import type { TokenCounter } from "../tokens/count.js";
import { requestTokens, type RequestFrame } from "../tokens/request.js";
import { grouped } from "../numbers.js";
import { clearingHeader, resultsCleared, type ProviderClearing } from "./provider-clearing.js";

export const MAX_FRUITLESS_ATTEMPTS = 3;

export interface AutoCompactionDeps {
  config: Config;
  counter: TokenCounter;
  summarizer: Summarizer;
  /** Summaries the conversation's provider writes itself, where it can (`llm/provider-summary.ts`). */
  providerSummaries?: ProviderSummaries;
  /** What every request carries besides the conversation (system prompt, tool definitions), and the output caps. */
  frame: RequestFrame;
  /** The model's context window, when known: the budget is a share of it unless max_tokens is set. */
  contextWindow?: number;
  now: () => Date;
  newId: () => string;
  hints: Readonly<Record<string, ToolHint>>;
  /**
   * The provider clears the oldest tool results itself, in bulk
   * (context editing, the request's `clearToolUses`, turn/provider-clearing.ts):
   * they are not stripped here, and the request is measured as the model will read it.
   */
  serverClearsToolUses?: ProviderClearing;
  /** One line to the user: what was compacted, or why it stopped. */
  say: (line: string) => void;
  warn: (line: string) => void;
}

export interface AutoLimits {
  budget: number;
  keepTail: number;
  minTurns: number;
  /** A batch that frees fewer tokens is not recorded. */
  minSaving: number;
  relief: "tail" | "just_under_budget";
  /** How long the provider keeps a cached prefix; an older last request means the cache is cold. */
  cacheTtlMs: number;
}

export function autoBudget(config: Config, window: number | undefined): AutoLimits | undefined {
  const budget = compactionBudget(config, window);
  const auto = config.conversation?.compaction?.auto;
  if (budget === undefined || !auto) return undefined;
  return {
    budget,
    keepTail: auto.keep_tail ?? Math.floor(budget / 2),
    minTurns: auto.min_turns ?? 0,
    minSaving: auto.min_saving ?? Math.floor(budget / 5),
    relief: auto.relief ?? "tail",
    cacheTtlMs: (config.assistant?.cache_ttl === "1h" ? 60 : 5) * 60_000,
  };
}

/** A mechanical compaction due within this share of the budget is made early when the cache is cold anyway. */
export const COLD_CACHE_MARGIN = 0.1;

/** When the conversation's last model response arrived (its last request), if any. */
function lastResponseAt(events: readonly Event[]): number | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if ((e.type === "chat_response" || e.type === "tool_call_request") && typeof e.timestamp === "string")
      return Date.parse(e.timestamp);
  }
  return undefined;
}

const short = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : grouped(n));

type SummaryPlan = Extract<Plan, { kind: "needs_summary" }>;

const MECHANICAL: CompactionRule = {
  reasoning: "strip",
  tool_calls: { policy: "strip", request: true, response: true },
};

/** One round of compacting: the view as it grows, its size, and what was added and why. */
class Batch {
  readonly added: Compaction[] = [];
  readonly parts: string[] = [];
  /** A summary was asked for and failed: none is asked for again in this round. */
  summaryFailed = false;
  constructor(
    public current: Event[],
    public tokens: number,
    private readonly measure: (events: readonly Event[]) => number,
  ) {}

  /** Add `c` when it shrinks the request; `describe` says what it did, given the tokens it saved. */
  record(c: Compaction, describe: (saved: number) => string): void {
    const next = [...this.current, c];
    const after = this.measure(next);
    if (after >= this.tokens) return;
    c.stats = { tokens_before: this.tokens, tokens_after: after };
    this.parts.push(describe(this.tokens - after));
    this.current = next;
    this.tokens = after;
    this.added.push(c);
  }
}

/** Auto compaction's state across the requests of a turn: it stops after attempts that free nothing. */
class AutoCompactor {
  private readonly configured;
  private fruitless = 0;
  private stopped = false;
  private summarizedToFit = false;

  constructor(
    private readonly deps: AutoCompactionDeps,
    private readonly limits: AutoLimits,
  ) {
    this.configured = deps.config.conversation?.compaction?.auto?.rule;
  }

  private measure = (events: readonly Event[]): number =>
    requestTokens(this.deps.frame, project(events), this.deps.counter);

  /** The provider's own count of the last request, plus what came after it, when no compaction changed the view since. */
  private reported(events: readonly Event[]): number {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === "compaction" || e.type === "compaction_reset") return 0;
      const recorded = recordedUsages(e).at(-1)?.usage;
      if (typeof recorded?.input_tokens === "number") {
        const output = typeof recorded.output_tokens === "number" ? recorded.output_tokens : 0;
        return recorded.input_tokens + output + this.deps.counter.events(events.slice(i + 1));
      }
    }
    return 0;
  }

  /**
   * The size that sets compaction off. Compacting rewrites the cached prefix;
   * when the cache has gone cold that costs nothing extra, so a mechanical
   * compaction that is nearly due is made now rather than later.
   */
  private trigger(events: readonly Event[]): number {
    const last = lastResponseAt(events);
    const cold = last !== undefined && this.deps.now().getTime() - last > this.limits.cacheTtlMs;
    return cold && !this.configured?.summary
      ? Math.floor(this.limits.budget * (1 - COLD_CACHE_MARGIN))
      : this.limits.budget;
  }

  /** The request's size once the provider has cleared the tool results it clears (all of it where it clears none). */
  private readByModel = (events: readonly Event[]): number => {
    const clears = this.deps.serverClearsToolUses;
    if (!clears) return this.measure(events);
    const view = project(events);
    const { system, tools } = this.deps.frame;
    const cleared = resultsCleared(view.events, clears, clearingHeader(clears, system, tools));
    return Math.max(
      0,
      requestTokens(this.deps.frame, view, this.deps.counter) - this.deps.counter.events(cleared),
    );
  };

  async compact(events: readonly Event[]): Promise<Event[] | undefined> {
    // Whichever count is higher decides: jp's tokenizer only approximates some providers'.
    const before = Math.max(this.readByModel(events), this.reported(events));
    const trigger = this.trigger(events);
    if (this.deps.serverClearsToolUses && this.measure(events) > trigger) this.sayServerClears();
    if (before <= trigger || (this.stopped && !this.overWindow(before))) return undefined;
    if (project(events).turns.length < this.limits.minTurns) return undefined;
    const batch = new Batch([...events], before, this.readByModel);
    await this.earlierTurns(batch);
    if (batch.tokens > trigger && !this.deps.serverClearsToolUses) this.currentTurnTools(batch, trigger);
    await this.summarizeToFit(batch);
    return this.settle(batch, before);
  }

  private saidServerClears = false;

  /** Once a turn: the provider clears the oldest tool results, and keeps the thinking valid. */
  private sayServerClears(): void {
    if (this.saidServerClears) return;
    this.saidServerClears = true;
    this.deps.say(
      "context over budget: the provider clears this turn's oldest tool results before the model reads them (context editing, clear_tool_uses_20250919); every thinking block stays valid, and the log keeps everything",
    );
  }

  private planOptions() {
    return {
      id: this.deps.newId(),
      timestamp: this.deps.now().toISOString(),
      now: this.deps.now().getTime(),
      source: "auto" as const,
      toolHints: this.deps.hints,
    };
  }

  /** Whole earlier turns by the configured rule (a summary, or mechanically when it fails). */
  private async earlierTurns(batch: Batch): Promise<void> {
    const range = earlierTurnsRange(batch.current);
    if (!range) return;
    const base = this.configured ? ruleFromConfig(this.configured, 0) : { rule: MECHANICAL, label: "auto" };
    const rule: CompactionRule = {
      ...base.rule,
      from: { kind: "absolute", index: range.from },
      to: { kind: "absolute", index: range.to },
    };
    delete rule.keepFirst;
    delete rule.keepLast;
    const options = this.planOptions();
    let plan = planRule(batch.current, rule, options);
    if (plan.kind === "needs_summary") {
      if (await this.summarize(batch, plan, base.summary, "summarized", "stripping mechanically instead"))
        return;
      plan = planRule(batch.current, { ...rule, summary: undefined, ...MECHANICAL }, options);
    }
    if (plan.kind === "ready") {
      const c = plan.compaction;
      batch.record(c, () => `turns ${c.from_turn + 1}–${c.to_turn + 1} stripped`);
    }
  }

  /**
   * A summary of `plan`'s turns recorded in the batch: written by the provider
   * where it writes them (and they fit its window), else by jp's summarizer
   * (which makes its own input fit its model's window). False when it failed,
   * said with what happens `instead`.
   */
  private async summarize(
    batch: Batch,
    plan: SummaryPlan,
    options: SummaryOptions | undefined,
    done: string,
    instead: string,
  ): Promise<boolean> {
    const model = options?.model ?? this.deps.config.assistant?.model?.id ?? "";
    try {
      const byProvider = await providerCompaction(
        batch.current,
        plan,
        model,
        this.deps.providerSummaries,
        options,
      );
      const c = byProvider ?? (await this.summaryByJp(batch, plan, options, model));
      batch.record(c, () => `turns ${c.from_turn + 1}–${c.to_turn + 1} ${done}`);
      return true;
    } catch (error) {
      batch.summaryFailed = true;
      this.deps.warn(
        `the summary for automatic compaction failed (${error instanceof Error ? error.message : String(error)}); ${instead}`,
      );
      return false;
    }
  }

  /** A summary of `plan`'s turns by jp's summarizer. */
  private async summaryByJp(
    batch: Batch,
    plan: SummaryPlan,
    options: SummaryOptions | undefined,
    model: string,
  ): Promise<Compaction> {
    const result = await this.deps.summarizer.summarize({
      events: rawEventsOfTurns(batch.current, plan.range),
      instructions: options?.instructions,
      context: options?.context,
      model,
    });
    return { ...plan.complete(result.text, result.model), metadata: summaryBilling(result) };
  }

  /**
   * Still over the model's window once the configured rule and the strip of
   * the turn in progress have run, the request would be refused: the earlier
   * turns not yet summarized are, whatever the configured rule, after any
   * summary someone wrote (a summary of parts where they are larger than the
   * summarizer's window).
   * At most once a turn, and never after a summary failed: it cannot loop.
   */
  private async summarizeToFit(batch: Batch): Promise<void> {
    const window = this.deps.contextWindow;
    if (window === undefined || batch.tokens <= window || this.summarizedToFit || batch.summaryFailed) return;
    const range = overWindowRange(batch.current);
    if (!range) return;
    this.summarizedToFit = true;
    const options = this.configured?.summary ? ruleFromConfig(this.configured, 0).summary : undefined;
    const plan = planRule(
      batch.current,
      {
        summary: { kind: "derive", ...(options?.model ? { model: options.model } : {}) },
        from: { kind: "absolute", index: range.from },
        to: { kind: "absolute", index: range.to },
      },
      this.planOptions(),
    );
    if (plan.kind !== "needs_summary") return;
    await this.summarize(
      batch,
      plan,
      options,
      `summarized, the request being over the ${grouped(window)}-token window`,
      "the request stays over the window",
    );
  }

  /** The oldest tool results of the turn in progress, as many as bring the request under `trigger`. */
  private currentTurnTools(batch: Batch, trigger: number): void {
    const strip = planCurrentTurnStrip(batch.current, {
      budget: trigger,
      keepTail: this.limits.keepTail,
      measure: this.measure,
      tokens: (evs) => this.deps.counter.events(evs),
      id: this.deps.newId(),
      timestamp: this.deps.now().toISOString(),
      relief: this.limits.relief,
    });
    if (!strip) return;
    const strippedBefore = project(batch.current).stats.toolCallsStripped;
    const stripped = () => project([...batch.current, strip]).stats.toolCallsStripped - strippedBefore;
    batch.record(strip, () => `${stripped()} tool results stripped`);
  }

  private overWindow(tokens: number): boolean {
    return this.deps.contextWindow !== undefined && tokens > this.deps.contextWindow;
  }

  private saidStillOver = false;

  /** Once a turn: what automatic compaction could do left the request over the window. */
  private sayStillOverWindow(tokens: number): void {
    if (!this.overWindow(tokens) || this.saidStillOver) return;
    this.saidStillOver = true;
    this.deps.warn(
      `the request (${short(tokens)} tokens) is still over the ${grouped(this.deps.contextWindow ?? 0)}-token window of the model after automatic compaction, which keeps the question of the turn in progress and its newest ${short(this.limits.keepTail)} tokens (conversation.compaction.auto.keep_tail)`,
    );
  }

  /** What the batch adds, said in one line; nothing when it saves too little (counted towards stopping). */
  private settle(batch: Batch, before: number): Event[] | undefined {
    // Too small a saving rewrites the cached prefix for little: leave the request as it is,
    // unless it is over the window, where the provider would refuse it as it is.
    const saving = before - batch.tokens;
    if (batch.added.length > 0 && (saving >= this.limits.minSaving || this.overWindow(before))) {
      this.fruitless = 0;
      this.deps.say(
        `context compacted: ${short(before)} → ${short(batch.tokens)} tokens (${batch.parts.join("; ")})`,
      );
      this.sayStillOverWindow(batch.tokens);
      return batch.added;
    }
    this.sayStillOverWindow(before);
    this.fruitless += 1;
    // Said once: past it, only a request over the window is tried again (summarizeToFit).
    if (this.fruitless >= MAX_FRUITLESS_ATTEMPTS && !this.stopped) {
      this.stopped = true;
      this.deps.warn(
        `automatic compaction stopped: ${MAX_FRUITLESS_ATTEMPTS} attempts in a row freed nothing, and the request (${short(before)} tokens) is still over the budget of ${short(this.limits.budget)}; the provider may refuse it`,
      );
    }
    return undefined;
  }
}

/** The before-request hook for the turn loop, or undefined when auto compaction is off. */
export function createAutoCompaction(
  deps: AutoCompactionDeps,
): ((events: readonly Event[]) => Promise<Event[] | undefined>) | undefined {
  const limits = autoBudget(deps.config, deps.contextWindow);
  if (!limits) return undefined;
  const compactor = new AutoCompactor(deps, limits);
  return (events) => compactor.compact(events);
}
