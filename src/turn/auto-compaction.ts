// Owns automatic compaction in the turn loop: before every provider request,
// measure the projected request and, over budget, record `auto` compactions
// (active at once) that bring it under — whole earlier turns by the configured
// rule, then the oldest tool results of the turn in progress.
import {
  earlierTurnsRange,
  planCurrentTurnStrip,
  planRule,
  project,
  rawEventsOfTurns,
  type CompactionRule,
  type ToolHint,
} from "../compaction/index.js";
import { ruleFromConfig } from "../config/compaction-rules.js";
import { compactionBudget } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { recordedUsages, type Compaction, type Event } from "../events/index.js";
import { summaryBilling, type Summarizer } from "../llm/summarize.js";
import type { TokenCounter } from "../tokens/count.js";

export const MAX_FRUITLESS_ATTEMPTS = 3;

export interface AutoCompactionDeps {
  config: Config;
  counter: TokenCounter;
  summarizer: Summarizer;
  /** Tokens every request carries besides the conversation (system prompt, tool definitions). */
  overhead: number;
  now: () => Date;
  newId: () => string;
  hints: Readonly<Record<string, ToolHint>>;
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

export function autoBudget(config: Config): AutoLimits | undefined {
  const budget = compactionBudget(config);
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

const short = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : n.toLocaleString("en-US"));

/** The before-request hook for the turn loop, or undefined when auto compaction is off. */
export function createAutoCompaction(
  deps: AutoCompactionDeps,
): ((events: readonly Event[]) => Promise<Event[] | undefined>) | undefined {
  const limits = autoBudget(deps.config);
  if (!limits) return undefined;
  const measure = (events: readonly Event[]) => deps.counter.events(project(events).events) + deps.overhead;
  const configured = deps.config.conversation?.compaction?.auto?.rule;
  const mechanical: CompactionRule = {
    reasoning: "strip",
    tool_calls: { policy: "strip", request: true, response: true },
  };
  let fruitless = 0;
  let stopped = false;

  // The provider's own count of the last request, plus what came after it, when no compaction changed the view since.
  const reported = (events: readonly Event[]): number => {
    for (let i = events.length - 1; i >= 0; i--) {
      const e = events[i]!;
      if (e.type === "compaction" || e.type === "compaction_reset") return 0;
      const recorded = recordedUsages(e).at(-1)?.usage;
      if (typeof recorded?.input_tokens === "number") {
        const output = typeof recorded.output_tokens === "number" ? recorded.output_tokens : 0;
        return recorded.input_tokens + output + deps.counter.events(events.slice(i + 1));
      }
    }
    return 0;
  };

  return async (events) => {
    // Whichever count is higher decides: jp's tokenizer only approximates some providers'.
    const before = Math.max(measure(events), reported(events));
    // Compacting rewrites the cached prefix; when the cache has gone cold that costs nothing
    // extra, so a mechanical compaction that is nearly due is made now rather than later.
    const last = lastResponseAt(events);
    const cold = last !== undefined && deps.now().getTime() - last > limits.cacheTtlMs;
    const trigger =
      cold && !configured?.summary ? Math.floor(limits.budget * (1 - COLD_CACHE_MARGIN)) : limits.budget;
    if (before <= trigger || stopped) return undefined;
    const turnTotal = project(events).turns.length;
    if (turnTotal < limits.minTurns) return undefined;
    let current = [...events];
    let tokens = before;
    const added: Compaction[] = [];
    const parts: string[] = [];
    const record = (c: Compaction, describe: (saved: number) => string) => {
      const next = [...current, c];
      const after = measure(next);
      // A compaction that would not shrink the request is skipped.
      if (after >= tokens) return;
      c.stats = { tokens_before: tokens, tokens_after: after };
      parts.push(describe(tokens - after));
      current = next;
      tokens = after;
      added.push(c);
    };

    const range = earlierTurnsRange(current);
    if (range) {
      const base = configured ? ruleFromConfig(configured, 0) : { rule: mechanical, label: "auto" };
      const rule: CompactionRule = {
        ...base.rule,
        from: { kind: "absolute", index: range.from },
        to: { kind: "absolute", index: range.to },
      };
      delete rule.keepFirst;
      delete rule.keepLast;
      const options = {
        id: deps.newId(),
        timestamp: deps.now().toISOString(),
        now: deps.now().getTime(),
        source: "auto" as const,
        toolHints: deps.hints,
      };
      let plan = planRule(current, rule, options);
      if (plan.kind === "needs_summary") {
        const model = base.summary?.model ?? deps.config.assistant?.model?.id ?? "";
        try {
          const result = await deps.summarizer.summarize({
            events: rawEventsOfTurns(current, plan.range),
            instructions: base.summary?.instructions,
            context: base.summary?.context,
            model,
          });
          const c = { ...plan.complete(result.text, result.model), metadata: summaryBilling(result) };
          record(c, () => `turns ${c.from_turn + 1}–${c.to_turn + 1} summarized`);
          plan = { kind: "nothing", reason: "done" };
        } catch (error) {
          deps.warn(
            `the summary for automatic compaction failed (${error instanceof Error ? error.message : String(error)}); stripping mechanically instead`,
          );
          plan = planRule(current, { ...rule, summary: undefined, ...mechanical }, options);
        }
      }
      if (plan.kind === "ready") {
        const c = plan.compaction;
        record(c, () => `turns ${c.from_turn + 1}–${c.to_turn + 1} stripped`);
      }
    }
    if (tokens > trigger) {
      const strip = planCurrentTurnStrip(current, {
        budget: trigger,
        keepTail: limits.keepTail,
        measure,
        tokens: (evs) => deps.counter.events(evs),
        id: deps.newId(),
        timestamp: deps.now().toISOString(),
        relief: limits.relief,
      });
      if (strip) {
        const strippedBefore = project(current).stats.toolCallsStripped;
        record(
          strip,
          () =>
            `${project([...current, strip]).stats.toolCallsStripped - strippedBefore} tool results stripped`,
        );
      }
    }

    // Too small a saving rewrites the cached prefix for little: leave the request as it is.
    if (added.length > 0 && before - tokens < limits.minSaving) {
      added.length = 0;
      tokens = before;
    }
    if (added.length === 0) {
      fruitless += 1;
      if (fruitless >= MAX_FRUITLESS_ATTEMPTS) {
        stopped = true;
        deps.warn(
          `automatic compaction stopped: ${MAX_FRUITLESS_ATTEMPTS} attempts in a row freed nothing, and the request (${short(before)} tokens) is still over the budget of ${short(limits.budget)}; the provider may refuse it`,
        );
      }
      return undefined;
    }
    fruitless = 0;
    deps.say(`context compacted: ${short(before)} → ${short(tokens)} tokens (${parts.join("; ")})`);
    return added;
  };
}
