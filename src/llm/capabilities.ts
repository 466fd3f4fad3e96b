// Owns what jp knows of one model: its limits, what it accepts (thinking
// modes, effort levels, forced tool use), its lifecycle and price, each with
// where the figure came from. Figures are merged from three places, the
// first that knows winning: the user's config, the provider's own model
// API (cached), and jp's built-in table.
import { splitModelId } from "../config/models.js";
import type { Price } from "../config/schema.js";

export type Lifecycle = "active" | "deprecated" | "retired";

/** Effort levels, as the providers name them (Anthropic `output_config.effort`, OpenAI `reasoning.effort`). */
export const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
export type Effort = (typeof EFFORTS)[number];

/** gpt-oss always reasons, at low, medium or high (its model card), never "none"; wherever it is served. */
export const GPT_OSS_EFFORTS: readonly Effort[] = ["low", "medium", "high"];

/** The thinking modes a model accepts (Anthropic's `thinking.type`; the Models API reports each on its own). */
export interface ThinkingModes {
  /** The model decides how much to think; the effort steers it. */
  adaptive: boolean;
  /** Manual thinking with a caller-set `budget_tokens`. */
  enabled: boolean;
  /** Thinking off. */
  disabled: boolean;
  /** No up-front thinking; text between tool calls comes back as thinking (Sonnet 5.5's "off"). */
  between_tools: boolean;
}

export interface ModelFacts {
  contextWindow?: number;
  maxOutputTokens?: number;
  /** Absent: nothing is known of it (a setting is sent as configured); every mode false: it does not think. */
  thinking?: ThinkingModes;
  /** The effort levels it accepts; absent when it takes none. */
  efforts?: readonly Effort[];
  /**
   * The thinking budgets it takes (Gemini 2.5): a budget outside is refused;
   * `min` is also its least thinking, what "off" asks of a model that cannot
   * turn thinking off (2.5 Pro), and what JP sends for off everywhere.
   */
  thinkingBudget?: { min: number; max: number };
  /** False on a model that refuses `tool_choice` naming a tool (Sonnet 5.5, always-thinking models). */
  forcedToolUse?: boolean;
  /** An OpenAI reasoning model: reasoning tokens count against the output cap. */
  reasons?: boolean;
  /**
   * The model binds each reasoning block to the request it was written in
   * (Anthropic's preserved thinking): a block whose system prompt, tools or
   * earlier messages changed since is refused, or dropped.
   */
  preservedThinking?: boolean;
  /**
   * The provider writes a summary of the conversation itself on demand
   * (Anthropic's on-demand compaction: the Models API's
   * `capabilities.compaction`, asked with the beta header).
   */
  compaction?: boolean;
  /**
   * The provider clears old tool results itself when asked (Anthropic's
   * context editing, `clear_tool_uses_20250919`: the Models API's
   * `capabilities.context_management.clear_tool_uses_20250919`).
   */
  clearsToolUses?: boolean;
  /**
   * OpenAI's explicit prompt caching (GPT-5.6 on): cache writes are billed,
   * and the only way not to cache is `prompt_cache_options.mode: "explicit"`
   * with no breakpoint marked. Other models reject that field.
   */
  explicitCaching?: boolean;
  /**
   * The reusable system prompt goes as a developer message at the start of
   * the Responses `input`, not as `instructions`: "Starting with GPT-6.2,
   * models append the top-level `instructions` content after `input`… put
   * them in a developer message at the start of `input`"
   * (https://developers.openai.com/api/docs/guides/latest-model).
   */
  developerPrompt?: boolean;
  /**
   * The API drops the model's reasoning after an edit of what came before it
   * or a change of model: "Starting with GPT-6.2, the Responses API drops
   * reasoning items after mid-conversation edits to the conversation history
   * (prefix edits), certain model changes (including downgrades)" (same guide).
   */
  dropsReasoningOnEdit?: boolean;
  lifecycle?: Lifecycle;
  /** RFC 3339: when a deprecated model is to be retired. */
  retiresAt?: string;
  /** The model id (`provider/name`) that replaces a deprecated or retired one. */
  replacement?: string;
  /**
   * The model id (`provider/name`) the provider answers this one with once it
   * is shut down, billed at that model's rates (Google's Gemini 2.5): requests
   * still go, priced as that model, and jp says so.
   */
  routedTo?: string;
  price?: Price;
  /** What the price does not say: a promotion whose end is not announced. */
  priceNote?: string;
  /**
   * The provider's model API answered that it has no such model (404): a
   * misspelt id, or one it stopped listing. Kept with the cached answer; not a
   * capability, so never merged into what a request is built from.
   */
  notFound?: boolean;
}

/** `learned`: what the provider's own refusal taught jp (a thinking setting it refused), kept in the user's cache. */
export type FactSource = "config" | "provider" | "learned" | "data" | "built-in";
export type FactName = keyof ModelFacts;

export interface ModelCapabilities {
  /** provider/name */
  id: string;
  facts: ModelFacts;
  /** Where each known figure came from. */
  sources: Partial<Record<FactName, FactSource>>;
  /** When the provider's answer was fetched, if one was used. */
  fetchedAt?: string;
  /** Which copy of the maintained price data the "data" figures came from, and as of when. */
  data?: { source: string; asOf?: string };
  /** The provider's model API has no model of this name (it answered 404). */
  unknownToProvider?: boolean;
}

