// Owns what a compaction costs the provider's prompt cache: the projected
// request stays identical up to the first event the compaction changes; from
// there on, the provider reads nothing from its cache and writes it again once.
import type { Event } from "../events/index.js";
import type { TokenCounter } from "./count.js";

/** Index of the first event where `after` differs from `before` (their common prefix length). */
function commonPrefixLength(before: readonly Event[], after: readonly Event[]): number {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && (before[i] === after[i] || JSON.stringify(before[i]) === JSON.stringify(after[i]))) i++;
  return i;
}

/** Tokens the provider writes to its cache again when the view `before` becomes `after`. */
export function cacheRewriteTokens(
  counter: TokenCounter,
  before: readonly Event[],
  after: readonly Event[],
): number {
  return counter.events(after.slice(commonPrefixLength(before, after)));
}
