// Prompt caching on the wire: Anthropic breakpoints, OpenAI's prompt_cache_key,
// and the usage both providers report, against the mock's caching rules.
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import fc from "fast-check";
import {
  anthropicBody,
  mapMessages,
  toAnthropicMessages,
} from "../../src/llm/providers/anthropic/request.js";
import { compactedStream } from "../support/arbitrary.js";
import { openaiBody } from "../../src/llm/chat-completions.js";
import { createProvider } from "../../src/llm/create-provider.js";
import { streamWithRetries, type RetryPart } from "../../src/llm/retry.js";
import type { ModelRequest } from "../../src/llm/types.js";
import { PromptCache, startMockLlm, type MockLlm } from "../support/mock-llm.js";
import { project } from "../../src/compaction/index.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const ts = "2026-01-01T00:00:00Z";
/** A conversation long enough to cache (over 1,024 tokens), growing by one tool call per step. */
function history(steps: number): Event[] {
  const events: Event[] = [
    { type: "turn_start", timestamp: ts },
    { type: "chat_request", timestamp: ts, content: "read every file" },
  ];
  for (let i = 0; i < steps; i++) {
    events.push(
      { type: "tool_call_request", timestamp: ts, id: `t${i}`, name: "read_file", arguments: { i } },
      {
        type: "tool_call_response",
        timestamp: ts,
        id: `t${i}`,
        content: `line ${i}\n`.repeat(300),
        is_error: false,
      },
    );
  }
  return events;
}

const request = (steps: number, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model: "claude-mock",
  system: "be brief",
  events: history(steps),
  tools: [
    { name: "read_file", description: "Read a file", parameters: { type: "object", properties: {} } },
    { name: "grep", description: "Search", parameters: { type: "object", properties: {} } },
  ],
  toolChoice: "auto",
  maxTokens: 1000,
  cache: { key: "17000000001", ttl: "5m" },
  ...extra,
});

type Block = Record<string, unknown>;
/** The request as the JSON it is sent as. */
const json = (body: object) => JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
const breakpoints = (typed: object): string[] => {
  const body = json(typed);
  const found: string[] = [];
  (body.tools as Block[]).forEach((t, i) => t.cache_control && found.push(`tool ${i}`));
  (body.system as Block[]).forEach((b) => b.cache_control && found.push("system"));
  (body.messages as { content: Block[] }[]).forEach((m, i) => {
    m.content.forEach((b) => b.cache_control && found.push(`message ${i}`));
  });
  return found;
};

describe("Anthropic cache breakpoints", () => {
  it("mark the system prompt (which covers the tools), the turn's request and the newest message, moving forward", () => {
    const first = anthropicBody(request(2));
    const second = anthropicBody(request(3));
    expect(breakpoints(first)).toEqual(["system", "message 0", "message 4"]);
    expect(breakpoints(second)).toEqual(["system", "message 0", "message 6"]);
    // Without a system prompt, the tools' end is the prefix's breakpoint.
    const bare = json(anthropicBody(request(2, { system: undefined })));
    expect((bare.tools as Block[]).map((t) => Boolean(t.cache_control))).toEqual([false, true]);
    // In a later turn the turn's own request is marked, not the first one.
    const later = anthropicBody(
      request(1, {
        events: [
          ...history(1),
          { type: "chat_response", timestamp: ts, message: "done" },
          { type: "turn_start", timestamp: ts },
          { type: "chat_request", timestamp: ts, content: "now the tests" },
          { type: "tool_call_request", timestamp: ts, id: "u1", name: "grep", arguments: {} },
          { type: "tool_call_response", timestamp: ts, id: "u1", content: "none", is_error: false },
        ],
      }),
    );
    expect(breakpoints(later)).toEqual(["system", "message 4", "message 6"]);
    expect((json(first).system as Block[])[0]).toEqual({
      type: "text",
      text: "be brief",
      cache_control: { type: "ephemeral" },
    });
    expect(
      (json(anthropicBody(request(1, { cache: { key: "k", ttl: "1h" } }))).system as Block[])[0]!
        .cache_control,
    ).toEqual({
      type: "ephemeral",
      ttl: "1h",
    });
  });

  it("mark where the last two compactions' reach ends, so a compaction's first request reads the one before from the cache", () => {
    // One long agent turn whose older results are stripped by a compaction every 12 steps,
    // each reaching further than the one before (auto compaction's in-turn relief).
    const cache = new PromptCache();
    const strip = (id: string, toCall: string): Event => ({
      type: "compaction",
      timestamp: ts,
      id,
      from_turn: 0,
      to_turn: 0,
      to_call: toCall,
      tool_calls: { policy: "strip", request: true, response: true },
      source: "auto",
    });
    const compactions: Event[] = [];
    const reads: { step: number; read: number }[] = [];
    for (let step = 1; step <= 60; step++) {
      if (step % 12 === 0) compactions.push(strip(`c${step}`, `t${step - 4}`));
      const { events, settled } = project([...history(step), ...compactions]);
      const body = anthropicBody(request(step, { events, settled }));
      expect(breakpoints(body).length).toBeLessThanOrEqual(4);
      const usage = cache.anthropic(json(body));
      if (step % 12 === 0) reads.push({ step, read: usage.read });
    }
    // From the third compaction on, the prefix the previous one settled is over 1,024 tokens
    // and far more than 20 blocks back: it is read from the cache, not written again.
    const later = reads.filter((r) => r.step >= 36);
    expect(later.length).toBeGreaterThan(1);
    for (const r of later) expect(r.read).toBeGreaterThan(1024);
    // Without the settled points, those requests would write everything again.
    const blind = new PromptCache();
    const blindReads: number[] = [];
    compactions.length = 0;
    for (let step = 1; step <= 60; step++) {
      if (step % 12 === 0) compactions.push(strip(`c${step}`, `t${step - 4}`));
      const { events } = project([...history(step), ...compactions]);
      const usage = blind.anthropic(json(anthropicBody(request(step, { events }))));
      if (step % 12 === 0 && step >= 36) blindReads.push(usage.read);
    }
    expect(Math.max(...blindReads)).toBeLessThan(Math.min(...later.map((r) => r.read)));
  });

  it("are absent when caching is off", () => {
    const body = anthropicBody(request(2, { cache: undefined }));
    expect(JSON.stringify(body)).not.toContain("cache_control");
    expect(body.system).toBe("be brief");
  });
});

