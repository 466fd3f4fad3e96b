// The Responses API mapping without HTTP: events to input items, and the
// documented stream events to parts (a cut call, a failed response, a cut stream).
import { describe, expect, it } from "vitest";
import type { Event } from "../../../../src/events/index.js";
import { StreamCutError, StreamErrorEvent } from "../../../../src/llm/errors.js";
import { responsesBody, responsesParts } from "../../../../src/llm/providers/openai/responses.js";
import type { StreamPart } from "../../../../src/llm/types.js";
import { requestFor } from "../../../support/stream.js";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { sdkTypeErrors } from "../../../support/sdk-types.js";

const at = "2026-12-01T10:00:00Z";
const request = requestFor("gpt-5.5");

async function parts(events: unknown[]): Promise<StreamPart[]> {
  async function* source() {
    // Cast: the events are written as the API documents them, some fields left out.
    for (const e of events) yield e as ResponseStreamEvent;
    await Promise.resolve();
  }
  const out: StreamPart[] = [];
  for await (const p of responsesParts(source())) out.push(p);
  return out;
}

describe("responsesBody", () => {
  const conversation = (writer: string): Event[] => [
    { type: "chat_request", timestamp: at, content: "q" },
    {
      type: "chat_response",
      timestamp: at,
      reasoning: "thought",
      metadata: { openai_reasoning_item: { id: "rs_1", encrypted_content: "ENC" } },
    },
    // Anthropic's thinking has no place in this API.
    {
      type: "chat_response",
      timestamp: at,
      reasoning: "claude thought",
      metadata: { anthropic_thinking_signature: "S" },
    },
    { type: "chat_response", timestamp: at, message: "answer", metadata: { model: writer } },
  ];

  it("sends reasoning items back to the model that wrote them, and to no other", () => {
    const same = responsesBody(request(conversation("openai/gpt-5.5")));
    expect(same.input).toEqual([
      { role: "user", content: "q" },
      {
        type: "reasoning",
        id: "rs_1",
        summary: [{ type: "summary_text", text: "thought" }],
        encrypted_content: "ENC",
      },
      { role: "assistant", content: "answer" },
    ]);
    const other = responsesBody(request(conversation("openai/gpt-5")));
    expect(other.input).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: "answer" },
    ]);
    expect(sdkTypeErrors("responses", [same, other])).toEqual([]);
  });

  it("sets instructions, the tools and a forced one, and reasoning only where it is asked for or the model reasons", () => {
    const tools = [{ name: "grep", description: "search", parameters: { type: "object", properties: {} } }];
    const body = responsesBody(
      request([{ type: "chat_request", timestamp: at, content: "q" }], {
        system: "be brief",
        tools,
        toolChoice: { name: "grep" },
        cache: { key: "conv1", ttl: "5m" },
      }),
    );
    expect(body).toMatchObject({
      instructions: "be brief",
      tool_choice: { type: "function", name: "grep" },
      tools: [{ type: "function", name: "grep", description: "search", strict: false }],
      prompt_cache_key: "conv1",
      store: false,
    });
    expect(body.reasoning).toBeUndefined();
    const reasoner = responsesBody(
      request([], { facts: { reasons: true, efforts: ["none", "low", "high"] } }),
    );
    expect(reasoner.reasoning).toEqual({ effort: "none", summary: "auto" });
    // With effort none nothing is reasoned: there is nothing encrypted to ask for (as JP's recordings send it).
    expect(reasoner.include).toBeUndefined();
    const low = responsesBody(request([], { facts: { reasons: true }, reasoning: { effort: "low" } }));
    expect(low.include).toEqual(["reasoning.encrypted_content"]);
    const plain = responsesBody(request([], { facts: { reasons: false }, reasoning: { effort: "high" } }));
    expect(plain.reasoning).toBeUndefined();
    expect(plain.include).toBeUndefined();
    // A model jp knows nothing of may reason: what it reasons comes back encrypted, so it can go back.
    expect(body.include).toEqual(["reasoning.encrypted_content"]);
    // A model jp knows only some figures of is sent the effort asked for.
    const partly = responsesBody(
      request([], { facts: { contextWindow: 1000 }, reasoning: { effort: "high" } }),
    );
    expect(partly.reasoning).toEqual({ effort: "high", summary: "auto" });
  });
});

describe("responsesParts", () => {
  it("streams summaries and text, takes a reasoning item's encrypted content and a call whole, and counts cached input", async () => {
    const got = await parts([
      { type: "response.created", response: {} },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [] },
      },
      { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 0 },
      { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 0, delta: "hm" },
      { type: "response.reasoning_summary_part.added", output_index: 0, summary_index: 1 },
      { type: "response.reasoning_summary_text.delta", output_index: 0, summary_index: 1, delta: "ok" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "ENC" },
      },
      {
        type: "response.output_item.added",
        output_index: 1,
        item: { type: "function_call", call_id: "c1", name: "grep", arguments: "" },
      },
      { type: "response.function_call_arguments.delta", output_index: 1, delta: '{"q":1}' },
      {
        type: "response.output_item.done",
        output_index: 1,
        item: { type: "function_call", call_id: "c1", name: "grep", arguments: '{"q":1}' },
      },
      {
        type: "response.completed",
        response: {
          output: [],
          usage: {
            input_tokens: 100,
            input_tokens_details: { cached_tokens: 64 },
            output_tokens: 30,
            output_tokens_details: { reasoning_tokens: 20 },
          },
        },
      },
    ]);
    expect(got).toEqual([
      { type: "reasoning", text: "" },
      { type: "reasoning", text: "hm" },
      { type: "reasoning", text: "\n\n" },
      { type: "reasoning", text: "ok" },
      { type: "reasoning_item", item: { id: "rs_1", encrypted_content: "ENC" } },
      { type: "block_end" },
      { type: "tool_call", id: "c1", name: "grep", arguments: { q: 1 } },
      { type: "usage", inputTokens: 100, outputTokens: 30, cacheReadTokens: 64, reasoningTokens: 20 },
      { type: "stop", reason: "tool_use" },
    ]);
  });

  it("gives a call the output cap cut off as cut, and a failed response or a cut stream as errors", async () => {
    const cut = await parts([
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { type: "function_call", call_id: "c1", name: "write", arguments: "" },
      },
      { type: "response.function_call_arguments.delta", output_index: 0, delta: '{"text":"hal' },
      { type: "response.incomplete", response: { incomplete_details: { reason: "max_output_tokens" } } },
    ]);
    expect(cut).toEqual([
      { type: "cut_tool_call", id: "c1", name: "write", partialArguments: '{"text":"hal' },
      { type: "stop", reason: "max_tokens" },
    ]);
    await expect(
      parts([{ type: "response.failed", response: { error: { code: "server_error", message: "boom" } } }]),
    ).rejects.toThrow(StreamErrorEvent);
    await expect(parts([{ type: "response.output_text.delta", delta: "half" }])).rejects.toThrow(
      StreamCutError,
    );
  });
});
