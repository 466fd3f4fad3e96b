// The compactor library hook: the seed's four examples, and properties in both dialects.
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages";
import fc from "fast-check";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import {
  callsTools,
  carriesToolResult,
  compactor,
  estimateTokens,
  FLUSH_REMINDER,
  type ChatMessage,
  type CompactInfo,
} from "../../src/chat/compactor.js";
import { objectContaining, stringMatching } from "../support/matchers.js";

const round = (i: number): ChatMessage[] => {
  const id = `c${i}`;
  return [
    { role: "user", content: `question ${i} with some padding text here` },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id, type: "function", function: { name: "lookup", arguments: "{}" } }],
    },
    { role: "tool", tool_call_id: id, content: `result ${i} with more padding data` },
    { role: "assistant", content: `answer ${i}` },
  ];
};

describe("compactor: the seed's examples", () => {
  it("1. under budget is a byte-identical no-op", async () => {
    const hook = compactor({ maxTokens: 100_000, summarize: () => "summary" });
    const messages: ChatMessage[] = [
      { role: "system", content: "You are Ava." },
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
    ];
    const before = JSON.stringify(messages);
    expect(await hook({ messages, tools: [], model: "m", turn: 0 })).toBeUndefined();
    expect(JSON.stringify(messages)).toBe(before);
  });

  it("2. compacts above budget, keeping the system prompt, the summary second and a user turn third", async () => {
    const msgs: ChatMessage[] = [{ role: "system", content: "You are Ava. SOUL." }];
    for (let i = 0; i < 30; i++) msgs.push(...round(i));
    const before = estimateTokens(msgs);
    const hook = compactor({
      maxTokens: 2000,
      keepTail: 800,
      summarize: (older) => `summarized ${older.length} messages`,
    });
    const out = (await hook({ messages: msgs, tools: [], model: "m", turn: 0 }))!.messages;
    const after = estimateTokens(out);
    expect(after).toBeLessThan(before);
    expect(out[0]).toEqual({ role: "system", content: "You are Ava. SOUL." });
    expect(out[1]!.role).toBe("system");
    expect(String(out[1]!.content).startsWith("[Summary of earlier conversation]")).toBe(true);
    expect(out[2]!.role).toBe("user");
  });

  it("3. wired before a real request to the mock server, with the flush reminder", async () => {
    const { startMockLlm } = await import("../support/mock-llm.js");
    const mock = await startMockLlm([{ text: "noted" }]);
    try {
      const history: ChatMessage[] = [{ role: "system", content: "You are Ava." }];
      for (let i = 0; i < 25; i++) history.push(...round(i));
      history.push({ role: "user", content: "one more question" });
      const hook = compactor({
        maxTokens: 1500,
        keepTail: 600,
        flushToMemory: true,
        summarize: (older) => `summarized ${older.length} messages`,
      });
      const messages = (await hook({ messages: history }))?.messages ?? history;
      const { default: OpenAI } = await import("openai");
      const client = new OpenAI({ apiKey: "k", baseURL: `${mock.url}/v1`, maxRetries: 0 });
      const stream = await client.chat.completions.create({
        model: "m",
        messages: messages as never,
        stream: true,
      });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      expect(text).toBe("noted");
      const raw = JSON.stringify(mock.requests[0]!.body);
      expect(raw).toContain("summarized");
      expect(raw).toContain("save it with the memory tool now");
    } finally {
      await mock.close();
    }
  });

  it("4. on_compact receives the figures and the folded messages verbatim", async () => {
    const msgs: ChatMessage[] = [{ role: "system", content: "sys" }];
    const pad = "pad ".repeat(20);
    for (let i = 0; i < 20; i++)
      msgs.push(
        { role: "user", content: `question ${i} ${pad}` },
        { role: "assistant", content: `answer ${i} ${pad}` },
      );
    let info: CompactInfo | undefined;
    const hook = compactor({
      maxTokens: 400,
      keepTail: 200,
      summarize: () => "the user asked many questions",
      onCompact: (i) => (info = i),
    });
    await hook({ messages: msgs, tools: [], model: "m", turn: 0 });
    expect(info!.tokensAfter).toBeLessThan(info!.tokensBefore);
    expect(info!.summarized).toBeGreaterThan(0);
    expect(info!.folded).toHaveLength(info!.summarized);
    expect(info!.folded).toEqual(msgs.slice(1, 1 + info!.summarized));
  });
});

