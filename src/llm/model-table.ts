// Owns jp's built-in table of current models: what no data source reports
// (thinking types and effort levels, forced tool use, the provider's off
// switch, preserved thinking, output caps the APIs do not give) and each
// model's lifecycle with its replacement, from the providers' deprecation
// pages (as of 2026-12-04). Windows and prices come from the maintained price
// data (price-data.ts) and the providers' model APIs. A name is matched
// exactly, as a dated snapshot of a listed name (`claude-opus-4-5-20251101`) or
// as its alias (`claude-sonnet-4-0`, `-latest`), never as a substring.
import { GPT_OSS_EFFORTS, type Effort, type ModelFacts, type ThinkingModes } from "./capabilities.js";

const modes = (...accepted: (keyof ThinkingModes)[]): ThinkingModes => ({
  adaptive: accepted.includes("adaptive"),
  enabled: accepted.includes("enabled"),
  disabled: accepted.includes("disabled"),
  between_tools: accepted.includes("between_tools"),
});

const EFFORT_LADDER: readonly Effort[] = ["low", "medium", "high", "xhigh", "max"];
const OLD_EFFORTS: readonly Effort[] = ["low", "medium", "high", "max"];

/** Adaptive-only models from Opus 4.7 on: 128K output. */
const adaptive = (extra: ModelFacts = {}): ModelFacts => ({
  maxOutputTokens: 128_000,
  thinking: modes("adaptive", "disabled"),
  efforts: EFFORT_LADDER,
  lifecycle: "active",
  ...extra,
});

/** Models whose thinking is always on: no off switch, so no forced tool call either. */
const alwaysThinking = (extra: ModelFacts = {}): ModelFacts =>
  adaptive({ thinking: modes("adaptive"), forcedToolUse: false, ...extra });

/** From Claude Fable 5.1 on, a thinking block is bound to its prefix (platform docs, "Preserved thinking"). */
const PRESERVED: ModelFacts = { preservedThinking: true };

/**
 * On-demand compaction's supported models, as its page lists them
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand,
 * beta compact-2026-09-04); the Models API's `capabilities.compaction` wins.
 * Fable 5.2 is not listed: unknown until the Models API says.
 */
const COMPACTS: ModelFacts = { compaction: true };

/**
 * Context editing's supported models, as its page lists them
 * (https://platform.claude.com/docs/en/build-with-claude/context-editing,
 * beta context-management-2025-06-27); the Models API's
 * `capabilities.context_management.clear_tool_uses_20250919` wins. Fable 5.2
 * is not listed: unknown until the Models API says.
 */
const CLEARS: ModelFacts = { clearsToolUses: true };

const retired = (replacement: string): ModelFacts => ({ lifecycle: "retired", replacement });
/** Shut down on `date`, and answered since by `target` at its rates. */
const routed = (date: string, target: string): ModelFacts => ({
  lifecycle: "retired",
  retiresAt: `${date}T00:00:00Z`,
  replacement: target,
  routedTo: target,
});
/** Announced for shutdown on `date` (YYYY-MM-DD); `replacement` is the provider's recommendation. */
const deprecated = (date: string, replacement: string): ModelFacts => ({
  lifecycle: "deprecated",
  retiresAt: `${date}T00:00:00Z`,
  replacement,
});

const ANTHROPIC: Readonly<Record<string, ModelFacts>> = {
  "claude-fable-5-2": alwaysThinking(PRESERVED),
  "claude-fable-5-1": alwaysThinking({ ...PRESERVED, ...COMPACTS, ...CLEARS }),
  "claude-fable-5": alwaysThinking({ ...COMPACTS, ...CLEARS }),
  "claude-opus-5-5": alwaysThinking({ ...PRESERVED, ...COMPACTS, ...CLEARS }),
  // Sonnet 5.5 refuses forced tool use and `disabled`; its "off" is between_tools.
  "claude-sonnet-5-5": adaptive({
    thinking: modes("adaptive", "between_tools"),
    forcedToolUse: false,
    ...PRESERVED,
    ...COMPACTS,
    ...CLEARS,
  }),
  // The first Haiku with effort levels: low to max.
  "claude-haiku-5-5": adaptive({ ...PRESERVED, ...COMPACTS, ...CLEARS }),
  "claude-opus-5": adaptive({ ...COMPACTS, ...CLEARS }),
  "claude-sonnet-5": adaptive({ ...COMPACTS, ...CLEARS }),
  "claude-opus-4-8": adaptive({ ...COMPACTS, ...CLEARS }),
  "claude-opus-4-7": adaptive({ ...COMPACTS, ...CLEARS }),
  "claude-opus-4-6": adaptive({
    thinking: modes("adaptive", "enabled", "disabled"),
    efforts: OLD_EFFORTS,
    ...COMPACTS,
    ...CLEARS,
  }),
  "claude-sonnet-4-6": adaptive({
    maxOutputTokens: 64_000,
    thinking: modes("adaptive", "enabled", "disabled"),
    efforts: OLD_EFFORTS,
    ...COMPACTS,
    ...CLEARS,
  }),
  "claude-opus-4-5": {
    maxOutputTokens: 64_000,
    thinking: modes("enabled", "disabled"),
    efforts: ["low", "medium", "high"],
    ...CLEARS,
    ...deprecated("2027-01-22", "anthropic/claude-opus-5-5"),
  },
  "claude-haiku-4-5": {
    maxOutputTokens: 64_000,
    thinking: modes("enabled", "disabled"),
    lifecycle: "active",
    ...CLEARS,
  },
  "claude-sonnet-4-5": retired("anthropic/claude-sonnet-5-5"),
  "claude-opus-4-1": retired("anthropic/claude-opus-5-5"),
  "claude-opus-4": retired("anthropic/claude-opus-5-5"),
  "claude-sonnet-4": retired("anthropic/claude-sonnet-5-5"),
  "claude-3-7-sonnet": retired("anthropic/claude-sonnet-5-5"),
  "claude-3-5-haiku": retired("anthropic/claude-haiku-5-5"),
};

