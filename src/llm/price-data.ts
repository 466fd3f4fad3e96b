// Owns the maintained data jp prices models and knows their windows by:
// @pydantic/genai-prices (prices with long-prompt tiers and dated changes,
// cache reads and writes, context windows; updated weekly). Three copies, the
// first that knows a model winning:
// - the same data fetched since (refreshPriceData), kept in the user's cache (a file per provider);
// - jp's supplement (config/price-supplement.json): models published after the
//   bundled snapshot, in the same format, each with the provider page it comes from;
// - the snapshot taken from the package when jp was built (dist/price-data/, a file per provider).
// A model is found by its exact id first, then by each entry's match rules.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Price, PriceTier } from "../config/schema.js";
import { PACKAGE_ROOT } from "../config/package-root.js";
import { isJsonObject } from "../events/index.js";
import { makeDirWithin, writeJsonAtomic } from "../store/files.js";
import { userCacheDir } from "../user-cache.js";
import { removeFile } from "../remove-file.js";

/** Where the package publishes its data, refreshed weekly. */
export const PRICE_DATA_URL =
  "https://raw.githubusercontent.com/pydantic/genai-prices/main/prices/new_data/v2/data.json";
/** Fetched data older than this is fetched again (after a turn, in the background). */
export const PRICE_DATA_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** jp's provider names as the data names them. */
const DATA_PROVIDER: Readonly<Record<string, string>> = {
  anthropic: "anthropic",
  openai: "openai",
  google: "google",
  openrouter: "openrouter",
  cerebras: "cerebras",
};

/** A rate per million tokens: a number, or a base with the prompt lengths past which another applies. */
type Rate = number | { base: number; tiers: { start: number; price: number }[] };

const usd = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** A rate as the data gives it, checked (the fetched copy is input from the network); undefined if malformed. */
function rateOf(v: unknown): Rate | undefined {
  if (usd(v)) return v;
  if (!isJsonObject(v) || !usd(v.base) || !Array.isArray(v.tiers)) return undefined;
  const tiers = v.tiers.flatMap((t) =>
    isJsonObject(t) && usd(t.price) && Number.isSafeInteger(t.start) && usd(t.start)
      ? [{ start: t.start, price: t.price }]
      : [],
  );
  return tiers.length === v.tiers.length ? { base: v.base, tiers } : undefined;
}

/** One model's entry, checked where jp reads it (the ids, the window, the dated prices). */
interface Entry {
  id: string;
  match: unknown;
  context_window?: number;
  prices:
    Record<string, unknown> | { constraint?: { start_date: string }; prices: Record<string, unknown> }[];
  /** The supplement's: the provider page its figures come from. */
  source?: string;
}

function entryOf(v: unknown): Entry | undefined {
  if (!isJsonObject(v) || typeof v.id !== "string") return undefined;
  const window = v.context_window;
  const prices = v.prices;
  let checked: Entry["prices"] | undefined;
  if (Array.isArray(prices)) {
    const dated = prices.flatMap((p) => {
      if (!isJsonObject(p) || !isJsonObject(p.prices)) return [];
      const c = p.constraint;
      if (c === undefined) return [{ prices: p.prices }];
      return isJsonObject(c) && c.type === "start_date" && typeof c.start_date === "string"
        ? [{ constraint: { start_date: c.start_date }, prices: p.prices }]
        : [];
    });
    if (dated.length === prices.length) checked = dated;
  } else if (isJsonObject(prices)) checked = prices;
  if (!checked) return undefined;
  return {
    id: v.id,
    match: v.match,
    ...(Number.isSafeInteger(window) && typeof window === "number" && window > 0
      ? { context_window: window }
      : {}),
    prices: checked,
    ...(typeof v.source === "string" ? { source: v.source } : {}),
  };
}