describe("compactor: behaviour", () => {
  it("keeps a sole user prompt: one prompt, then only tool traffic", async () => {
    const msgs: ChatMessage[] = [
      { role: "system", content: "sys" },
      { role: "user", content: "do the long task" },
    ];
    for (let i = 0; i < 20; i++) {
      msgs.push({
        role: "assistant",
        content: null,
        tool_calls: [{ id: `t${i}`, type: "function", function: { name: "step", arguments: "{}" } }],
      });
      msgs.push({ role: "tool", tool_call_id: `t${i}`, content: "output ".repeat(30) });
    }
    const out = (await compactor({ maxTokens: 600, summarize: () => "s" })({ messages: msgs }))!.messages;
    expect(out.slice(0, 3).map((m) => m.role)).toEqual(["system", "user", "system"]);
    expect(out[1]).toEqual({ role: "user", content: "do the long task" });
    expect(out[3]!.role).toBe("assistant");
  });

  it("does nothing when the result would not be smaller, and needs summarize once over budget", async () => {
    const msgs: ChatMessage[] = [
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "user", content: "c" },
    ];
    expect(
      await compactor({ maxTokens: 1, summarize: () => "x".repeat(500) })({ messages: msgs }),
    ).toBeUndefined();
    await expect(compactor({ maxTokens: 1 })({ messages: msgs })).rejects.toThrow("no summarize function");
  });
});

describe("compactor: a head longer than the summarizer can read", () => {
  it("is summarized in parts of whole rounds that each fit summaryInputTokens, their summaries joined in order", async () => {
    const msgs: ChatMessage[] = [{ role: "system", content: "sys" }];
    for (let i = 0; i < 30; i++) msgs.push(...round(i));
    const read: ChatMessage[][] = [];
    let info: CompactInfo | undefined;
    const hook = compactor<ChatMessage>({
      maxTokens: 2000,
      keepTail: 800,
      summaryInputTokens: 300,
      summarize: (older) => {
        read.push(older);
        return `part of ${older.length} messages`;
      },
      onCompact: (i) => (info = i),
    });
    const out = (await hook({ messages: msgs }))!.messages;
    expect(read.length).toBeGreaterThan(1);
    expect(info).toMatchObject({ parts: read.length });
    // Each call reads at most the limit, opens at no tool result, and together they read the head in order.
    for (const part of read) {
      expect(estimateTokens(part)).toBeLessThanOrEqual(300);
      expect(carriesToolResult(part[0]!)).toBe(false);
    }
    expect(read.flat()).toEqual(info!.folded);
    expect(out[1]!.content).toBe(
      `[Summary of earlier conversation]\n${read.map((p, i) => `Part ${i + 1} of ${read.length}:\npart of ${p.length} messages`).join("\n\n")}`,
    );
  });

  it("is read in one call when it fits, or when no limit is given", async () => {
    const msgs: ChatMessage[] = [];
    for (let i = 0; i < 30; i++) msgs.push(...round(i));
    for (const limit of [undefined, 1_000_000]) {
      let calls = 0;
      const hook = compactor({
        maxTokens: 2000,
        ...(limit ? { summaryInputTokens: limit } : {}),
        summarize: () => {
          calls++;
          return "all of it";
        },
      });
      await hook({ messages: msgs });
      expect(calls).toBe(1);
    }
  });
});

// Random transcripts: rounds of a user prompt, then tool rounds, in either dialect.
const transcript = fc
  .record({
    dialect: fc.constantFrom("openai" as const, "anthropic" as const),
    system: fc.boolean(),
    rounds: fc.array(
      fc.record({ prompt: fc.boolean(), calls: fc.nat({ max: 3 }), size: fc.nat({ max: 400 }) }),
      { minLength: 1, maxLength: 25 },
    ),
  })
  .map(({ dialect, system, rounds }) => {
    const msgs: ChatMessage[] = system ? [{ role: "system", content: "the system prompt" }] : [];
    let id = 0;
    rounds.forEach((r, i) => {
      if (r.prompt || i === 0) msgs.push({ role: "user", content: `prompt ${i} ${"x".repeat(r.size)}` });
      for (let c = 0; c < r.calls; c++) {
        const callId = `call_${id++}`;
        if (dialect === "openai") {
          msgs.push({
            role: "assistant",
            content: null,
            tool_calls: [{ id: callId, type: "function", function: { name: "f", arguments: "{}" } }],
          });
          msgs.push({ role: "tool", tool_call_id: callId, content: "r".repeat(r.size) });
        } else {
          msgs.push({ role: "assistant", content: [{ type: "tool_use", id: callId, name: "f", input: {} }] });
          msgs.push({
            role: "user",
            content: [{ type: "tool_result", tool_use_id: callId, content: "r".repeat(r.size) }],
          });
        }
      }
      msgs.push({ role: "assistant", content: `answer ${i}` });
    });
    return msgs;
  });

const callIds = (m: ChatMessage): string[] =>
  Array.isArray(m.tool_calls)
    ? (m.tool_calls as { id: string }[]).map((c) => c.id)
    : Array.isArray(m.content)
      ? (m.content as { type: string; id?: string }[]).filter((b) => b.type === "tool_use").map((b) => b.id!)
      : [];
const resultIds = (m: ChatMessage): string[] =>
  m.role === "tool"
    ? [m.tool_call_id as string]
    : Array.isArray(m.content)
      ? (m.content as { type: string; tool_use_id?: string }[])
          .filter((b) => b.type === "tool_result")
          .map((b) => b.tool_use_id!)
      : [];