describe("OpenAI prompt_cache_key", () => {
  it("is the conversation's key on every request, and absent when caching is off", () => {
    expect(openaiBody(request(1)).prompt_cache_key).toBe("17000000001");
    expect(openaiBody(request(5)).prompt_cache_key).toBe("17000000001");
    expect(openaiBody(request(1, { cache: undefined })).prompt_cache_key).toBeUndefined();
  });
});

async function usageOf(parts: AsyncIterable<RetryPart>) {
  for await (const p of parts) if (p.type === "usage") return p;
  return undefined;
}

describe.each(["anthropic", "openai"] as const)("usage from %s with caching", (provider) => {
  it("records cache writes and then reads of the growing prefix", async () => {
    mock = await startMockLlm([], () => ({ text: "ok" }));
    const { provider: p } = createProvider(
      `${provider}/${provider === "anthropic" ? "claude-mock" : "gpt-mock"}`,
      {
        providers: {
          [provider]: {
            base_url: provider === "anthropic" ? mock.url : `${mock.url}/v1`,
            api_key_env: "MOCK_KEY",
          },
        },
      },
      { MOCK_KEY: "sk-test" },
    );
    const options = { maxRetries: 0, backoffMs: 1, signal: new AbortController().signal };
    const first = await usageOf(streamWithRetries(p, request(4), options));
    const second = await usageOf(streamWithRetries(p, request(5), options));
    expect(first?.inputTokens).toBeGreaterThan(1024);
    expect(first?.cacheReadTokens).toBeUndefined();
    if (provider === "anthropic") expect(first?.cacheWriteTokens).toBe(first?.inputTokens);
    // The second request appends one step: everything before it comes from the cache.
    expect(second!.cacheReadTokens).toBeGreaterThan(0.8 * first!.inputTokens!);
    expect(second!.inputTokens).toBeGreaterThan(first!.inputTokens!);
  });
});

describe("blocks before a settled point", () => {
  it("count what mapping only the events before it would give, in one pass", () => {
    const blocks = (events: readonly Event[]) =>
      toAnthropicMessages(events).reduce((n, m) => n + m.content.length, 0);
    fc.assert(
      fc.property(
        compactedStream,
        fc.nat(),
        fc.array(fc.integer({ min: -1, max: 60 }), { maxLength: 3 }),
        ({ events }, cut, marks) => {
          // A suffix of the view may open with the assistant, which gets a user block in front.
          const view = project(events).events.slice(cut % 4);
          const { messages, blocksBefore } = mapMessages(view, marks);
          expect(messages).toEqual(toAnthropicMessages(view));
          expect(blocksBefore).toEqual(marks.map((mark) => blocks(view.slice(0, Math.max(0, mark)))));
        },
      ),
      { numRuns: 300 },
    );
  });
});
