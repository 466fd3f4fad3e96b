import { describe, expect, it } from "vitest";
import { checkedFacts } from "../../src/llm/cached-facts.js";

describe("a cached model answer, read as untrusted input", () => {
  it("keeps the figures that hold up", () => {
    const facts = {
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      thinking: { adaptive: false, enabled: true, disabled: true, between_tools: false },
      efforts: ["low", "high"],
      thinkingBudget: { min: 0, max: 24_576 },
      reasons: true,
      lifecycle: "deprecated",
      retiresAt: "2027-01-22T00:00:00Z",
      replacement: "anthropic/claude-opus-5-5",
      price: { input: 3, output: 15, cache_read: 0.3 },
    };
    expect(checkedFacts(facts)).toEqual(facts);
  });

  it("drops each figure that does not, as unknown, and never anything that would change a request or the screen", () => {
    expect(
      checkedFacts({
        contextWindow: -5,
        maxOutputTokens: 77.7,
        thinking: { adaptive: "yes" },
        efforts: ["low", "turbo"],
        thinkingBudget: { min: 9, max: 1 },
        reasons: "true",
        lifecycle: "gone",
        retiresAt: { slice: 1 },
        replacement: "x\u001b]0;pwned\u0007",
        price: { input: 12_000_000_000, output: 1 },
      }),
    ).toEqual({});
    expect(checkedFacts({ maxOutputTokens: "4096", contextWindow: 1e12 })).toEqual({});
    expect(checkedFacts("not an object")).toEqual({});
    expect(checkedFacts(JSON.parse('{"__proto__": {"contextWindow": 5}}'))).toEqual({});
  });
});
