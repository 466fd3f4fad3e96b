// The Anthropic mapping without HTTP: events to a Messages API body, and the
// API's stream events to stream parts, each checked on its own.
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import {
  CITATIONS_KEY,
  PROVIDER_BLOCK_KEY,
  REASONING_SIGNATURE_KEY,
  REDACTED_REASONING_KEY,
  TOOL_IMAGES_KEY,
} from "../../../../src/events/index.js";
import { anthropicBody } from "../../../../src/llm/providers/anthropic/request.js";
import { anthropicParts } from "../../../../src/llm/providers/anthropic/stream.js";
import { anthropicThinking } from "../../../../src/llm/providers/anthropic/choices.js";
import { JpError } from "../../../../src/errors.js";
import { StreamCutError, StreamErrorEvent } from "../../../../src/llm/errors.js";
import type { ModelRequest, StreamPart } from "../../../../src/llm/types.js";
import { requestFor } from "../../../support/stream.js";

const at = "2026-01-01T00:00:00Z";
const request = requestFor("claude-test");

async function parts(events: unknown[]): Promise<StreamPart[]> {
  // The events are written to the API's documented shapes; the SDK's type is what the mapping reads.
  const stream = ReadableStream.from(events as RawMessageStreamEvent[]);
  const out: StreamPart[] = [];
  for await (const part of anthropicParts(stream)) out.push(part);
  return out;
}

const blockStart = (index: number, block: Record<string, unknown>) => ({
  type: "content_block_start",
  index,
  content_block: block,
});
const blockDelta = (index: number, delta: Record<string, unknown>) => ({
  type: "content_block_delta",
  index,
  delta,
});
const blockStop = (index: number) => ({ type: "content_block_stop", index });

const start = { type: "message_start", message: { usage: { input_tokens: 10, output_tokens: 1 } } };
const stop = (reason: string) => [
  { type: "message_delta", delta: { stop_reason: reason }, usage: { output_tokens: 5 } },
  { type: "message_stop" },
];

describe("anthropicBody", () => {
  it("sends each block back as it came: signed thinking, redacted thinking, cited text, a server tool's block", () => {
    const body = anthropicBody(
      request([
        { type: "turn_start", timestamp: at },
        { type: "chat_request", timestamp: at, content: "q" },
        {
          type: "chat_response",
          timestamp: at,
          reasoning: "hmm",
          metadata: { [REASONING_SIGNATURE_KEY]: "sig" },
        },
        {
          type: "chat_response",
          timestamp: at,
          reasoning: "",
          metadata: { [REDACTED_REASONING_KEY]: "opaque" },
        },
        { type: "chat_response", timestamp: at, reasoning: "unsigned thinking is not sent" },
        {
          type: "chat_response",
          timestamp: at,
          message: "cited",
          metadata: { [CITATIONS_KEY]: [{ type: "char_location", cited_text: "x" }] },
        },
        {
          type: "chat_response",
          timestamp: at,
          data: { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
          metadata: { [PROVIDER_BLOCK_KEY]: true },
        },
        { type: "chat_response", timestamp: at, message: "" },
      ]),
    );
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "q" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "redacted_thinking", data: "opaque" },
          { type: "text", text: "cited", citations: [{ type: "char_location", cited_text: "x" }] },
          { type: "server_tool_use", id: "s1", name: "web_search", input: {} },
        ],
      },
    ]);
  });

  it("pairs a tool call with its result, images included, and opens a view that starts mid-answer with a user block", () => {
    const body = anthropicBody(
      request([
        { type: "tool_call_request", timestamp: at, id: "t1", name: "shot", arguments: { url: "u" } },
        {
          type: "tool_call_response",
          timestamp: at,
          id: "t1",
          content: "taken",
          is_error: false,
          metadata: {
            [TOOL_IMAGES_KEY]: [
              { data: "AAAA", media_type: "image/png" },
              { data: "x", media_type: "image/bmp" },
            ],
          },
        },
      ]),
    );
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "(conversation continues)" }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "shot", input: { url: "u" } }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "t1",
            is_error: false,
            content: [
              { type: "text", text: "taken" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } },
            ],
          },
        ],
      },
    ]);
  });

  it("sets the system prompt, tools, a forced tool, thinking and cache breakpoints as asked", () => {
    const events: Event[] = [{ type: "chat_request", timestamp: at, content: "q" }];
    const tools = [{ name: "grep", description: "search", parameters: { properties: {} } }];
    const plain = anthropicBody(
      request(events, { system: "be brief", tools, reasoning: { budgetTokens: 2048 }, maxTokens: 4096 }),
    );
    expect(plain).toMatchObject({
      model: "claude-test",
      max_tokens: 4096,
      stream: true,
      system: "be brief",
      tools: [{ name: "grep", description: "search", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "auto" },
      thinking: { type: "enabled", budget_tokens: 2048 },
    });
    const forced = anthropicBody(request(events, { tools, toolChoice: { name: "grep" } }));
    expect(forced.tool_choice).toEqual({ type: "tool", name: "grep" });
    expect(forced.thinking).toBeUndefined();
    const cached = anthropicBody(request(events, { system: "s", cache: { key: "k", ttl: "1h" } }));
    expect(cached.system).toEqual([
      { type: "text", text: "s", cache_control: { type: "ephemeral", ttl: "1h" } },
    ]);
    expect(cached.messages[0]?.content).toEqual([
      { type: "text", text: "q", cache_control: { type: "ephemeral", ttl: "1h" } },
    ]);
  });
});

