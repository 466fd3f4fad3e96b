// Owns the one-line usage summary: `in 12.3k (11.8k cached) · out 412 · ≈$0.006`.
import type { UsageTotals } from "../events/index.js";

const compact = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n));

export function formatCost(usd: number): string {
  return usd >= 1 ? `$${usd.toFixed(2)}` : usd >= 0.01 ? `$${usd.toFixed(3)}` : `$${usd.toFixed(4)}`;
}

export function usageLine(totals: UsageTotals, cost: number | undefined): string {
  const cached = totals.cache_read_tokens ? ` (${compact(totals.cache_read_tokens)} cached)` : "";
  const parts = [`in ${compact(totals.input_tokens)}${cached}`, `out ${compact(totals.output_tokens)}`];
  // An estimate from list prices, never a bill.
  if (cost !== undefined) parts.push(`≈${formatCost(cost)}`);
  return parts.join(" · ");
}
