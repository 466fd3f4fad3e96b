// Owns finding out what a model is before a request is built: the config's
// figures, the provider's model API answer (kept in a cache with its age, so
// a later `jp q` does not wait on it), the maintained price data (windows and
// prices, price-data.ts) and the built-in table, merged in that order.
import { shortHash } from "../short-hash.js";
import { userCacheDir } from "../user-cache.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { splitModelId } from "../config/models.js";
import type { Config, ModelOverride, Price } from "../config/schema.js";
import { isJsonObject } from "../events/index.js";
import { makeDirWithin, readJsonFile, writeJsonAtomic } from "../store/files.js";
import { mergeFacts, type ModelCapabilities, type ModelFacts } from "./capabilities.js";
import { checkedFacts } from "./cached-facts.js";
import { builtInFacts } from "./model-table.js";
import { dataFacts, priceDataSources } from "./price-data.js";
import { priceFor } from "./pricing.js";
import type { Provider } from "./types.js";

/** A provider's answer is asked again after a day: limits and lifecycles change rarely. */
export const MODEL_CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** After a failed lookup the API is not asked again for this long: each start would wait on it again. */
export const MODEL_FAILURE_RETRY_MS = 10 * 60 * 1000;

interface CachedModel {
  fetched_at: string;
  /** What the provider said; null when it did not know the model. */
  facts: ModelFacts | null;
  /** When asking last failed (offline, a key without access, an answer jp could not read). */
  failed_at?: string;
}

interface CacheFile {
  /** The API the answers came from: another base URL's answers do not count. */
  base_url: string;
  models: Record<string, CachedModel>;
}

/**
 * Where answers are kept: the user's cache folder, never the workspace's
 * `.jp/`, which a cloned repository could fill with a model "retired" or a
 * window of -5. One file per provider and API address.
 */
export function modelCacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(userCacheDir(env), "models");
}

function cacheFileOf(dir: string, provider: Provider): string {
  const address = shortHash(provider.baseUrl);
  return path.join(dir, `${encodeURIComponent(provider.name)}-${address}.json`);
}

/** `provider/name` of every model a cache file in `dir` holds facts for; a file that cannot be read adds none. */
export function cachedModelIds(dir: string): string[] {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((file) => file.endsWith(".json"));
  } catch {
    return [];
  }
  return files.flatMap((file) => {
    // Named by cacheFileOf: the provider's name URI-encoded, then its API address's hash.
    const provider = decodeURIComponent(file.replace(/-[0-9a-f]{16}\.json$/, ""));
    try {
      const stat = fs.statSync(path.join(dir, file));
      // A cache file is a few kilobytes; anything larger is not jp's and is not read on a keystroke.
      if (!stat.isFile() || stat.size > 1_000_000) return [];
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
      if (!isJsonObject(parsed) || !isJsonObject(parsed.models)) return [];
      return Object.entries(parsed.models)
        .filter(([, entry]) => isJsonObject(entry) && isJsonObject(entry.facts))
        .map(([name]) => `${provider}/${name}`)
        .filter((id) => /^[\x21-\x7e]+$/.test(id));
    } catch {
      return [];
    }
  });
}

export interface ModelLookup {
  /** Its model API is asked; none (no key for it) leaves the config, the data and the table. */
  provider: Provider | undefined;
  cacheDir: string;
  /** Where the user's cache is (the fetched price data). */
  env: NodeJS.ProcessEnv;
  now: () => Date;
  signal?: AbortSignal;
  /** Ask the provider even when a fresh answer is cached (`jp model show --refresh`). */
  refresh?: boolean;
}

/** A time a cache entry says, when it is one. */
const timeOf = (v: unknown): string | undefined =>
  typeof v === "string" && v.length <= 40 && !Number.isNaN(Date.parse(v)) ? v : undefined;

/** One cached answer, checked as untrusted input: its times, and each figure (`checkedFacts`). */
function cachedModel(value: unknown): CachedModel | undefined {
  if (!isJsonObject(value)) return undefined;
  const fetched = timeOf(value.fetched_at);
  if (fetched === undefined) return undefined;
  const failed = timeOf(value.failed_at);
  const facts = value.facts === null ? null : checkedFacts(value.facts);
  return { fetched_at: fetched, facts, ...(failed !== undefined ? { failed_at: failed } : {}) };
}

/** The answers kept for this API; an unreadable, foreign or other API's file counts as none (asked again). */
function readCache(file: string, baseUrl: string): CacheFile {
  const cache: CacheFile = { base_url: baseUrl, models: {} };
  let stored: unknown;
  try {
    stored = readJsonFile<unknown>(file);
  } catch {
    return cache;
  }
  if (!isJsonObject(stored) || stored.base_url !== baseUrl || !isJsonObject(stored.models)) return cache;
  // Built by fromEntries, which defines each key: a model named __proto__ stays a key like any other.
  const models = Object.entries(stored.models).flatMap(([name, value]) => {
    const model = cachedModel(value);
    return model ? [[name, model] as const] : [];
  });
  return { ...cache, models: Object.fromEntries(models) };
}

