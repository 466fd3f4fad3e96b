// Owns planning the rules the assistant proposes through the `compact` tool:
// quotes resolved to raw turns, `keep_last` clamped so the turn in progress
// is never folded, supplied summaries, deferred activation (docs/architecture.md §7).
import type { Compaction, Event, Pin } from "../events/index.js";
import { turnCount, turnsLabel } from "../events/index.js";
import { describeAnchorError, resolveAnchor } from "./anchors.js";
import { planRule, truncateNote, type CompactionRule } from "./plan.js";
import { streamShape } from "./project.js";
import { toolPolicyFor, type ToolHint, type ToolMode } from "./policy.js";

export interface AssistantRule {
  keep_first?: number;
  keep_last?: number;
  before_quote?: string;
  after_quote?: string;
  reasoning?: "strip";
  tool_calls?: ToolMode;
  summary?: string;
  pin_quote?: string;
  note: string;
}

export interface AssistantPlanOptions {
  /** One id per rule. */
  ids: readonly string[];
  /** Milliseconds since the epoch; rule i is stamped i milliseconds later. */
  now: number;
  toolHints?: Readonly<Record<string, ToolHint | undefined>>;
}

export type AssistantPlan =
  { ok: true; compactions: Compaction[]; pins: Pin[] } | { ok: false; error: string };

/** The stream without calls to the compact tool, whose own arguments hold every quote. */
function withoutCompactCalls(events: readonly Event[]): Event[] {
  const ids = new Set(
    events.flatMap((e) => (e.type === "tool_call_request" && e.name === COMPACT_TOOL ? [e.id] : [])),
  );
  return events.filter(
    (e) => !((e.type === "tool_call_request" || e.type === "tool_call_response") && ids.has(e.id)),
  );
}

export const COMPACT_TOOL = "compact";

/** What makes a rule ask for nothing, or for something it cannot do, if anything. */
function ruleShapeProblem(r: AssistantRule): string | undefined {
  if (!r.summary && !r.reasoning && !r.tool_calls)
    return "give at least one of summary, reasoning, tool_calls or pin_quote";
  if (r.summary === undefined || (!r.reasoning && !r.tool_calls)) return undefined;
  const also = [r.reasoning ? "reasoning" : "", r.tool_calls ? "tool_calls" : ""]
    .filter(Boolean)
    .join(" and ");
  return `a summary replaces its turns whole, so ${also} would do nothing there; drop ${also}, or give it a rule of its own for other turns`;
}

/**
 * The raw turn where the last `count` turns the model saw begin: a question
 * that failed before the model saw it is no turn of its view, so it is not
 * counted (and kept with the turns around it).
 */
export function lastSeenTurnsStart(events: readonly Event[], count: number): number {
  const { turnCount, failed } = streamShape(events);
  let seen = 0;
  for (let t = turnCount - 1; t >= 0; t--) {
    if (failed.has(t)) continue;
    seen += 1;
    if (seen === count) return t;
  }
  return 0;
}

/** The core's rule for an assistant's rule, its quotes found in `events`; what is wrong with a quote when one is not. */
function compactionRuleOf(r: AssistantRule, events: readonly Event[]): CompactionRule | string {
  // Keeps count from the ends of the conversation, whatever the quotes choose, in turns the model saw.
  // The turn in progress (the user's request and this very call) is never folded.
  // As positions (a kept position is kept), so they bound whatever the quotes choose rather than add to it.
  const keepFirst = r.keep_first ?? 0;
  const rule: CompactionRule = {
    ...(keepFirst > 0 ? { keepFirst: { kind: "absolute", index: keepFirst - 1 } } : {}),
    keepLast: { kind: "absolute", index: lastSeenTurnsStart(events, Math.max(1, r.keep_last ?? 1)) },
  };
  for (const [field, quote] of [
    ["after_quote", r.after_quote],
    ["before_quote", r.before_quote],
  ] as const) {
    if (quote === undefined) continue;
    const anchor = resolveAnchor(events, quote);
    if (!anchor.ok) return `${field}: ${describeAnchorError(quote, anchor.error)}`;
    if (field === "after_quote") rule.from = { kind: "absolute", index: anchor.turn + 1 };
    else rule.to = { kind: "absolute", index: anchor.turn - 1 };
  }
  if (r.summary !== undefined) rule.summary = { kind: "supplied", text: r.summary, author: "assistant" };
  if (r.reasoning) rule.reasoning = r.reasoning;
  if (r.tool_calls) rule.tool_calls = toolPolicyFor(r.tool_calls);
  return rule;
}

/**
 * Plan every rule in order, each against the stream as extended by the ones
 * before it (so overlapping rules resolve by the core's rules). Any problem is
 * one message for the model; nothing is partly planned.
 */
export function planAssistantRules(
  events: readonly Event[],
  rules: readonly AssistantRule[],
  options: AssistantPlanOptions,
): AssistantPlan {
  let current = [...events];
  const deferredUntilTurn = turnCount(events);
  const compactions: Compaction[] = [];
  const pins: Pin[] = [];
  for (const [i, r] of rules.entries()) {
    const label = rules.length > 1 ? `rule ${i + 1}: ` : "";
    if (r.pin_quote !== undefined) {
      // The pin comes first, so this rule and every later one go around the turn.
      const anchor = resolveAnchor(withoutCompactCalls(current), r.pin_quote);
      if (!anchor.ok)
        return { ok: false, error: `${label}pin_quote: ${describeAnchorError(r.pin_quote, anchor.error)}` };
      const pin: Pin = {
        type: "pin",
        timestamp: new Date(options.now + i).toISOString(),
        turn: anchor.turn,
        pinned: true,
        source: "assistant",
        note: truncateNote(r.note).note,
      };
      pins.push(pin);
      current = [...current, pin];
      if (!r.summary && !r.reasoning && !r.tool_calls) continue;
    }
    const problem = ruleShapeProblem(r);
    if (problem !== undefined) return { ok: false, error: `${label}${problem}` };
    const rule = compactionRuleOf(r, withoutCompactCalls(current));
    if (typeof rule === "string") return { ok: false, error: `${label}${rule}` };
    const timestamp = new Date(options.now + i).toISOString();
    const plan = planRule(current, rule, {
      id: options.ids[i] ?? `a${i}`,
      timestamp,
      now: options.now,
      source: "assistant",
      note: r.note,
      toolHints: options.toolHints,
      deferredUntilTurn,
    });
    if (plan.kind === "nothing") return { ok: false, error: `${label}no turns to compact: ${plan.reason}` };
    if (plan.kind === "refused") {
      const hint = plan.suggestions.map((s) => turnsLabel(s.from, s.to)).join(" or ");
      return {
        ok: false,
        error: `${label}${plan.reason}${hint ? `; a range such as ${hint} avoids it` : ""}`,
      };
    }
    if (plan.kind !== "ready") return { ok: false, error: `${label}a summary must be written in the call` };
    compactions.push(plan.compaction);
    current = [...current, plan.compaction];
  }
  return { ok: true, compactions, pins };
}
