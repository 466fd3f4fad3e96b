// Owns the token usage a response event records in its metadata
// (`metadata.usage`, `metadata.model`) and how usage adds up.
import { isJsonObject } from "./json.js";
import { isKnown, type Event } from "./kinds.js";
import { DISCARDED_ATTEMPTS_KEY } from "./metadata.js";

/** Usage as recorded on the last event of a model response; input counts every prompt token, cached or not. */
export interface UsageRecord {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  /** Of the cache writes, those kept an hour (priced above five-minute ones). */
  cache_write_1h_tokens?: number;
  /** Of the output, the tokens spent reasoning (OpenAI reports them apart). */
  reasoning_tokens?: number;
  /**
   * What the request cost in USD: as the provider billed it where it says
   * (OpenRouter), else as jp priced it from list prices when it was made (the
   * rates of its prompt's length and of that day).
   */
  cost_usd?: number;
}

export interface UsageTotals {
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  cache_write_1h_tokens: number;
  /** The sum of the requests' recorded costs (`cost_usd`), and how many requests recorded one. */
  cost_usd: number;
  costed_requests: number;
}

export const emptyUsage = (): UsageTotals => ({
  requests: 0,
  input_tokens: 0,
  output_tokens: 0,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  cache_write_1h_tokens: 0,
  cost_usd: 0,
  costed_requests: 0,
});

const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * The usage and model an event records: on the last event of a model
 * response, its own usage and that of the attempts retries threw away; on a
 * failed request, those attempts'. One entry per billed request.
 */
export function recordedUsages(event: Event): { model: string; usage: UsageRecord }[] {
  if (!isKnown(event)) return [];
  const metadata: unknown = event.metadata;
  if (!isJsonObject(metadata)) return [];
  const model = typeof metadata.model === "string" ? metadata.model : "";
  const out: { model: string; usage: UsageRecord }[] = [];
  const discarded = metadata[DISCARDED_ATTEMPTS_KEY];
  if (Array.isArray(discarded))
    for (const usage of discarded) if (isJsonObject(usage)) out.push({ model, usage });
  if (isJsonObject(metadata.usage)) out.push({ model, usage: metadata.usage });
  return out;
}

/** Add one response's usage to `totals` (in place). */
export function addUsage(totals: UsageTotals, usage: UsageRecord): UsageTotals {
  totals.requests += 1;
  totals.input_tokens += count(usage.input_tokens);
  totals.output_tokens += count(usage.output_tokens);
  totals.cache_read_tokens += count(usage.cache_read_tokens);
  totals.cache_write_tokens += count(usage.cache_write_tokens);
  totals.cache_write_1h_tokens += count(usage.cache_write_1h_tokens);
  const cost = usage.cost_usd;
  if (typeof cost === "number" && Number.isFinite(cost) && cost >= 0) {
    totals.cost_usd += cost;
    totals.costed_requests += 1;
  }
  return totals;
}

/** Usage per model over `events`. */
export function usageByModel(events: readonly Event[]): Record<string, UsageTotals> {
  const byModel: Record<string, UsageTotals> = {};
  for (const e of events) {
    for (const { model, usage } of recordedUsages(e)) addUsage((byModel[model] ??= emptyUsage()), usage);
  }
  return byModel;
}

/** The sum of several totals. */
export function sumUsage(all: readonly UsageTotals[]): UsageTotals {
  const sum = emptyUsage();
  for (const t of all) {
    sum.requests += t.requests;
    sum.input_tokens += t.input_tokens;
    sum.output_tokens += t.output_tokens;
    sum.cache_read_tokens += t.cache_read_tokens;
    sum.cache_write_tokens += t.cache_write_tokens;
    sum.cache_write_1h_tokens += t.cache_write_1h_tokens;
    sum.cost_usd += t.cost_usd;
    sum.costed_requests += t.costed_requests;
  }
  return sum;
}

/**
 * The model that wrote each event, by position: a response's events share the
 * model recorded on its last one (`metadata.model`); other events, and
 * responses that recorded none (older or imported logs), have none.
 */
export function responseModels(events: readonly Event[]): (string | undefined)[] {
  const models: (string | undefined)[] = new Array<string | undefined>(events.length).fill(undefined);
  let current: string | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type !== "chat_response" && e.type !== "tool_call_request") {
      current = undefined;
      continue;
    }
    const metadata = isJsonObject(e.metadata) ? e.metadata : {};
    if (typeof metadata.model === "string") current = metadata.model;
    models[i] = current;
  }
  return models;
}
