// The auto-compaction hook without a server: budgets, provider-reported usage, skipping what does not help.
import { beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.js";
import type { Event } from "../../src/events/index.js";
import { createTokenCounter } from "../../src/tokens/count.js";
import { autoBudget, createAutoCompaction } from "../../src/turn/auto-compaction.js";
import { compaction, resetClock, turn } from "../support/stream.js";
import {
  anyNumber,
  anyString,
  objectContaining,
  stringContaining,
  stringMatching,
} from "../support/matchers.js";

beforeEach(resetClock);

const config = (auto: Record<string, unknown>, model = "openai/gpt-4.1"): Config => ({
  assistant: { model: { id: model } },
  conversation: { compaction: { auto: { enabled: true, ...auto } } },
});

/**
 * The hook under `cfg`, with what it says kept. Its summarizer refuses unless
 * one is given; `asked` holds how many events each summary request carried.
 */
async function hook(
  cfg: Config,
  {
    summarize = () => Promise.reject(new Error("no summaries here")),
    contextWindow = 1_047_576,
  }: { summarize?: () => Promise<{ text: string; model: string }>; contextWindow?: number } = {},
) {
  const lines: string[] = [];
  const warnings: string[] = [];
  const asked: number[] = [];
  let n = 0;
  const run = createAutoCompaction({
    config: cfg,
    counter: await createTokenCounter("openai/gpt-4.1", "chars"),
    summarizer: {
      summarize: (request) => {
        asked.push(request.events.length);
        return summarize();
      },
    },
    frame: { tools: [], capOf: () => Number.MAX_SAFE_INTEGER },
    contextWindow,
    now: () => new Date("2026-06-01T00:00:00Z"),
    newId: () => `auto${++n}`,
    hints: {},
    say: (l) => lines.push(l),
    warn: (l) => warnings.push(l),
  })!;
  return { run, lines, warnings, asked };
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
  it("takes its budget from max_tokens, or trigger_ratio of the context window, with keep_tail half of it and min_saving a fifth", () => {
    expect(autoBudget(config({ max_tokens: 1000 }), undefined)).toEqual({
      budget: 1000,
      keepTail: 500,
      minTurns: 0,
      minSaving: 200,
      relief: "tail",
      cacheTtlMs: 300_000,
    });
    expect(autoBudget(config({ trigger_ratio: 0.5 }), 1_047_576)).toMatchObject({
      budget: 523_788,
      keepTail: 261_894,
      minTurns: 0,
      minSaving: 104_757,
    });
    expect(autoBudget({ conversation: { compaction: { auto: { enabled: false } } } }, 1000)).toBeUndefined();
    // An unknown window leaves it without a budget (jp q says so), never a config failure.
    expect(autoBudget(config({}, "lab/unknown"), undefined)).toBeUndefined();
  });

  it("does nothing under budget and folds earlier turns over it, announcing the figures", async () => {
    const under = await hook(config({ max_tokens: 100_000 }));
    expect(await under.run(bulky())).toBeUndefined();
    const over = await hook(config({ max_tokens: 600 }));
    const added = await over.run(bulky());
    expect(added).toEqual([
      objectContaining({
        type: "compaction",
        source: "auto",
        from_turn: 0,
        to_turn: 0,
        stats: { tokens_before: anyNumber, tokens_after: anyNumber },
      }),
    ]);
    expect(over.lines).toEqual([
      stringMatching(/^context compacted: [\d,]+ → [\d,]+ tokens \(turns 1–1 stripped\)$/),
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
      stringContaining("automatic compaction stopped: 3 attempts in a row freed nothing"),
    ]);
  });
});

/** One agent turn: a request, then `steps` tool calls of about 1,250 tokens each (chars/4), timed `ageMs` before the hook's now. */
function agentTurn(steps: number, ageMs = 1000): Event[] {
  const at = new Date(Date.parse("2026-06-01T00:00:00Z") - ageMs).toISOString();
  const events: Event[] = [
    { type: "turn_start", timestamp: at },
    { type: "chat_request", timestamp: at, content: "work through the files" },
  ];
  for (let i = 0; i < steps; i++) events.push(...step(i, at));
  return events;
}

function step(i: number, at: string): Event[] {
  return [
    { type: "tool_call_request", timestamp: at, id: `c${i}`, name: "read", arguments: { n: i } },
    {
      type: "tool_call_response",
      timestamp: at,
      id: `c${i}`,
      content: `${i % 10} `.repeat(2500),
      is_error: false,
    },
  ];
}

