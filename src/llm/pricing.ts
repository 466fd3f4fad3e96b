// Owns turning recorded usage into an estimated cost: prices per million
// tokens, cached input at its own rate; config `prices` by model name prefix.
import { splitModelId } from "../config/models.js";
import type { Price } from "../config/schema.js";
import { addUsage, emptyUsage, type UsageRecord, type UsageTotals } from "../events/index.js";

/** The price of a model id (`provider/name`): the longest `prices` key that starts its name. */
export function priceFor(
  modelId: string,
  prices: Readonly<Record<string, Price>> | undefined,
): Price | undefined {
  const name = splitModelId(modelId)?.name ?? modelId;
  let best: string | undefined;
  for (const key of Object.keys(prices ?? {}))
    if (name.startsWith(key) && (best === undefined || key.length > best.length)) best = key;
  return best === undefined ? undefined : prices![best];
}

/**
 * Hour-long cache writes cost 2x input at Anthropic, five-minute ones 1.25x:
 * without a price of their own, 1.6x the five-minute price.
 */
const HOUR_WRITE_FACTOR = 2 / 1.25;

/**
 * The rates a request pays: a long prompt (more than a tier's `above`,
 * cached tokens included) pays its tier's rates on every token, where the
 * tier gives them (the highest tier it passes).
 */
export function ratesFor(price: Price, promptTokens: number): Price {
  const { tiers, ...base } = price;
  let rates: Price = base;
  for (const tier of [...(tiers ?? [])].sort((a, b) => a.above - b.above)) {
    if (promptTokens <= tier.above) break;
    const { above: _above, ...given } = tier;
    rates = { ...rates, ...given };
  }
  return rates;
}

/** Estimated USD of one request at the rates its prompt falls in. */
export function requestCost(usage: UsageRecord, price: Price): number {
  const totals = addUsage(emptyUsage(), usage);
  return estimateCost(totals, ratesFor(price, totals.input_tokens));
}

/**
 * Estimated USD; cache reads and writes fall back to the input price where
 * none is given. Totals of several requests are priced at the base rates
 * (their prompts' lengths are not kept): a request's own cost is requestCost's.
 */
export function estimateCost(totals: UsageTotals, price: Price): number {
  const fresh = Math.max(0, totals.input_tokens - totals.cache_read_tokens - totals.cache_write_tokens);
  const hourWrites = Math.min(totals.cache_write_1h_tokens, totals.cache_write_tokens);
  const writePrice = price.cache_write ?? price.input;
  return (
    (fresh * price.input +
      totals.cache_read_tokens * (price.cache_read ?? price.input) +
      (totals.cache_write_tokens - hourWrites) * writePrice +
      hourWrites * (price.cache_write_1h ?? writePrice * HOUR_WRITE_FACTOR) +
      totals.output_tokens * price.output) /
    1_000_000
  );
}

/**
 * Estimated USD of usage per model, or undefined when a model that was used
 * has neither recorded costs nor a price. A request that recorded its cost
 * (as billed, or as priced when it was made) counts at that; the others of a
 * model at `priceOf`'s base rates, as a share of its totals.
 */
export function estimateTotalCost(
  byModel: Readonly<Record<string, UsageTotals>>,
  priceOf: (modelId: string) => Price | undefined,
): number | undefined {
  let total = 0;
  for (const [model, totals] of Object.entries(byModel)) {
    total += totals.cost_usd;
    const uncosted = totals.requests - totals.costed_requests;
    if (uncosted <= 0) continue;
    const price = priceOf(model);
    if (!price) return undefined;
    total += estimateCost(totals, price) * (uncosted / totals.requests);
  }
  return total;
}
