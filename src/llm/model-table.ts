// Owns jp's built-in table of current models: the fallback when the
// provider's model API cannot be asked (offline, a key without access) and
// the only source for what no API reports (prices, forced tool use, a
// retired model's replacement). Figures are the providers' published ones
// (model pages and pricing, as of 2026-12); a name is matched exactly or as
// a dated snapshot of a listed name (`claude-opus-4-5-20251101`), never as a
// substring.
import type { Price } from "../config/schema.js";
import { GPT_OSS_EFFORTS, type Effort, type ModelFacts, type ThinkingModes } from "./capabilities.js";

/** Anthropic's cache multipliers: five-minute writes 1.25x input, hour-long 2x, reads 0.1x. */
function anthropicPrice(input: number, output: number): Price {
  return {
    input,
    output,
    cache_read: input / 10,
    cache_write: input * 1.25,
    cache_write_1h: input * 2,
  };
}

/** OpenAI caches by itself: reads at the cached-input price, writes at the input price. */
function openaiPrice(input: number, output: number, cacheRead: number): Price {
  return { input, output, cache_read: cacheRead };
}

const modes = (...accepted: (keyof ThinkingModes)[]): ThinkingModes => ({
  adaptive: accepted.includes("adaptive"),
  enabled: accepted.includes("enabled"),
  disabled: accepted.includes("disabled"),
  between_tools: accepted.includes("between_tools"),
});

const MILLION = 1_000_000;
const EFFORT_LADDER: readonly Effort[] = ["low", "medium", "high", "xhigh", "max"];
const OLD_EFFORTS: readonly Effort[] = ["low", "medium", "high", "max"];

/** Adaptive-only models from Opus 4.7 on: 1M window, 128K output. */
const adaptive = (price: Price, extra: ModelFacts = {}): ModelFacts => ({
  contextWindow: MILLION,
  maxOutputTokens: 128_000,
  thinking: modes("adaptive", "disabled"),
  efforts: EFFORT_LADDER,
  lifecycle: "active",
  price,
  ...extra,
});

/** Models whose thinking is always on: no off switch, so no forced tool call either. */
const alwaysThinking = (price: Price, extra: ModelFacts = {}): ModelFacts =>
  adaptive(price, { thinking: modes("adaptive"), forcedToolUse: false, ...extra });

/** From Claude Fable 5.1 on, a thinking block is bound to its prefix (platform docs, "Preserved thinking"). */
const PRESERVED: ModelFacts = { preservedThinking: true };

const retired = (replacement: string): ModelFacts => ({ lifecycle: "retired", replacement });

const ANTHROPIC: Readonly<Record<string, ModelFacts>> = {
  "claude-fable-5-2": alwaysThinking(anthropicPrice(8, 40), PRESERVED),
  "claude-fable-5-1": alwaysThinking(anthropicPrice(10, 50), PRESERVED),
  "claude-fable-5": alwaysThinking(anthropicPrice(10, 50)),
  "claude-opus-5-5": alwaysThinking(anthropicPrice(4, 20), PRESERVED),
  // Sonnet 5.5 refuses forced tool use and `disabled`; its "off" is between_tools.
  "claude-sonnet-5-5": adaptive(anthropicPrice(2, 10), {
    thinking: modes("adaptive", "between_tools"),
    forcedToolUse: false,
    ...PRESERVED,
  }),
  "claude-haiku-5-5": adaptive(anthropicPrice(0.1, 0.5), {
    efforts: ["low", "medium", "high"],
    ...PRESERVED,
  }),
  "claude-opus-5": adaptive(anthropicPrice(5, 25)),
  "claude-sonnet-5": adaptive(anthropicPrice(2, 10)),
  "claude-opus-4-8": adaptive(anthropicPrice(5, 25)),
  "claude-opus-4-7": adaptive(anthropicPrice(5, 25)),
  "claude-opus-4-6": adaptive(anthropicPrice(5, 25), {
    thinking: modes("adaptive", "enabled", "disabled"),
    efforts: OLD_EFFORTS,
  }),
  "claude-sonnet-4-6": adaptive(anthropicPrice(3, 15), {
    maxOutputTokens: 64_000,
    thinking: modes("adaptive", "enabled", "disabled"),
    efforts: OLD_EFFORTS,
  }),
  "claude-opus-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinking: modes("enabled", "disabled"),
    efforts: ["low", "medium", "high"],
    lifecycle: "active",
    price: anthropicPrice(5, 25),
  },
  "claude-haiku-4-5": {
    contextWindow: 200_000,
    maxOutputTokens: 64_000,
    thinking: modes("enabled", "disabled"),
    lifecycle: "active",
    price: anthropicPrice(1, 5),
  },
  "claude-sonnet-4-5": retired("anthropic/claude-sonnet-5-5"),
  "claude-opus-4-1": retired("anthropic/claude-opus-5-5"),
  "claude-opus-4": retired("anthropic/claude-opus-5-5"),
  "claude-sonnet-4": retired("anthropic/claude-sonnet-5-5"),
  "claude-3-7-sonnet": retired("anthropic/claude-sonnet-5-5"),
  "claude-3-5-haiku": retired("anthropic/claude-haiku-5-5"),
};

