// Owns reading back what jp cached of a model: every figure checked for type
// and range, as input from a file anyone could have written, and a figure
// that fails dropped (as unknown) rather than sent to a provider or printed.
// Pure.
import { isJsonObject } from "../events/index.js";
import type { Price } from "../config/schema.js";
import { EFFORTS, type Effort, type Lifecycle, type ModelFacts, type ThinkingModes } from "./capabilities.js";

/** No model's window or output reaches this; a larger figure is not a model's. */
const MOST_TOKENS = 100_000_000;
/** No price per million tokens reaches this (USD). */
const MOST_PRICE = 10_000;
/** A model id or a date is never longer. */
const MOST_CHARS = 200;

const tokens = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isSafeInteger(v) && v > 0 && v <= MOST_TOKENS ? v : undefined;

const bool = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);

/** A short, printable string: an id or a date, never a terminal escape. */
const plain = (v: unknown): string | undefined =>
  typeof v === "string" && v.length <= MOST_CHARS && /^[\x20-\x7e]*$/.test(v) ? v : undefined;

const dated = (v: unknown): string | undefined => {
  const s = plain(v);
  return s !== undefined && /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)) ? s : undefined;
};

const LIFECYCLES: readonly Lifecycle[] = ["active", "deprecated", "retired"];

function thinking(v: unknown): ThinkingModes | undefined {
  if (!isJsonObject(v)) return undefined;
  const [adaptive, enabled, disabled, between_tools] = [v.adaptive, v.enabled, v.disabled, v.between_tools];
  return typeof adaptive === "boolean" &&
    typeof enabled === "boolean" &&
    typeof disabled === "boolean" &&
    typeof between_tools === "boolean"
    ? { adaptive, enabled, disabled, between_tools }
    : undefined;
}

function efforts(v: unknown): readonly Effort[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const known = v.filter((e): e is Effort => EFFORTS.some((effort) => effort === e));
  return known.length === v.length ? known : undefined;
}

function budget(v: unknown): { min: number; max: number } | undefined {
  if (!isJsonObject(v)) return undefined;
  const min = v.min === 0 ? 0 : tokens(v.min);
  const max = tokens(v.max);
  return min !== undefined && max !== undefined && min <= max ? { min, max } : undefined;
}

function price(v: unknown): Price | undefined {
  if (!isJsonObject(v)) return undefined;
  const usd = (x: unknown) =>
    typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= MOST_PRICE ? x : undefined;
  const input = usd(v.input);
  const output = usd(v.output);
  if (input === undefined || output === undefined) return undefined;
  const out: Price = { input, output };
  for (const key of ["cache_read", "cache_write", "cache_write_1h"] as const) {
    if (v[key] === undefined) continue;
    const value = usd(v[key]);
    if (value === undefined) return undefined;
    out[key] = value;
  }
  return out;
}

/** The figures of a cached answer that hold up; each one that does not is left out, as unknown. */
export function checkedFacts(value: unknown): ModelFacts {
  const facts: ModelFacts = {};
  if (!isJsonObject(value)) return facts;
  // Each figure only when it holds up: an absent key is unknown, as an exact optional type wants.
  const put = <K extends keyof ModelFacts>(key: K, figure: ModelFacts[K] | undefined) => {
    if (figure !== undefined) facts[key] = figure;
  };
  put("contextWindow", tokens(value.contextWindow));
  put("maxOutputTokens", tokens(value.maxOutputTokens));
  put("thinking", thinking(value.thinking));
  put("efforts", efforts(value.efforts));
  put("thinkingBudget", budget(value.thinkingBudget));
  for (const key of [
    "forcedToolUse",
    "reasons",
    "preservedThinking",
    "compaction",
    "explicitCaching",
    "notFound",
  ] as const)
    put(key, bool(value[key]));
  put(
    "lifecycle",
    LIFECYCLES.find((l) => l === value.lifecycle),
  );
  put("retiresAt", dated(value.retiresAt));
  put("replacement", plain(value.replacement));
  put("price", price(value.price));
  return facts;
}
