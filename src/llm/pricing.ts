// Owns turning recorded usage into an estimated cost: prices per million
// tokens, cached input at its own rate; config `prices` by model name prefix.
import { splitModelId } from "../config/models.js";
import type { Price } from "../config/schema.js";
import type { UsageTotals } from "../events/index.js";

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

/** Estimated USD; cache reads and writes fall back to the input price where none is given. */
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
 * has no price. `priceOf` says a model's price (model-info's, from the
 * config and the built-in table).
 */
export function estimateTotalCost(
  byModel: Readonly<Record<string, UsageTotals>>,
  priceOf: (modelId: string) => Price | undefined,
): number | undefined {
  let total = 0;
  for (const [model, totals] of Object.entries(byModel)) {
    const price = priceOf(model);
    if (!price) return undefined;
    total += estimateCost(totals, price);
  }
  return total;
}