describe("anthropicParts", () => {
  it("streams text, signed thinking and a tool call block by block, with usage from message_start on", async () => {
    const got = await parts([
      start,
      blockStart(0, { type: "thinking", thinking: "", signature: "" }),
      blockDelta(0, { type: "thinking_delta", thinking: "let me see" }),
      blockDelta(0, { type: "signature_delta", signature: "sig" }),
      blockStop(0),
      blockStart(1, { type: "text", text: "" }),
      blockDelta(1, { type: "text_delta", text: "Hello" }),
      blockStop(1),
      blockStart(2, { type: "tool_use", id: "t1", name: "grep", input: {} }),
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"q":' } },
      { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '"x"}' } },
      blockStop(2),
      ...stop("tool_use"),
    ]);
    expect(got).toEqual([
      { type: "usage", inputTokens: 10, outputTokens: 1 },
      // A thinking block opens empty: with display "omitted" that is all it has besides its signature.
      { type: "reasoning", text: "" },
      { type: "reasoning", text: "let me see" },
      { type: "reasoning_signature", signature: "sig" },
      { type: "block_end" },
      { type: "text", text: "Hello" },
      { type: "block_end" },
      { type: "tool_call", id: "t1", name: "grep", arguments: { q: "x" } },
      { type: "usage", inputTokens: 10, outputTokens: 5 },
      { type: "stop", reason: "tool_use" },
    ]);
  });

  it("gives a call the output limit cut off (no content_block_stop) as cut, and ends the answer", async () => {
    const got = await parts([
      start,
      blockStart(0, { type: "tool_use", id: "t1", name: "write", input: {} }),
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "input_json_delta", partial_json: '{"text":"abc' },
      },
      ...stop("max_tokens"),
    ]);
    expect(got.slice(-2)).toEqual([
      { type: "cut_tool_call", id: "t1", name: "write", partialArguments: '{"text":"abc' },
      { type: "stop", reason: "max_tokens" },
    ]);
  });

  it("refuses arguments that are not JSON when nothing cut them off, and a stream without message_stop", async () => {
    const broken = [
      start,
      blockStart(0, { type: "tool_use", id: "t1", name: "write", input: {} }),
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{oops" } },
      blockStop(0),
      ...stop("tool_use"),
    ];
    await expect(parts(broken)).rejects.toThrow(StreamErrorEvent);
    await expect(parts([start, blockStart(0, { type: "text", text: "" })])).rejects.toThrow(StreamCutError);
  });

  it("keeps redacted thinking and a server tool's blocks to send back", async () => {
    const got = await parts([
      start,
      blockStart(0, { type: "redacted_thinking", data: "opaque" }),
      blockStop(0),
      blockStart(1, { type: "server_tool_use", id: "s1", name: "web_search", input: {} }),
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: '{"query":"x"}' },
      },
      blockStop(1),
      ...stop("end_turn"),
    ]);
    expect(got).toContainEqual({ type: "redacted_reasoning", data: "opaque" });
    expect(got).toContainEqual({
      type: "provider_block",
      block: { type: "server_tool_use", id: "s1", name: "web_search", input: { query: "x" } },
    });
    expect(got.at(-1)).toEqual({ type: "stop", reason: "end" });
  });
});