describe("compactor: properties in both dialects", () => {
  it("never orphans a tool result or a tool call, keeps the system message, never grows, and is a no-op under budget", async () => {
    await fc.assert(
      fc.asyncProperty(transcript, fc.integer({ min: 50, max: 3000 }), async (msgs, maxTokens) => {
        const before = JSON.stringify(msgs);
        const override = await compactor({ maxTokens, summarize: (older) => `folded ${older.length}` })({
          messages: msgs,
        });
        expect(JSON.stringify(msgs)).toBe(before);
        if (!override) return;
        const out = override.messages;
        expect(estimateTokens(out)).toBeLessThan(estimateTokens(msgs));
        if (msgs[0]!.role === "system") expect(out[0]).toEqual(msgs[0]);
        const seen = new Set<string>();
        const answered = new Set<string>();
        for (const m of out) {
          for (const id of resultIds(m)) {
            expect(seen.has(id)).toBe(true);
            answered.add(id);
          }
          for (const id of callIds(m)) seen.add(id);
        }
        for (const id of seen) expect(answered.has(id)).toBe(true);
        expect(out.some((m) => String(m.content).startsWith("[Summary of earlier conversation]"))).toBe(true);
        // The tail starts cleanly: at a prompt, or (after a kept sole prompt) at an assistant message.
        const summaryAt = out.findIndex((m) =>
          String(m.content).startsWith("[Summary of earlier conversation]"),
        );
        const next = out[summaryAt + 1];
        if (next) expect(carriesToolResult(next)).toBe(false);
        expect(out.filter(callsTools).length).toBeLessThanOrEqual(msgs.filter(callsTools).length);
      }),
      { numRuns: 300 },
    );
  });
});

describe("compactor: the SDKs' own message types", () => {
  const anthropicRounds = (n: number): MessageParam[] =>
    Array.from({ length: n }, (_, i): MessageParam[] => [
      { role: "user", content: `question ${i} with some padding text here` },
      { role: "assistant", content: [{ type: "tool_use", id: `t${i}`, name: "lookup", input: {} }] },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: `t${i}`, content: `result ${i} padding` }],
      },
      { role: "assistant", content: `answer ${i}` },
    ]).flat();

  it("Anthropic: the summary is a user message, and no message has a system role", async () => {
    const hook = compactor<MessageParam>({
      dialect: "anthropic",
      maxTokens: 1000,
      keepTail: 300,
      flushToMemory: true,
      summarize: (older) => `folded ${older.length}`,
    });
    const history = anthropicRounds(20);
    const out: MessageParam[] = (await hook({ messages: history }))!.messages;
    expect(out[0]).toEqual({
      role: "user",
      content: stringMatching(/^\[Summary of earlier conversation\]\nfolded \d+$/),
    });
    expect(out[1]).toEqual({ role: "user", content: FLUSH_REMINDER });
    expect(out.map((m) => m.role as string)).not.toContain("system");
    // The tail is the history's own end, from a prompt on.
    expect(out.slice(2)).toEqual(history.slice(history.length - (out.length - 2)));
    expect(out[2]).toEqual(objectContaining({ role: "user", content: stringMatching(/^question/) }));
  });

  it("OpenAI: the same array type comes back, the summary a system message after the caller's", async () => {
    const history: ChatCompletionMessageParam[] = [{ role: "system", content: "You are Ava." }];
    for (let i = 0; i < 20; i++)
      history.push(
        { role: "user", content: `q${i} ${"x".repeat(80)}` },
        { role: "assistant", content: `a${i}` },
      );
    const hook = compactor<ChatCompletionMessageParam>({ maxTokens: 500, summarize: () => "s" });
    const out: ChatCompletionMessageParam[] = (await hook({ messages: history }))!.messages;
    expect(out.slice(0, 2)).toEqual([
      history[0],
      { role: "system", content: "[Summary of earlier conversation]\ns" },
    ]);
  });

  it("types: each call takes the caller's message type and gives it back, and a message needs a role", async () => {
    const hook = compactor({ maxTokens: 10 ** 9 });
    const history: ChatCompletionMessageParam[] = [{ role: "user", content: "hi" }];
    const out: ChatCompletionMessageParam[] = (await hook({ messages: history }))?.messages ?? history;
    expect(out).toBe(history);
    // @ts-expect-error: a message without a role is no chat message.
    expect(await hook({ messages: [{ content: "hi" }] })).toBeUndefined();
  });
});

describe("compactor: a leading system message", () => {
  it("stays verbatim in the Anthropic dialect too, never folded into the summary", async () => {
    const history: ChatMessage[] = [{ role: "system", content: "You are Ava." }];
    for (let i = 0; i < 20; i++)
      history.push(
        { role: "user", content: `q${i} ${"x".repeat(80)}` },
        { role: "assistant", content: `a${i}` },
      );
    const hook = compactor({ dialect: "anthropic", maxTokens: 500, summarize: (older) => `${older.length}` });
    const out = (await hook({ messages: history }))!.messages;
    expect(out[0]).toEqual(history[0]);
    expect(out[1]).toEqual({
      role: "user",
      content: stringMatching(/^\[Summary of earlier conversation\]\n\d+$/),
    });
  });
});