const FACT_NAMES = [
  "contextWindow",
  "maxOutputTokens",
  "thinking",
  "efforts",
  "thinkingBudget",
  "forcedToolUse",
  "reasons",
  "preservedThinking",
  "compaction",
  "clearsToolUses",
  "explicitCaching",
  "developerPrompt",
  "dropsReasoningOnEdit",
  "lifecycle",
  "retiresAt",
  "replacement",
  "routedTo",
  "price",
  "priceNote",
] as const satisfies readonly FactName[];

/** Merge the layers, highest first: each figure comes from the first layer that has it. */
export function mergeFacts(
  id: string,
  layers: readonly (readonly [FactSource, ModelFacts | undefined])[],
  fetchedAt?: string,
): ModelCapabilities {
  const facts: ModelFacts = {};
  const sources: Partial<Record<FactName, FactSource>> = {};
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- K ties the read to the write: facts[name] takes layer[name]'s type
  const take = <K extends FactName>(name: K, source: FactSource, layer: ModelFacts) => {
    if (facts[name] !== undefined || layer[name] === undefined) return;
    facts[name] = layer[name];
    sources[name] = source;
  };
  for (const [source, layer] of layers) if (layer) for (const name of FACT_NAMES) take(name, source, layer);
  return { id, facts, sources, ...(fetchedAt ? { fetchedAt } : {}) };
}

/**
 * Whether a forced tool call can be sent. A model that says so is believed;
 * one that cannot turn its thinking off cannot take a forced call (the API
 * refuses forcing while thinking); one jp knows nothing of is asked as before.
 */
export function acceptsForcedTool(facts: ModelFacts): boolean {
  if (facts.forcedToolUse !== undefined) return facts.forcedToolUse;
  const t = facts.thinking;
  if (t && (t.adaptive || t.enabled) && !t.disabled && !t.between_tools) return false;
  return true;
}

/** The accepted effort nearest `wanted` at or below it (or the lowest above), for a model that takes efforts. */
export function nearestEffort(wanted: Effort, accepted: readonly Effort[]): Effort | undefined {
  if (accepted.includes(wanted)) return wanted;
  const rank = EFFORTS.indexOf(wanted);
  const below = accepted
    .filter((e) => EFFORTS.indexOf(e) < rank)
    .sort((a, b) => EFFORTS.indexOf(b) - EFFORTS.indexOf(a));
  if (below[0]) return below[0];
  return [...accepted].sort((a, b) => EFFORTS.indexOf(a) - EFFORTS.indexOf(b))[0];
}

/** The effort a thinking budget stands for, against the response's output cap. */
export function effortOfBudget(budget: number): Effort {
  if (budget < 4096) return "low";
  if (budget < 16_384) return "medium";
  if (budget < 32_768) return "high";
  return "xhigh";
}

/** The thinking budget an effort stands for on a model that takes manual budgets only; fits below `maxTokens`. */
export function budgetOfEffort(effort: Effort, maxTokens: number): number {
  const share: Record<Effort, number> = {
    none: 0,
    minimal: 0.125,
    low: 0.25,
    medium: 0.5,
    high: 0.75,
    xhigh: 0.8,
    max: 0.8,
  };
  return Math.max(1024, Math.floor(maxTokens * share[effort]));
}

/** How long before a model's shutdown a request says so. */
const SHUTDOWN_NOTICE_MS = 60 * 24 * 3600 * 1000;

/**
 * What a model's lifecycle means for a request at `now`: a retired one (or
 * one past its shutdown date) is refused before sending, naming what
 * replaces it; one that shuts down within 60 days, or deprecated with no date
 * given, is warned of with its date. Later shutdowns are `model show`'s to say.
 */
export function lifecycleNotice(
  capabilities: ModelCapabilities,
  now: Date,
): { refusal: string; hint: string } | { warning: string } | undefined {
  const { id, facts } = capabilities;
  const instead = facts.replacement ? `use ${facts.replacement} instead` : "choose a current model";
  const shutdown = facts.retiresAt !== undefined ? Date.parse(facts.retiresAt) : NaN;
  const date = facts.retiresAt?.slice(0, 10);
  const shut = facts.lifecycle === "retired" || shutdown <= now.getTime();
  if (shut && facts.routedTo)
    return {
      warning: `${id} ${date ? `was shut down on ${date}` : "is retired"}: the provider answers it with ${facts.routedTo}, at that model's rates; use ${facts.routedTo}`,
    };
  if (shut)
    return {
      refusal: `${id} ${facts.lifecycle === "retired" ? "is retired" : `was shut down on ${date}`}: the provider no longer serves it, so nothing was sent`,
      hint: `${instead} (-m ${facts.replacement ?? "provider/name"}, or assistant.model.id in the config)`,
    };
  if (facts.lifecycle !== "deprecated" && Number.isNaN(shutdown)) return undefined;
  if (Number.isNaN(shutdown)) return { warning: `${id} is deprecated; ${instead}` };
  if (shutdown - now.getTime() > SHUTDOWN_NOTICE_MS) return undefined;
  return { warning: `${id} shuts down on ${date}; ${instead}` };
}

/**
 * Whether reasoning written by `writer` (a model id, when the log recorded
 * one) may go back to `model`: thinking blocks and encrypted reasoning are
 * tied to the model that wrote them, and another one refuses them.
 */
export function reasoningGoesBack(writer: string | undefined, model: string): boolean {
  if (writer === undefined) return true;
  return (splitModelId(writer)?.name ?? writer) === model;
}
