// Owns JP's names for a reasoning effort (its config's `reasoning.effort` and
// `jp q -r EFFORT`) as jp's effort levels.

const JP_EFFORTS: Readonly<Record<string, string>> = {
  none: "none",
  off: "none",
  minimal: "minimal",
  xlow: "minimal",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "xhigh",
  max: "max",
  // "Enabled with reasonable defaults if the model supports it" (JP's ReasoningConfig::Auto).
  auto: "auto",
};

/** jp's effort for one of JP's names; undefined for a word that names none. */
export function jpEffortLevel(word: string): string | undefined {
  return Object.hasOwn(JP_EFFORTS, word) ? JP_EFFORTS[word] : undefined;
}

/** JP's effort names, for messages. */
export const JP_EFFORT_NAMES = Object.keys(JP_EFFORTS);