function writeCache(dir: string, file: string, cache: CacheFile): void {
  try {
    // Never through a link in the workspace's .jp/ (or the user's cache): the folder holding cache/ is where that starts.
    makeDirWithin(path.dirname(path.dirname(dir)), dir);
    writeJsonAtomic(file, cache);
  } catch {
    // A read-only workspace only costs the next start its wait.
  }
}

/**
 * The provider's facts of `name`: the cached answer while it is fresh, else
 * asked (and kept). An API that cannot be reached leaves the facts unknown
 * (or as last known), and the failure is kept for MODEL_FAILURE_RETRY_MS, so
 * the starts meanwhile do not wait on it again.
 */
async function providerFacts(
  name: string,
  lookup: ModelLookup,
): Promise<{ facts?: ModelFacts; fetchedAt?: string }> {
  const provider = lookup.provider;
  if (!provider?.modelFacts) return {};
  const file = cacheFileOf(lookup.cacheDir, provider);
  const cache = readCache(file, provider.baseUrl);
  const entry = Object.hasOwn(cache.models, name) ? cache.models[name] : undefined;
  const age = entry ? lookup.now().getTime() - Date.parse(entry.fetched_at) : Infinity;
  // What was last known counts while it is fresh, whatever happened since: an API that fails never makes an old answer current.
  const known = () =>
    entry?.facts && age >= 0 && age < MODEL_CACHE_MAX_AGE_MS
      ? { facts: entry.facts, fetchedAt: entry.fetched_at }
      : {};
  const fresh = entry?.failed_at === undefined && age >= 0 && age < MODEL_CACHE_MAX_AGE_MS;
  if (entry && !lookup.refresh && fresh) return known();
  const failedAge = entry?.failed_at ? lookup.now().getTime() - Date.parse(entry.failed_at) : Infinity;
  if (!lookup.refresh && failedAge >= 0 && failedAge < MODEL_FAILURE_RETRY_MS) return known();
  let facts: ModelFacts | undefined;
  try {
    facts = await provider.modelFacts(name, lookup.signal ?? new AbortController().signal);
  } catch {
    // Offline, or a key without access: what is cached while fresh, else the table.
    cache.models[name] = {
      fetched_at: entry?.fetched_at ?? lookup.now().toISOString(),
      facts: entry?.facts ?? null,
      failed_at: lookup.now().toISOString(),
    };
    writeCache(lookup.cacheDir, file, cache);
    return known();
  }
  const fetchedAt = lookup.now().toISOString();
  cache.models[name] = { fetched_at: fetchedAt, facts: facts ?? null };
  writeCache(lookup.cacheDir, file, cache);
  return { ...(facts ? { facts } : {}), fetchedAt };
}

/** The config's own figures for a model: its `[models."id"]` table, the active model's window, `prices`. */
export function configFacts(modelId: string, config: Config): ModelFacts {
  const override: ModelOverride | undefined = config.models?.[modelId];
  const facts: ModelFacts = {};
  if (config.assistant?.model?.id === modelId && config.assistant.model.context_window !== undefined)
    facts.contextWindow = config.assistant.model.context_window;
  if (override?.context_window !== undefined) facts.contextWindow = override.context_window;
  if (override?.max_output_tokens !== undefined) facts.maxOutputTokens = override.max_output_tokens;
  if (override?.thinking !== undefined) {
    const accepted = new Set(override.thinking);
    facts.thinking = {
      adaptive: accepted.has("adaptive"),
      enabled: accepted.has("enabled"),
      disabled: accepted.has("disabled"),
      between_tools: accepted.has("between_tools"),
    };
  }
  if (override?.efforts !== undefined) facts.efforts = override.efforts;
  if (override?.forced_tool_use !== undefined) facts.forcedToolUse = override.forced_tool_use;
  if (override?.reasoning !== undefined) facts.reasons = override.reasoning;
  if (override?.preserved_thinking !== undefined) facts.preservedThinking = override.preserved_thinking;
  if (override?.lifecycle !== undefined) facts.lifecycle = override.lifecycle;
  if (override?.retires_at !== undefined) facts.retiresAt = override.retires_at;
  if (override?.replacement !== undefined) facts.replacement = override.replacement;
  const price = override?.price ?? priceFor(modelId, config.prices);
  if (price) facts.price = price;
  return facts;
}

/** What the maintained price data says of `modelId` at `now`: its window and price, and which copy said so. */
function dataLayer(
  modelId: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): { facts?: ModelFacts; data?: ModelCapabilities["data"] } {
  const ref = splitModelId(modelId);
  const found = ref ? dataFacts(ref.provider, ref.name, now, priceDataSources(env, ref.provider)) : undefined;
  if (!found) return {};
  const facts: ModelFacts = {
    ...(found.contextWindow !== undefined ? { contextWindow: found.contextWindow } : {}),
    ...(found.price ? { price: found.price } : {}),
  };
  return { facts, data: { source: found.source, ...(found.asOf ? { asOf: found.asOf } : {}) } };
}

