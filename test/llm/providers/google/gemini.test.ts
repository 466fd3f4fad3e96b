// The Gemini mapping without HTTP: events to contents, thinking from jp's
// settings, and streamed chunks to parts.
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { StreamCutError, StreamErrorEvent } from "../../../../src/llm/errors.js";
import { geminiParts, geminiThinking, toGeminiContents } from "../../../../src/llm/providers/google/index.js";
import type { StreamPart } from "../../../../src/llm/types.js";
import { requestFor } from "../../../support/stream.js";

const at = "2026-12-01T10:00:00Z";
const request = requestFor("gemini-3-flash-preview");

async function parts(chunks: Record<string, unknown>[]): Promise<StreamPart[]> {
  async function* source() {
    for (const c of chunks) yield c;
    await Promise.resolve();
  }
  const out: StreamPart[] = [];
  for await (const p of geminiParts(source())) out.push(p);
  return out;
}

describe("toGeminiContents", () => {
  it("gives a call another model wrote the documented stand-in signature, and names each function response", () => {
    const events: Event[] = [
      { type: "chat_request", timestamp: at, content: "q" },
      {
        type: "tool_call_request",
        timestamp: at,
        id: "t1",
        name: "grep",
        arguments: { q: "x" },
        metadata: { model: "anthropic/claude-sonnet-5-5" },
      },
      { type: "tool_call_response", timestamp: at, id: "t1", content: "no match", is_error: true },
    ];
    expect(toGeminiContents(events, "gemini-3-flash-preview")).toEqual([
      { role: "user", parts: [{ text: "q" }] },
      {
        role: "model",
        parts: [
          {
            functionCall: { id: "t1", name: "grep", args: { q: "x" } },
            thoughtSignature: "skip_thought_signature_validator",
          },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { id: "t1", name: "grep", response: { error: "no match" } } }],
      },
    ]);
  });
});

describe("geminiThinking", () => {
  it("asks Gemini 3 for a level and 2.5 for a budget, and says off as the least of either", () => {
    const levels = { efforts: ["minimal", "low", "medium", "high"] as const };
    expect(geminiThinking(request([], { facts: levels, reasoning: { effort: "xhigh" } }))).toEqual({
      includeThoughts: true,
      thinkingLevel: "HIGH",
    });
    const gemini25 = requestFor("gemini-2.5-flash");
    expect(geminiThinking(gemini25([], { facts: {}, reasoning: { budgetTokens: 2048 } }))).toEqual({
      includeThoughts: true,
      thinkingBudget: 2048,
    });
    // A Gemini 3 model jp does not know takes levels, as its name says (JP's recorded gemini-3.5-flash request).
    expect(
      geminiThinking(requestFor("gemini-3.5-flash")([], { facts: {}, reasoning: { effort: "high" } })),
    ).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" });
    // Off is said, as JP says it: the least level (or budget), no thoughts shown.
    expect(geminiThinking(request([], { facts: levels }))).toEqual({
      includeThoughts: false,
      thinkingLevel: "MINIMAL",
    });
    const range = { thinkingBudget: { min: 512, max: 24_576 } };
    expect(geminiThinking(gemini25([], { facts: range }))).toEqual({
      includeThoughts: false,
      thinkingBudget: 512,
    });
    expect(geminiThinking(gemini25([], { facts: range, reasoning: { budgetTokens: 64_000 } }))).toEqual({
      includeThoughts: true,
      thinkingBudget: 24_576,
    });
    // A model jp knows nothing of keeps to what it always did: no thinking unless asked.
    expect(geminiThinking(gemini25([], { facts: {} }))).toBeUndefined();
  });
});

describe("geminiParts", () => {
  it("keeps thoughts and text apart, a signature with its part, and counts thoughts as output", async () => {
    const got = await parts([
      { candidates: [{ content: { parts: [{ text: "think", thought: true }] } }] },
      { candidates: [{ content: { parts: [{ text: "answer" }] } }] },
      { candidates: [{ content: { parts: [{ text: "", thoughtSignature: "S" }] } }] },
      {
        candidates: [{ content: { parts: [] }, finishReason: "STOP" }],
        usageMetadata: {
          promptTokenCount: 10,
          candidatesTokenCount: 4,
          thoughtsTokenCount: 6,
          cachedContentTokenCount: 8,
        },
      },
    ]);
    expect(got).toEqual([
      { type: "reasoning", text: "" },
      { type: "reasoning", text: "think" },
      { type: "block_end" },
      { type: "text", text: "" },
      { type: "text", text: "answer" },
      { type: "block_end" },
      // The signature came on an empty part of its own, and stays on one (JP's Gemini 3 recordings end so).
      { type: "text", text: "" },
      { type: "block_metadata", metadata: { google_thought_signature: "S" } },
      { type: "block_end" },
      { type: "usage", inputTokens: 10, outputTokens: 10, cacheReadTokens: 8, reasoningTokens: 6 },
      { type: "stop", reason: "end" },
    ]);
  });

  it("maps a safety stop to a refusal, and an error chunk or a stream without a finish reason to errors", async () => {
    expect((await parts([{ candidates: [{ finishReason: "SAFETY" }] }])).at(-1)).toEqual({
      type: "stop",
      reason: "refusal",
    });
    await expect(parts([{ error: { code: 500, message: "internal" } }])).rejects.toThrow(StreamErrorEvent);
    await expect(parts([{ candidates: [{ content: { parts: [{ text: "half" }] } }] }])).rejects.toThrow(
      StreamCutError,
    );
  });
});
