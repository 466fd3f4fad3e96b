// Usage as the providers report it, per attempt, and what it costs: input is
// counted from message_start (an answer cut off or retried was billed for
// it), and hour-long cache writes are priced above five-minute ones.
import { describe, expect, it } from "vitest";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { addUsage, emptyUsage, usageByModel, type Event } from "../../src/events/index.js";
import { anthropicParts } from "../../src/llm/providers/anthropic/stream.js";
import { estimateCost, estimateTotalCost, requestCost } from "../../src/llm/pricing.js";
import type { StreamPart } from "../../src/llm/types.js";

async function* from<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) yield await Promise.resolve(item);
}

const start = (usage: Record<string, unknown>) =>
  // Cast: only the fields anthropicParts reads are written out.
  ({
    type: "message_start",
    message: { id: "m", type: "message", role: "assistant", model: "claude-x", content: [], usage },
  }) as unknown as RawMessageStreamEvent;

describe("usage from an Anthropic stream", () => {
  it("is reported at message_start, before any content, with hour-long cache writes apart", async () => {
    const parts: StreamPart[] = [];
    const stream = anthropicParts(
      from([
        start({
          input_tokens: 10,
          output_tokens: 1,
          cache_read_input_tokens: 100,
          cache_creation_input_tokens: 50,
          cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 30 },
        }),
      ]),
    );
    await expect(
      (async () => {
        for await (const part of stream) parts.push(part);
      })(),
    ).rejects.toThrow(/before the answer was complete/);
    expect(parts).toEqual([
      {
        type: "usage",
        inputTokens: 160,
        outputTokens: 1,
        cacheReadTokens: 100,
        cacheWriteTokens: 50,
        cacheWrite1hTokens: 30,
      },
    ]);
  });
});

describe("usage of an answer that lists its iterations", () => {
  it("is the sum of usage.iterations, not the top level (a compaction's top level is zero)", async () => {
    const delta = {
      type: "message_delta",
      delta: { stop_reason: "compaction", stop_sequence: null },
      usage: {
        input_tokens: 0,
        output_tokens: 0,
        iterations: [
          { type: "compaction", input_tokens: 180_000, output_tokens: 3_500, cache_read_input_tokens: 1_000 },
          { type: "message", input_tokens: 23_000, output_tokens: 1_000 },
        ],
      },
    } as unknown as RawMessageStreamEvent;
    const parts: StreamPart[] = [];
    for await (const part of anthropicParts(
      from([
        start({ input_tokens: 0, output_tokens: 0 }),
        delta,
        { type: "message_stop" } satisfies RawMessageStreamEvent,
      ]),
    ))
      parts.push(part);
    expect(parts.filter((p) => p.type === "usage").at(-1)).toEqual({
      type: "usage",
      inputTokens: 204_000,
      outputTokens: 4_500,
      cacheReadTokens: 1_000,
    });
  });
});

describe("cost", () => {
  const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
  const totals = {
    requests: 1,
    input_tokens: 1_000_000,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 1_000_000,
    cache_write_1h_tokens: 0,
    cost_usd: 0,
    costed_requests: 0,
  };

  it("prices hour-long cache writes at 2x input (1.6x the five-minute write price) unless given", () => {
    expect(estimateCost(totals, price)).toBeCloseTo(3.75);
    expect(estimateCost({ ...totals, cache_write_1h_tokens: 1_000_000 }, price)).toBeCloseTo(6);
    expect(
      estimateCost({ ...totals, cache_write_1h_tokens: 400_000 }, { ...price, cache_write_1h: 5 }),
    ).toBeCloseTo(0.6 * 3.75 + 0.4 * 5);
  });

  it("prices a long prompt at its tier's rates, on every token of the request", () => {
    // Claude Haiku 5.5: $0.10 / $0.50 up to 100,000 prompt tokens, $0.50 / $2.50 above.
    const haiku = {
      input: 0.1,
      output: 0.5,
      cache_read: 0.01,
      tiers: [{ above: 100_000, input: 0.5, output: 2.5, cache_read: 0.05 }],
    };
    expect(requestCost({ input_tokens: 100_000, output_tokens: 1000 }, haiku)).toBeCloseTo(0.01 + 0.0005);
    expect(requestCost({ input_tokens: 150_000, output_tokens: 1000 }, haiku)).toBeCloseTo(0.075 + 0.0025);
    // Cached tokens count towards the prompt's length, and are priced at the tier's cache rate.
    expect(
      requestCost({ input_tokens: 150_000, cache_read_tokens: 140_000, output_tokens: 0 }, haiku),
    ).toBeCloseTo(10_000 * 0.5e-6 + 140_000 * 0.05e-6);
  });

  it("totals recorded costs as they are, and prices only the requests that recorded none", () => {
    const costed = addUsage(addUsage(emptyUsage(), { input_tokens: 10, cost_usd: 0.5 }), {
      input_tokens: 10,
      cost_usd: 0.25,
    });
    expect(estimateTotalCost({ "anthropic/a": costed }, () => undefined)).toBeCloseTo(0.75);
    const mixed = addUsage(structuredClone(costed), { input_tokens: 1_000_000 });
    // One of three requests unpriced: a third of the totals at list price (3.00 for 1,000,020 input).
    expect(estimateTotalCost({ "anthropic/a": mixed }, () => ({ input: 3, output: 15 }))).toBeCloseTo(
      0.75 + (3 * 1.00002) / 3,
    );
    expect(estimateTotalCost({ "anthropic/a": mixed }, () => undefined)).toBeUndefined();
  });

  it("counts the attempts a retry threw away and those of a failed request", () => {
    const events: Event[] = [
      {
        type: "request_failed",
        timestamp: "2026-12-01T00:00:00Z",
        turn: 0,
        reason: "cut off",
        metadata: {
          model: "anthropic/claude-x",
          discarded_attempts: [{ input_tokens: 500, output_tokens: 2 }],
        },
      },
      {
        type: "chat_response",
        timestamp: "2026-12-01T00:00:01Z",
        message: "ok",
        metadata: {
          model: "anthropic/claude-x",
          usage: { input_tokens: 600, output_tokens: 9 },
          discarded_attempts: [{ input_tokens: 600, output_tokens: 1 }],
        },
      },
    ];
    expect(usageByModel(events)["anthropic/claude-x"]).toMatchObject({
      requests: 3,
      input_tokens: 1700,
      output_tokens: 12,
    });
  });
});
