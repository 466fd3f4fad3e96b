// Owns what a compaction costs the provider's prompt cache: the projected
// request stays identical up to the first event the compaction changes; from
// there on, the provider reads nothing from its cache and writes it again once.

/** Index of the first event where `after` differs from `before` (their common prefix length). */
export function commonPrefixLength(before: readonly unknown[], after: readonly unknown[]): number {
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && (before[i] === after[i] || JSON.stringify(before[i]) === JSON.stringify(after[i]))) i++;
  return i;
}