/** A reasoning model of OpenAI's: reasoning tokens come out of `max_output_tokens`. */
const reasoning = (window: number, output: number, price: Price, efforts: readonly Effort[]): ModelFacts => ({
  contextWindow: window,
  maxOutputTokens: output,
  reasons: true,
  efforts,
  lifecycle: "active",
  price,
});

const GPT5_EFFORTS: readonly Effort[] = ["minimal", "low", "medium", "high"];
const GPT55_EFFORTS: readonly Effort[] = ["none", "low", "medium", "high", "xhigh"];

/** The GPT-5.6 family caches explicitly (writes billed; off is said as explicit mode). */
const gpt56 = (window: number, price: Price, efforts: readonly Effort[]): ModelFacts => ({
  ...reasoning(window, 128_000, price, efforts),
  explicitCaching: true,
});

const OPENAI: Readonly<Record<string, ModelFacts>> = {
  "gpt-5.6-sol": gpt56(1_050_000, openaiPrice(8, 40, 0.8), [...GPT55_EFFORTS, "max"]),
  // OpenAI serves the bare name as gpt-5.6-sol (JP's recordings ask for `gpt-5.6`).
  "gpt-5.6": gpt56(1_050_000, openaiPrice(8, 40, 0.8), [...GPT55_EFFORTS, "max"]),
  "gpt-5.6-terra": gpt56(1_050_000, openaiPrice(3, 18, 0.3), GPT55_EFFORTS),
  "gpt-5.6-luna": gpt56(400_000, openaiPrice(0.5, 3, 0.05), GPT55_EFFORTS),
  "gpt-5.5": reasoning(1_050_000, 128_000, openaiPrice(5, 30, 0.5), GPT55_EFFORTS),
  "gpt-5": reasoning(400_000, 128_000, openaiPrice(1.25, 10, 0.125), GPT5_EFFORTS),
  "gpt-5-mini": reasoning(400_000, 128_000, openaiPrice(0.25, 2, 0.025), GPT5_EFFORTS),
  "gpt-5-nano": reasoning(400_000, 128_000, openaiPrice(0.05, 0.4, 0.005), GPT5_EFFORTS),
  o3: reasoning(200_000, 100_000, openaiPrice(2, 8, 0.5), ["low", "medium", "high"]),
  "o4-mini": reasoning(200_000, 100_000, openaiPrice(1.1, 4.4, 0.275), ["low", "medium", "high"]),
  "gpt-4.1": {
    reasons: false,
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    lifecycle: "active",
    price: openaiPrice(2, 8, 0.5),
  },
  "gpt-4.1-mini": {
    reasons: false,
    contextWindow: 1_047_576,
    maxOutputTokens: 32_768,
    lifecycle: "active",
    price: openaiPrice(0.4, 1.6, 0.1),
  },
  "gpt-4o": {
    reasons: false,
    contextWindow: 128_000,
    maxOutputTokens: 16_384,
    lifecycle: "active",
    price: openaiPrice(2.5, 10, 1.25),
  },
};

/** Gemini: 3.x takes thinking levels, 2.5 thinking budgets within its model's range. */
const gemini = (
  output: number,
  price: Price,
  thinking: readonly Effort[] | { min: number; max: number },
): ModelFacts => ({
  contextWindow: 1_048_576,
  maxOutputTokens: output,
  ...("min" in thinking ? { thinkingBudget: thinking } : { efforts: thinking }),
  lifecycle: "active",
  price,
});

const GOOGLE: Readonly<Record<string, ModelFacts>> = {
  "gemini-3-pro-preview": gemini(65_536, { input: 2, output: 12, cache_read: 0.2 }, ["low", "high"]),
  "gemini-3-flash-preview": gemini(65_536, { input: 0.5, output: 3, cache_read: 0.05 }, [
    "minimal",
    "low",
    "medium",
    "high",
  ]),
  // Budgets as Google's thinking guide gives them: 2.5 Pro cannot turn thinking off.
  "gemini-2.5-pro": gemini(65_536, { input: 1.25, output: 10, cache_read: 0.125 }, { min: 128, max: 32_768 }),
  "gemini-2.5-flash": gemini(65_536, { input: 0.3, output: 2.5, cache_read: 0.03 }, { min: 0, max: 24_576 }),
  "gemini-2.5-flash-lite": gemini(
    65_536,
    { input: 0.1, output: 0.4, cache_read: 0.01 },
    { min: 512, max: 24_576 },
  ),
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

/** The built-in facts of `name` at `provider`: an exact entry, or the entry a dated snapshot belongs to. */
export function builtInFacts(provider: string, name: string): ModelFacts | undefined {
  const table = TABLES[provider];
  if (!table) return undefined;
  if (Object.hasOwn(table, name)) return table[name];
  const base = SNAPSHOT.exec(name)?.[1];
  return base !== undefined && Object.hasOwn(table, base) ? table[base] : undefined;
}

/** Every built-in model id (`provider/name`), for listings. */
export function builtInModels(): string[] {
  return Object.entries(TABLES).flatMap(([provider, table]) =>
    Object.keys(table).map((n) => `${provider}/${n}`),
  );
}