/**
 * Where jp remembers the models whose provider refused a thinking setting jp
 * sent as configured, not knowing the model: the user's cache, never the
 * workspace's (a cloned repository must not turn thinking off).
 */
function refusedThinkingFile(env: NodeJS.ProcessEnv): string {
  return path.join(userCacheDir(env), "refused-thinking.json");
}

/** What refusals taught jp of `modelId`: that it does not think. */
function learnedFacts(modelId: string, env: NodeJS.ProcessEnv): ModelFacts | undefined {
  let stored: unknown;
  try {
    stored = readJsonFile<unknown>(refusedThinkingFile(env));
  } catch {
    return undefined;
  }
  const entry = isJsonObject(stored) && Object.hasOwn(stored, modelId) ? stored[modelId] : undefined;
  if (!isJsonObject(entry) || timeOf(entry.refused_at) === undefined) return undefined;
  return { thinking: { adaptive: false, enabled: false, disabled: false, between_tools: false } };
}

/** Remember that `modelId`'s provider refused thinking (`reason`, its words): later turns send none. */
export function rememberRefusedThinking(
  modelId: string,
  reason: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): string {
  const file = refusedThinkingFile(env);
  let stored: unknown;
  try {
    stored = readJsonFile<unknown>(file);
  } catch {
    stored = {};
  }
  const entries = isJsonObject(stored) ? stored : {};
  const entry = { refused_at: now.toISOString(), reason: reason.slice(0, 300) };
  try {
    makeDirWithin(path.dirname(userCacheDir(env)), userCacheDir(env));
    writeJsonAtomic(file, Object.fromEntries([...Object.entries(entries), [modelId, entry]]));
  } catch {
    // A cache that cannot be written only costs the next turn the same refusal.
  }
  return file;
}

/** What jp knows of `modelId`, each figure from the highest layer that has it. */
export async function modelCapabilities(
  modelId: string,
  config: Config,
  lookup: ModelLookup,
): Promise<ModelCapabilities> {
  const ref = splitModelId(modelId);
  const fromProvider = ref ? await providerFacts(ref.name, lookup) : {};
  const fromData = dataLayer(modelId, lookup.env, lookup.now());
  const merged = mergeFacts(
    modelId,
    [
      ["config", configFacts(modelId, config)],
      ["provider", fromProvider.facts],
      ["learned", learnedFacts(modelId, lookup.env)],
      ["data", fromData.facts],
      ["built-in", ref ? builtInFacts(ref.provider, ref.name) : undefined],
    ],
    fromProvider.fetchedAt,
  );
  routedPrice(merged, config, lookup);
  const usedData = Object.values(merged.sources).includes("data");
  return {
    ...merged,
    ...(usedData && fromData.data ? { data: fromData.data } : {}),
    ...(fromProvider.facts?.notFound === true ? { unknownToProvider: true } : {}),
  };
}

/**
 * A model shut down and answered since by another (`routedTo`) is billed at
 * that model's rates: its price is the other's, from where jp knows it.
 */
function routedPrice(merged: ModelCapabilities, config: Config, lookup: ModelLookup): void {
  const target = merged.facts.routedTo;
  const shutdown = merged.facts.retiresAt ? Date.parse(merged.facts.retiresAt) : NaN;
  if (!target || !(shutdown <= lookup.now().getTime())) return;
  const price = priceOf(target, config, lookup.env, lookup.now());
  if (!price) return;
  merged.facts.price = price;
  merged.sources.price = "data";
}

/**
 * What jp knows of `modelId` without asking anyone (side requests): the
 * config, the price data (with `env`, at `now`) and the built-in table.
 */
export function knownFacts(
  modelId: string,
  config: Config,
  env?: NodeJS.ProcessEnv,
  now = new Date(),
): ModelFacts {
  const ref = splitModelId(modelId);
  return mergeFacts(modelId, [
    ["config", configFacts(modelId, config)],
    ["data", env ? dataLayer(modelId, env, now).facts : undefined],
    ["built-in", ref ? builtInFacts(ref.provider, ref.name) : undefined],
  ]).facts;
}

/** A model's price without asking anyone: the config's, else the price data's, else the built-in table's. */
export function priceOf(
  modelId: string,
  config: Config | undefined,
  env: NodeJS.ProcessEnv,
  now: Date,
): Price | undefined {
  const ref = splitModelId(modelId);
  return (
    (config ? configFacts(modelId, config).price : undefined) ??
    dataLayer(modelId, env, now).facts?.price ??
    (ref ? builtInFacts(ref.provider, ref.name)?.price : undefined)
  );
}