/** A copy of the data: where it came from, as of when, and its providers' raw entries. */
export interface DataFile {
  source: string;
  /** When the data was fetched (fetched copies), or the day the supplement's pages were read. */
  as_of?: string;
  providers: { id: string; models: unknown[] }[];
}

function dataFileOf(v: unknown): DataFile | undefined {
  if (!isJsonObject(v) || typeof v.source !== "string" || !Array.isArray(v.providers)) return undefined;
  const providers = v.providers.flatMap((p) =>
    isJsonObject(p) && typeof p.id === "string" && Array.isArray(p.models)
      ? [{ id: p.id, models: p.models }]
      : [],
  );
  return { source: v.source, ...(typeof v.as_of === "string" ? { as_of: v.as_of } : {}), providers };
}

/** What the data says of one model. */
export interface DataFacts {
  contextWindow?: number;
  price?: Price;
  /** Which copy said it: `@pydantic/genai-prices 0.1.8`, fetched data, or jp's supplement (with its page). */
  source: string;
  /** When that copy's figures were read or fetched (YYYY-MM-DD…), where it says. */
  asOf?: string;
}

/** A file per provider, so a command reads only its model's provider (OpenRouter's alone lists 700 models). */
export const bundledPriceData = (dataProvider: string) =>
  path.join(PACKAGE_ROOT, "dist/price-data", `${dataProvider}.json`);
export const PRICE_SUPPLEMENT = path.join(PACKAGE_ROOT, "config/price-supplement.json");
/** The fetched copy, a file per provider, and when it was fetched (`fetched-at`, written last). */
export const fetchedPriceDir = (env: NodeJS.ProcessEnv) => path.join(userCacheDir(env), "price-data");
const fetchedStamp = (env: NodeJS.ProcessEnv) => path.join(fetchedPriceDir(env), "fetched-at");

/** A data file as read; one that is missing, too large or not the data's shape counts as none. */
function readDataFile(file: string): DataFile | undefined {
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile() || stat.size > 20_000_000) return undefined;
    return dataFileOf(JSON.parse(fs.readFileSync(file, "utf8")));
  } catch {
    return undefined;
  }
}

/** genai-prices' match rules: equals, starts_with, ends_with, contains, regex, and/or; case-insensitive but regex. */
export function matchesModel(rule: unknown, name: string): boolean {
  if (!isJsonObject(rule)) return false;
  const lower = name.toLowerCase();
  const text = (key: string) => {
    const value = rule[key];
    return typeof value === "string" ? value.toLowerCase() : undefined;
  };
  if (Array.isArray(rule.or)) return rule.or.some((each) => matchesModel(each, name));
  if (Array.isArray(rule.and)) return rule.and.every((each) => matchesModel(each, name));
  const equals = text("equals");
  if (equals !== undefined) return lower === equals;
  const starts = text("starts_with");
  if (starts !== undefined) return lower.startsWith(starts);
  const ends = text("ends_with");
  if (ends !== undefined) return lower.endsWith(ends);
  const contains = text("contains");
  if (contains !== undefined) return lower.includes(contains);
  if (typeof rule.regex === "string") {
    try {
      return new RegExp(rule.regex).test(name);
    } catch {
      return false;
    }
  }
  return false;
}

/** The prices in force at `now`: the latest dated entry that has started (the first is the oldest). */
function pricesAt(entry: Entry, now: Date): Record<string, unknown> {
  if (!Array.isArray(entry.prices)) return entry.prices;
  let chosen = entry.prices[0]?.prices ?? {};
  for (const dated of entry.prices)
    if (!dated.constraint || Date.parse(dated.constraint.start_date) <= now.getTime()) chosen = dated.prices;
  return chosen;
}

const RATE_KEYS = {
  input: "input_mtok",
  output: "output_mtok",
  cache_read: "cache_read_mtok",
  cache_write: "cache_write_mtok",
  cache_write_1h: "cache_write_1h_mtok",
} as const;
type RateName = keyof typeof RATE_KEYS;
const RATE_NAMES: readonly RateName[] = ["input", "output", "cache_read", "cache_write", "cache_write_1h"];

