// Usage as the providers report it, per attempt, and what it costs: input is
// counted from message_start (an answer cut off or retried was billed for
// it), and hour-long cache writes are priced above five-minute ones.
import { describe, expect, it } from "vitest";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { usageByModel, type Event } from "../../src/events/index.js";
import { anthropicParts } from "../../src/llm/anthropic.js";
import { estimateCost } from "../../src/llm/pricing.js";
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

describe("cost", () => {
  const price = { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 };
  const totals = {
    requests: 1,
    input_tokens: 1_000_000,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 1_000_000,
    cache_write_1h_tokens: 0,
  };

  it("prices hour-long cache writes at 2x input (1.6x the five-minute write price) unless given", () => {
    expect(estimateCost(totals, price)).toBeCloseTo(3.75);
    expect(estimateCost({ ...totals, cache_write_1h_tokens: 1_000_000 }, price)).toBeCloseTo(6);
    expect(
      estimateCost({ ...totals, cache_write_1h_tokens: 400_000 }, { ...price, cache_write_1h: 5 }),
    ).toBeCloseTo(0.6 * 3.75 + 0.4 * 5);
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