/** A reasoning model of OpenAI's: reasoning tokens come out of `max_output_tokens`. */
const reasoning = (output: number, efforts: readonly Effort[], extra: ModelFacts = {}): ModelFacts => ({
  maxOutputTokens: output,
  reasons: true,
  efforts,
  lifecycle: "active",
  ...extra,
});

const GPT5_EFFORTS: readonly Effort[] = ["minimal", "low", "medium", "high"];
const GPT55_EFFORTS: readonly Effort[] = ["none", "low", "medium", "high", "xhigh"];
const GPT6_EFFORTS: readonly Effort[] = ["none", "low", "medium", "high", "xhigh", "max"];
/** GPT-6.1 Sol and the 6.2 models refuse `none` (and `minimal`). */
const GPT62_EFFORTS: readonly Effort[] = ["low", "medium", "high", "xhigh", "max"];

/** From GPT-5.6 on, caching is explicit (writes billed; off is said as explicit mode). */
const explicit = (efforts: readonly Effort[], extra: ModelFacts = {}): ModelFacts =>
  reasoning(128_000, efforts, { explicitCaching: true, ...extra });

/**
 * From GPT-6.2 on, `instructions` come after `input` (the system prompt goes
 * first in `input`, as a developer message), and reasoning is dropped after a
 * prefix edit or a model change (OpenAI's latest-model guide).
 */
const GPT62: ModelFacts = { developerPrompt: true, dropsReasoningOnEdit: true };

/**
 * GPT-5.6 Sol's price since 2026-08-21 ($4 / $20) is a promotion OpenAI's
 * model page says is "available at least until November 21, 2026"
 * (https://developers.openai.com/api/docs/models/gpt-5.6-sol); no end was
 * announced where jp could check, so the price data keeps it, with this said.
 */
const GPT56_SOL_PROMOTION =
  "a promotional price, guaranteed by OpenAI only through 2026-11-21; its end is unconfirmed (the list price was $5 / $30)";

const OPENAI: Readonly<Record<string, ModelFacts>> = {
  "gpt-6.2-sol": explicit(GPT62_EFFORTS, GPT62),
  "gpt-6.2-astra": explicit(GPT62_EFFORTS, GPT62),
  "gpt-6.1-sol": explicit(GPT62_EFFORTS),
  "gpt-6.1-terra": explicit(GPT6_EFFORTS),
  "gpt-6-astra": explicit(GPT6_EFFORTS),
  "gpt-6-sol": explicit(GPT6_EFFORTS),
  "gpt-6-luna": explicit(GPT6_EFFORTS),
  "gpt-5.6-sol": explicit([...GPT55_EFFORTS, "max"], { priceNote: GPT56_SOL_PROMOTION }),
  // OpenAI serves the bare name as gpt-5.6-sol (JP's recordings ask for `gpt-5.6`).
  "gpt-5.6": explicit([...GPT55_EFFORTS, "max"], { priceNote: GPT56_SOL_PROMOTION }),
  "gpt-5.6-terra": explicit(GPT55_EFFORTS),
  "gpt-5.6-luna": explicit(GPT55_EFFORTS),
  "gpt-5.5": reasoning(128_000, GPT55_EFFORTS),
  // OpenAI's deprecations page: gpt-5 and o3 shut down on 2026-12-11.
  "gpt-5": reasoning(128_000, GPT5_EFFORTS, deprecated("2026-12-11", "openai/gpt-6.1-sol")),
  "gpt-5-mini": reasoning(128_000, GPT5_EFFORTS, deprecated("2026-12-11", "openai/gpt-6.1-terra")),
  "gpt-5-nano": reasoning(128_000, GPT5_EFFORTS, deprecated("2026-12-11", "openai/gpt-6-luna")),
  o3: reasoning(100_000, ["low", "medium", "high"], deprecated("2026-12-11", "openai/gpt-6.1-sol")),
  "o4-mini": retired("openai/gpt-5.6-terra"),
  "gpt-4.1": { reasons: false, maxOutputTokens: 32_768, ...deprecated("2027-01-14", "openai/gpt-6-luna") },
  "gpt-4.1-mini": {
    reasons: false,
    maxOutputTokens: 32_768,
    ...deprecated("2027-01-14", "openai/gpt-6-luna"),
  },
  "gpt-4o": { reasons: false, maxOutputTokens: 16_384, ...deprecated("2027-01-14", "openai/gpt-6-luna") },
};