const baseOf = (rate: Rate) => (typeof rate === "number" ? rate : rate.base);
/** A rate for prompts longer than `start`: the last tier it passes, else its base. */
const rateAbove = (rate: Rate, start: number) =>
  typeof rate === "number" ? rate : (rate.tiers.filter((t) => t.start <= start).at(-1)?.price ?? rate.base);

/**
 * The data's per-key rates as jp's price: the base rates, and a tier at each
 * prompt length where some rate changes (the data tiers each rate apart; a
 * request past a tier's start pays that rate on all its tokens).
 */
export function toPrice(prices: Record<string, unknown>): Price | undefined {
  const rates: Partial<Record<RateName, Rate>> = {};
  for (const name of RATE_NAMES) {
    const rate = rateOf(prices[RATE_KEYS[name]]);
    if (rate !== undefined) rates[name] = rate;
  }
  const { input, output, cache_read, cache_write, cache_write_1h } = rates;
  if (input === undefined || output === undefined) return undefined;
  const at = (start: number | undefined): Omit<Price, "tiers"> => {
    const rate = (r: Rate | undefined) =>
      r === undefined ? undefined : start === undefined ? baseOf(r) : rateAbove(r, start);
    return {
      input: rate(input) ?? 0,
      output: rate(output) ?? 0,
      ...(cache_read !== undefined ? { cache_read: rate(cache_read) } : {}),
      ...(cache_write !== undefined ? { cache_write: rate(cache_write) } : {}),
      ...(cache_write_1h !== undefined ? { cache_write_1h: rate(cache_write_1h) } : {}),
    };
  };
  const starts = Object.values(rates).flatMap((rate) =>
    typeof rate === "number" ? [] : rate.tiers.map((t) => t.start),
  );
  const tiers: PriceTier[] = [...new Set(starts)]
    .sort((a, b) => a - b)
    .map((start) => ({ above: start, ...at(start) }));
  return tiers.length ? { ...at(undefined), tiers } : at(undefined);
}

/** Read once per process: a command asks for several models' facts. */
const read = new Map<string, DataFile | undefined>();

/** The copies of the data that may know `provider`'s models, first that knows a model winning. */
export function priceDataSources(env: NodeJS.ProcessEnv, provider: string): DataFile[] {
  const dataProvider = Object.hasOwn(DATA_PROVIDER, provider) ? DATA_PROVIDER[provider] : undefined;
  if (dataProvider === undefined) return [];
  const files = [
    path.join(fetchedPriceDir(env), `${dataProvider}.json`),
    PRICE_SUPPLEMENT,
    bundledPriceData(dataProvider),
  ];
  return files.flatMap((file) => {
    if (!read.has(file)) read.set(file, readDataFile(file));
    const data = read.get(file);
    return data ? [data] : [];
  });
}

/** What the data says of `provider/name` at `now`; undefined for a provider or model it does not know. */
export function dataFacts(
  provider: string,
  name: string,
  now: Date,
  sources: readonly DataFile[],
): DataFacts | undefined {
  const dataProvider = Object.hasOwn(DATA_PROVIDER, provider) ? DATA_PROVIDER[provider] : undefined;
  if (dataProvider === undefined) return undefined;
  const modelsOf = (data: DataFile) => data.providers.find((p) => p.id === dataProvider)?.models ?? [];
  const lower = name.toLowerCase();
  // An exact id anywhere before a looser match: an older entry's `starts_with` must not price a newer model.
  const found = (exact: boolean) => (m: unknown) =>
    isJsonObject(m) &&
    (exact ? typeof m.id === "string" && m.id.toLowerCase() === lower : matchesModel(m.match, name));
  for (const exact of [true, false])
    for (const data of sources) {
      // Only the entry found is checked in full: a keystroke's worth of work, not 700 entries'.
      const entry = entryOf(modelsOf(data).find(found(exact)));
      if (!entry) continue;
      const price = toPrice(pricesAt(entry, now));
      return {
        ...(entry.context_window !== undefined ? { contextWindow: entry.context_window } : {}),
        ...(price ? { price } : {}),
        source: entry.source ? `${data.source}: ${entry.source}` : data.source,
        ...(data.as_of ? { asOf: data.as_of } : {}),
      };
    }
  return undefined;
}

