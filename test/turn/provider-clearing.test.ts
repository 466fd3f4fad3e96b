// Clearing left to the provider (context editing) is asked for in bulk: each
// request asks for what the one before it asked until the request as read
// passes the trigger again, then for every result older than the tail at once.
import { beforeEach, describe, expect, it } from "vitest";
import { createTokenCounter } from "../../src/tokens/count.js";
import { clearedResults, type ProviderClearing } from "../../src/turn/provider-clearing.js";
import { resetClock, turn } from "../support/stream.js";

/** One question and `steps` tool results of 100 tokens each (chars/4), the turn in progress. */
const agentTurn = (steps: number) =>
  turn({
    request: "read them all",
    tools: Array.from({ length: steps }, (_, i) => ({ id: `c${i}`, name: "read", result: "x".repeat(396) })),
  });

async function policy(options: Partial<ProviderClearing> = {}): Promise<ProviderClearing> {
  return {
    trigger: 1000,
    keepTail: 300,
    keep: 3,
    clearAtLeast: 200,
    counter: await createTokenCounter("openai/gpt-4.1", "chars"),
    ...options,
  };
}

/** What each request of the turn asks to clear: after each step's result. */
function perRequest(steps: number, p: ProviderClearing): number[] {
  const events = agentTurn(steps);
  const points = events.flatMap((e, i) => (e.type === "tool_call_response" ? [i + 1] : []));
  return points.map((end) => clearedResults(events.slice(0, end), p, 0));
}

describe("clearing left to the provider", () => {
  beforeEach(() => {
    resetClock();
  });

  it("clears nothing under the trigger, then every result older than the tail at once, and the same until the next", async () => {
    const cleared = perRequest(30, await policy());
    // Under 1,000 tokens for the first nine steps: nothing.
    expect(cleared.slice(0, 8).every((n) => n === 0)).toBe(true);
    const changes = cleared.flatMap((n, i) => (i > 0 && n !== cleared[i - 1] ? [n - cleared[i - 1]!] : []));
    // A few clearings in bulk (each several results), not one result more with every step.
    expect(changes.length).toBeGreaterThan(1);
    expect(changes.length).toBeLessThan(8);
    expect(changes.every((step) => step >= 3)).toBe(true);
    // Never what the last `keep` results or the tail hold.
    cleared.forEach((n, i) => {
      expect(n).toBeLessThanOrEqual(Math.max(0, i + 1 - 3));
    });
  });

  it("asks for no clearing that frees less than clear_at_least", async () => {
    expect(perRequest(30, await policy({ clearAtLeast: 5000 })).every((n) => n === 0)).toBe(true);
  });

  it("keeps the last `keep` results whatever the tail", async () => {
    const cleared = perRequest(12, await policy({ trigger: 0, keepTail: 0, keep: 5, clearAtLeast: 0 }));
    cleared.forEach((n, i) => {
      expect(n).toBeLessThanOrEqual(Math.max(0, i + 1 - 5));
    });
    expect(cleared.at(-1)).toBe(7);
  });
});