/** Gemini: 3.x and 4 take thinking levels, 2.5 thinking budgets within its model's range. */
const gemini = (output: number, thinking: readonly Effort[] | { min: number; max: number }): ModelFacts => ({
  maxOutputTokens: output,
  ...("min" in thinking ? { thinkingBudget: thinking } : { efforts: thinking }),
  lifecycle: "active",
});

const FLASH_LEVELS: readonly Effort[] = ["minimal", "low", "medium", "high"];

const GOOGLE: Readonly<Record<string, ModelFacts>> = {
  // Gemini 4 Argon takes thinking_level only (low, medium, high), never a budget.
  "gemini-4-argon": gemini(65_536, ["low", "medium", "high"]),
  // GA on 2026-11-10, with Argon's window, output cap and three thinking levels.
  "gemini-4-carbon": { ...gemini(65_536, ["low", "medium", "high"]), contextWindow: 1_048_576 },
  // Its model page: input limit 1,048,576, output 65,536 (the price data has no window for it).
  "gemini-3.1-pro-preview": { ...gemini(65_536, ["low", "high"]), contextWindow: 1_048_576 },
  "gemini-3.8-flash": gemini(65_536, FLASH_LEVELS),
  "gemini-3.7-flash": gemini(65_536, FLASH_LEVELS),
  "gemini-3.6-flash": gemini(65_536, FLASH_LEVELS),
  "gemini-3.5-flash": gemini(65_536, FLASH_LEVELS),
  // Shut down on 2026-03-09 (Google's Gemini deprecations).
  "gemini-3-pro-preview": retired("google/gemini-3.1-pro-preview"),
  "gemini-3-flash-preview": gemini(65_536, FLASH_LEVELS),
  // Budgets as Google's thinking guide gives them: 2.5 Pro cannot turn thinking off. Both were shut
  // down on 2026-12-01; Google answers them since with the model named, billed at its rates (the
  // Gemini deprecations page as reported on 2026-11-10; its own text was not at hand to check).
  "gemini-2.5-pro": {
    ...gemini(65_536, { min: 128, max: 32_768 }),
    contextWindow: 1_048_576,
    ...routed("2026-12-01", "google/gemini-3.8-flash"),
  },
  "gemini-2.5-flash": {
    ...gemini(65_536, { min: 0, max: 24_576 }),
    ...routed("2026-12-01", "google/gemini-3.5-flash-lite"),
  },
  "gemini-2.5-flash-lite": gemini(65_536, { min: 512, max: 24_576 }),
};

/** Cerebras's list gives windows and prices; what it does not say is here. */
const CEREBRAS: Readonly<Record<string, ModelFacts>> = {
  "gpt-oss-120b": { reasons: true, efforts: GPT_OSS_EFFORTS },
};

const TABLES: Readonly<Record<string, Readonly<Record<string, ModelFacts>>>> = {
  anthropic: ANTHROPIC,
  openai: OPENAI,
  google: GOOGLE,
  cerebras: CEREBRAS,
};

/** A dated snapshot of a listed name: `claude-opus-4-5-20251101`, `gpt-4.1-2025-04-14`. */
const SNAPSHOT = /^(.+?)-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/** An alias of a listed name: `claude-sonnet-4-0` (Anthropic's for claude-sonnet-4), `claude-3-7-sonnet-latest`. */
const ALIAS = /^(.+?)-(?:0|latest)$/;

/** The built-in facts of `name` at `provider`: an exact entry, or the entry a dated snapshot or an alias belongs to. */
export function builtInFacts(provider: string, name: string): ModelFacts | undefined {
  const table = TABLES[provider];
  if (!table) return undefined;
  if (Object.hasOwn(table, name)) return table[name];
  const base = SNAPSHOT.exec(name)?.[1] ?? ALIAS.exec(name)?.[1];
  return base !== undefined && Object.hasOwn(table, base) ? table[base] : undefined;
}

/** The built-in model ids (`provider/name`) a request may still go to: all but the retired. */
export function currentBuiltInModels(): string[] {
  return builtInModels().filter((id) => {
    const [provider = "", name = ""] = id.split("/", 2);
    return builtInFacts(provider, name)?.lifecycle !== "retired";
  });
}

/** Every built-in model id (`provider/name`), for listings. */
export function builtInModels(): string[] {
  return Object.entries(TABLES).flatMap(([provider, table]) =>
    Object.keys(table).map((n) => `${provider}/${n}`),
  );
}
