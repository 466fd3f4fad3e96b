// The nearest known word to a mistyped one, as "did you mean" offers it.
import { describe, expect, it } from "vitest";
import { closest, editDistance } from "../../src/config/zod-walk.js";

/** The nearest candidate by plain edit distance, the first of equals, within the allowed distance. */
function nearestByBruteForce(word: string, candidates: readonly string[]): string | undefined {
  const scored = candidates.map((c) => ({ c, d: editDistance(word.toLowerCase(), c.toLowerCase()) }));
  const best = Math.min(...scored.map((s) => s.d));
  const allowed = Math.max(2, Math.floor(word.length / 3));
  return best <= allowed ? scored.find((s) => s.d === best)?.c : undefined;
}

describe("closest", () => {
  const models = [
    "anthropic/claude-sonnet-5-5",
    "anthropic/claude-opus-5",
    "openai/gpt-5.2",
    "openai/gpt-5.2-mini",
    "google/gemini-3-pro",
    "anthropic/claude-sonnet-4-5",
  ];

  it("offers the nearest model, the first of two as near, and nothing when none is near", () => {
    expect(closest("anthropic/claude-sonet-5-5", models)).toBe("anthropic/claude-sonnet-5-5");
    expect(closest("openai/gpt-5.2-mimi", models)).toBe("openai/gpt-5.2-mini");
    expect(closest("ANTHROPIC/CLAUDE-OPUS-5", models)).toBe("anthropic/claude-opus-5");
    expect(closest("anthropic/claude-sonnet-5-0", models)).toBe("anthropic/claude-sonnet-5-5");
    expect(closest("mistral/large", models)).toBeUndefined();
    expect(closest("x", [])).toBeUndefined();
  });

  it("agrees with comparing every candidate in full", () => {
    const words = ["assistant.modle", "rulez", "gpt", "claude-opus", "anthropic/claude", "openai/gpt-5", "o"];
    const keys = [
      "assistant.model",
      "rules",
      "gpt-5",
      "claude-opus-5",
      "anthropic/claude-opus-5",
      "id",
      "",
      "io",
    ];
    for (const word of [...words, ...models])
      expect(closest(word, [...keys, ...models]), word).toBe(nearestByBruteForce(word, [...keys, ...models]));
  });
});