describe("anthropicThinking", () => {
  const modes = (...on: string[]) => ({
    adaptive: on.includes("adaptive"),
    enabled: on.includes("enabled"),
    disabled: on.includes("disabled"),
    between_tools: on.includes("between_tools"),
  });
  const thinking = (more: Partial<ModelRequest>) =>
    anthropicThinking(request([], { maxTokens: 16_000, ...more }));

  it("decides from what the model accepts", () => {
    const adaptiveOnly = {
      thinking: modes("adaptive", "disabled"),
      efforts: ["low", "medium", "high"] as const,
    };
    // An effort the model lacks is clamped down; a budget becomes an effort, said once.
    expect(thinking({ facts: { ...adaptiveOnly }, reasoning: { effort: "max" } })).toEqual({
      thinking: { type: "adaptive", display: "summarized" },
      effort: "high",
      notices: [],
    });
    const fromBudget = thinking({ facts: { ...adaptiveOnly }, reasoning: { budgetTokens: 2000 } });
    expect(fromBudget.effort).toBe("low");
    expect(fromBudget.notices).toHaveLength(1);
    // Manual budgets only: an effort becomes a budget that fits below max_tokens.
    expect(
      thinking({ facts: { thinking: modes("enabled", "disabled") }, reasoning: { effort: "high" } }),
    ).toEqual({
      thinking: { type: "enabled", budget_tokens: 12_000, display: "summarized" },
      notices: [],
    });
    // Off: disabled, between_tools, or nothing at all on a model that always thinks.
    expect(thinking({ facts: { thinking: modes("adaptive", "enabled", "disabled") } }).thinking).toEqual({
      type: "disabled",
    });
    expect(thinking({ facts: { thinking: modes("adaptive", "between_tools") } }).thinking).toEqual({
      type: "between_tools",
    });
    expect(thinking({ facts: { thinking: modes("adaptive") } }).thinking).toBeUndefined();
    // A model known not to think is told nothing, and the user is told why.
    const none = { adaptive: false, enabled: false, disabled: false, between_tools: false };
    expect(
      thinking({ facts: { contextWindow: 1000, thinking: none }, reasoning: { effort: "high" } }),
    ).toEqual({
      notices: ["claude-test does not think: assistant.reasoning is not sent"],
    });
    // One whose thinking jp knows nothing of (its window known) gets the setting as configured.
    expect(thinking({ facts: { contextWindow: 1000 }, reasoning: { budgetTokens: 2048 } }).thinking).toEqual({
      type: "enabled",
      budget_tokens: 2048,
    });
    // A model jp knows nothing of: a budget as it always was, an effort as adaptive.
    expect(thinking({ reasoning: { budgetTokens: 2048 } }).thinking).toEqual({
      type: "enabled",
      budget_tokens: 2048,
    });
    expect(thinking({ reasoning: { effort: "medium" } })).toMatchObject({
      thinking: { type: "adaptive" },
      effort: "medium",
    });
    expect(thinking({}).thinking).toBeUndefined();
  });

  it("refuses a budget below 1,024 or not below max_tokens, naming the settings", () => {
    const facts = { thinking: modes("enabled", "disabled") };
    expect(() => thinking({ facts, reasoning: { budgetTokens: 16_000 } })).toThrow(
      "the thinking budget 16,000 does not fit claude-test: it must be at least 1,024 and below max_tokens (16,000)",
    );
    expect(() => thinking({ facts, reasoning: { budgetTokens: 500 } })).toThrow(JpError);
  });
});