/** After a failed refresh the data is not asked for again for this long. */
const REFRESH_FAILURE_RETRY_MS = 24 * 3600 * 1000;
const REFRESH_TIMEOUT_MS = 20_000;

/** Where the data is fetched from: JP_PRICE_DATA_URL (a mirror; `off` never fetches), else the package's own. */
export function priceDataUrl(env: NodeJS.ProcessEnv): string | undefined {
  const given = env.JP_PRICE_DATA_URL;
  if (given === "off") return undefined;
  return given || PRICE_DATA_URL;
}

const failureMarker = (env: NodeJS.ProcessEnv) => path.join(fetchedPriceDir(env), "failed-at");

/** How old a file is at `now`, in ms; Infinity when there is none. */
function ageOf(file: string, now: Date): number {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat ? now.getTime() - stat.mtimeMs : Infinity;
}

/** Whether the fetched copy is missing or older than a week, with no failed attempt in the last day. */
export function priceDataStale(env: NodeJS.ProcessEnv, now: Date): boolean {
  if (priceDataUrl(env) === undefined) return false;
  try {
    return (
      ageOf(fetchedStamp(env), now) > PRICE_DATA_MAX_AGE_MS &&
      ageOf(failureMarker(env), now) > REFRESH_FAILURE_RETRY_MS
    );
  } catch {
    return false;
  }
}

/**
 * Fetch the data (the package's published Provider[]), keep the providers jp
 * speaks in the user's cache, and say how many models it holds. A failure is
 * remembered for a day (a marker file), and the copy held so far stays.
 */
export async function refreshPriceData(
  env: NodeJS.ProcessEnv,
  now: Date,
  fetchJson: (url: string, timeoutMs: number) => Promise<unknown>,
): Promise<{ models: number; source: string } | { error: string }> {
  const url = priceDataUrl(env);
  if (url === undefined) return { error: "JP_PRICE_DATA_URL is off" };
  const dir = fetchedPriceDir(env);
  try {
    const answer = await fetchJson(url, REFRESH_TIMEOUT_MS);
    if (!Array.isArray(answer)) throw new Error("the answer is not a list of providers");
    const wanted = new Set(Object.values(DATA_PROVIDER));
    const providers = answer.flatMap((p) =>
      isJsonObject(p) && typeof p.id === "string" && wanted.has(p.id) && Array.isArray(p.models)
        ? [{ id: p.id, models: p.models }]
        : [],
    );
    if (providers.length === 0) throw new Error("the answer names none of the providers jp speaks");
    const source = `genai-prices data from ${new URL(url).host}`;
    makeDirWithin(path.dirname(path.dirname(dir)), dir);
    for (const provider of providers) {
      const file = path.join(dir, `${provider.id}.json`);
      const data: DataFile = { source, as_of: now.toISOString(), providers: [provider] };
      writeJsonAtomic(file, data);
      read.delete(file);
    }
    // Last: a copy cut short by a crash is fetched again at the next turn.
    fs.writeFileSync(fetchedStamp(env), now.toISOString());
    removeFile(failureMarker(env));
    return { models: providers.reduce((n, p) => n + p.models.length, 0), source };
  } catch (error) {
    try {
      makeDirWithin(path.dirname(path.dirname(dir)), dir);
      fs.writeFileSync(failureMarker(env), now.toISOString());
    } catch {
      // A cache folder that cannot be written: the next start tries again.
    }
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
