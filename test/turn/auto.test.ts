// The auto-compaction hook without a server: budgets, provider-reported usage, skipping what does not help.
import { beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.js";
import type { Event } from "../../src/events/index.js";
import { createTokenCounter } from "../../src/tokens/count.js";
import { autoBudget, createAutoCompaction } from "../../src/turn/auto.js";
import { resetClock, turn } from "../support/stream.js";

beforeEach(resetClock);

const config = (auto: Record<string, unknown>, model = "openai/gpt-4.1"): Config => ({
  assistant: { model: { id: model } },
  conversation: { compaction: { auto: { enabled: true, ...auto } } },
});

async function hook(cfg: Config) {
  const lines: string[] = [];
  const warnings: string[] = [];
  let n = 0;
  const run = createAutoCompaction({
    config: cfg,
    counter: await createTokenCounter("openai/gpt-4.1", "chars"),
    summarizer: { summarize: () => Promise.reject(new Error("no summaries here")) },
    overhead: 0,
    now: () => new Date("2026-06-01T00:00:00Z"),
    newId: () => `auto${++n}`,
    hints: {},
    say: (l) => lines.push(l),
    warn: (l) => warnings.push(l),
  })!;
  return { run, lines, warnings };
}

const bulky = (): Event[] => [
  ...turn({
    request: "first",
    tools: [{ id: "a", name: "read", result: "x".repeat(4000) }],
    message: "done",
  }),
  ...turn({ request: "second", message: "ok" }),
];

describe("automatic compaction hook", () => {
  it("takes its budget from max_tokens, or trigger_ratio of the context window, with keep_tail half of it", () => {
    expect(autoBudget(config({ max_tokens: 1000 }))).toEqual({ budget: 1000, keepTail: 500, minTurns: 0 });
    expect(autoBudget(config({ trigger_ratio: 0.5 }))).toEqual({
      budget: 523_788,
      keepTail: 261_894,
      minTurns: 0,
    });
    expect(autoBudget({ conversation: { compaction: { auto: { enabled: false } } } })).toBeUndefined();
    expect(() => autoBudget(config({}, "lab/unknown"))).toThrow(
      "automatic compaction is enabled but has no budget",
    );
  });

  it("does nothing under budget and folds earlier turns over it, announcing the figures", async () => {
    const under = await hook(config({ max_tokens: 100_000 }));
    expect(await under.run(bulky())).toBeUndefined();
    const over = await hook(config({ max_tokens: 600 }));
    const added = await over.run(bulky());
    expect(added).toEqual([
      expect.objectContaining({
        type: "compaction",
        source: "auto",
        from_turn: 0,
        to_turn: 0,
        stats: { tokens_before: expect.any(Number), tokens_after: expect.any(Number) },
      }),
    ]);
    expect(over.lines).toEqual([
      expect.stringMatching(/^context compacted: [\d,]+ → [\d,]+ tokens \(turns 1–1 stripped\)$/),
    ]);
  });

  it("triggers on the provider's reported usage when it is higher than jp's own count", async () => {
    const events = bulky();
    const reply = events.findLast((e) => e.type === "chat_response")!;
    reply.metadata = { usage: { input_tokens: 90_000, output_tokens: 10 } };
    const { run } = await hook(config({ max_tokens: 5000 }));
    expect(await run(events)).toHaveLength(1);
  });

  it("skips compactions that would not shrink the request, and stops after three fruitless attempts", async () => {
    const events = turn({ request: "y".repeat(8000) });
    const { run, warnings } = await hook(config({ max_tokens: 100 }));
    for (let i = 0; i < 4; i++) expect(await run(events)).toBeUndefined();
    expect(warnings).toEqual([
      expect.stringContaining("automatic compaction stopped: 3 attempts in a row freed nothing"),
    ]);
  });
});