/** Run 40 steps through the hook as the turn loop does; returns the requests' sizes and when compactions came. */
async function runSteps(auto: Record<string, unknown>) {
  const h = await hook(config({ max_tokens: 20_000, keep_tail: 6_000, ...auto }));
  const counter = await createTokenCounter("openai/gpt-4.1", "chars");
  const { project } = await import("../../src/compaction/index.js");
  let events = agentTurn(0);
  const compactedAt: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < 40; i++) {
    events.push(...step(i, "2026-05-31T23:59:59.000Z"));
    const added = await h.run(events);
    if (added) {
      compactedAt.push(i);
      events = [...events, ...added];
    }
    sizes.push(counter.events(project(events).events));
  }
  return { compactedAt, sizes, h };
}

describe("automatic compaction with hysteresis", () => {
  it("strips every result older than the tail at once, so the next requests append for a long stretch", async () => {
    const { compactedAt, sizes } = await runSteps({});
    expect(compactedAt.length).toBeGreaterThan(0);
    expect(compactedAt.length).toBeLessThanOrEqual(4);
    // After each compaction, the following requests carry no new one for several steps.
    for (let k = 1; k < compactedAt.length; k++)
      expect(compactedAt[k]! - compactedAt[k - 1]!).toBeGreaterThan(5);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(20_000);
  });

  it("compacts on nearly every request once over budget with the old just-under-budget relief", async () => {
    const { compactedAt } = await runSteps({ relief: "just_under_budget", min_saving: 0 });
    expect(compactedAt.length).toBeGreaterThan(15);
  });

  it("does not make a compaction that frees less than min_saving", async () => {
    const { compactedAt, h } = await runSteps({ min_saving: 50_000 });
    expect(compactedAt).toEqual([]);
    expect(h.warnings.join("\n")).toContain("automatic compaction stopped");
  });

  it("compacts early when the cache has gone cold and the budget is nearly reached, not when it is warm", async () => {
    // 15 results ≈ 18,800 tokens: within 10 % of the 20,000 budget, not over it.
    const warm = await hook(config({ max_tokens: 20_000, keep_tail: 6_000 }));
    expect(await warm.run(agentTurn(15, 60_000))).toBeUndefined();
    const cold = await hook(config({ max_tokens: 20_000, keep_tail: 6_000 }));
    const added = await cold.run(agentTurn(15, 10 * 60_000));
    expect(added).toHaveLength(1);
    expect(added![0]).toMatchObject({ source: "auto", to_call: anyString });
  });
});

describe("automatic compaction over the model's window", () => {
  /** Earlier turns of plain text no strip shortens (≈ 6,000 tokens by chars/4), and a short question. */
  const wordy = (): Event[] => [
    ...turn({ request: "first", message: "a".repeat(12_000) }),
    ...turn({ request: "second", message: "b".repeat(12_000) }),
    ...turn({ request: "third" }),
  ];

  const overWindow = (summarize: () => Promise<{ text: string; model: string }>) =>
    hook(config({}), { summarize, contextWindow: 4_000 });

  it("summarizes the earlier turns the mechanical rule cannot shrink, and says why", async () => {
    const h = await overWindow(() => Promise.resolve({ text: "two long answers", model: "openai/gpt-4.1" }));
    const added = await h.run(wordy());
    expect(added?.at(-1)).toMatchObject({
      type: "compaction",
      source: "auto",
      from_turn: 0,
      to_turn: 1,
      summary: { text: "two long answers", source: "derived" },
    });
    expect(h.asked).toHaveLength(1);
    expect(h.lines).toEqual([
      stringMatching(/turns 1–2 summarized, the request being over the 4,000-token window\)$/),
    ]);
    expect(h.warnings).toEqual([]);
  });

  it("never widens a summary someone wrote: the turns after it are summarized", async () => {
    const h = await overWindow(() => Promise.resolve({ text: "the later turns", model: "openai/gpt-4.1" }));
    const events = [
      ...turn({ request: "first", message: "one" }),
      ...turn({ request: "second", message: "two" }),
      compaction({
        from_turn: 0,
        to_turn: 1,
        summary: { text: "The user's own summary.", source: "supplied", author: "user" },
      }),
      ...wordy(),
    ];
    const added = await h.run(events);
    expect(added?.at(-1)).toMatchObject({ from_turn: 2, to_turn: 3, summary: { text: "the later turns" } });
    expect(h.asked).toHaveLength(1);
  });

  it("asks for that summary once a turn: a failed one is said, and the request left to the window check", async () => {
    const h = await overWindow(() => Promise.reject(new Error("refused")));
    const events = wordy();
    for (let i = 0; i < 5; i++) expect(await h.run(events)).toBeUndefined();
    expect(h.asked).toHaveLength(1);
    expect(h.warnings).toEqual([
      stringContaining(
        "the summary for automatic compaction failed (refused); the request stays over the window",
      ),
      stringMatching(/^the request \(.* tokens\) is still over the 4,000-token window/),
      stringContaining("automatic compaction stopped: 3 attempts in a row freed nothing"),
    ]);
  });
});
