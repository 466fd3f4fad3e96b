// The OpenAI Chat Completions mapping without HTTP: events to a request body,
// and streamed chunks (as OpenAI and compatible servers send them) to parts.
import { describe, expect, it } from "vitest";
import { type Event, PROVIDER_BLOCK_KEY, REASONING_FIELD_KEY, REFUSAL_KEY } from "../../src/events/index.js";
import { StreamCutError, StreamErrorEvent } from "../../src/llm/errors.js";
import { DONE, openaiBody, openaiParts } from "../../src/llm/chat-completions.js";
import { COMPATIBLE_DIALECT, type ChatDialect } from "../../src/llm/chat-dialect.js";
import type { StreamPart } from "../../src/llm/types.js";
import { requestFor } from "../support/stream.js";

const at = "2026-01-01T00:00:00Z";
const request = requestFor("gpt-test");

type Chunk = Parameters<typeof openaiParts>[0] extends AsyncIterable<infer C> ? C : never;

async function parts(chunks: Chunk[]): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of openaiParts(ReadableStream.from(chunks))) out.push(part);
  return out;
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null): Chunk => ({
  id: "c",
  object: "chat.completion.chunk",
  created: 0,
  model: "gpt-test",
  choices: [{ index: 0, delta, finish_reason: finish as never, logprobs: null }],
});

describe("openaiBody", () => {
  it("maps a turn with tools: the system message first, calls on the assistant message, errors marked in results", () => {
    const body = openaiBody(
      request(
        [
          { type: "chat_request", timestamp: at, content: "q" },
          { type: "chat_response", timestamp: at, message: "Looking." },
          { type: "tool_call_request", timestamp: at, id: "c1", name: "grep", arguments: { q: "x" } },
          { type: "tool_call_response", timestamp: at, id: "c1", content: "no such file", is_error: true },
          { type: "chat_response", timestamp: at, message: "Done." },
        ],
        {
          system: "be brief",
          tools: [{ name: "grep", description: "search", parameters: { type: "object" } }],
        },
      ),
    );
    expect(body.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "c1", type: "function", function: { name: "grep", arguments: '{"q":"x"}' } }],
      },
      { role: "tool", tool_call_id: "c1", content: "Error: no such file" },
      { role: "assistant", content: "Done." },
    ]);
    expect(body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 1000,
      tool_choice: "auto",
      tools: [
        {
          type: "function",
          function: { name: "grep", description: "search", parameters: { type: "object" } },
        },
      ],
    });
  });

  it("sends a refusal back as refusal, reasoning back in the field it came in, and leaves out another provider's blocks", () => {
    const body = openaiBody(
      request(
        [
          { type: "chat_request", timestamp: at, content: "q" },
          {
            type: "chat_response",
            timestamp: at,
            reasoning: "think",
            metadata: { [REASONING_FIELD_KEY]: "reasoning_content" },
          },
          { type: "chat_response", timestamp: at, reasoning: "never sent: no field of its own" },
          { type: "chat_response", timestamp: at, message: "I can't.", metadata: { [REFUSAL_KEY]: true } },
          {
            type: "chat_response",
            timestamp: at,
            data: { type: "server_tool_use" },
            metadata: { [PROVIDER_BLOCK_KEY]: true },
          },
        ],
        {
          cache: { key: "conv-1", ttl: "5m" },
          toolChoice: { name: "grep" },
          tools: [{ name: "grep", description: "", parameters: {} }],
        },
      ),
    );
    expect(body.messages).toEqual([
      { role: "user", content: "q" },
      { role: "assistant", content: null, reasoning_content: "think", refusal: "I can't." },
    ]);
    expect(body.prompt_cache_key).toBe("conv-1");
    expect(body.tool_choice).toEqual({ type: "function", function: { name: "grep" } });
  });
});

describe("a dialect's hooks", () => {
  // A server with rules of its own for call ids (Mistral's: nine letters and digits), which
  // flags could not say: the hook rewrites every id sent back, on the call and on its result alike.
  const nineCharacterIds: ChatDialect = {
    ...COMPATIBLE_DIALECT,
    callId: (id) =>
      id
        .replace(/[^A-Za-z0-9]/g, "")
        .slice(-9)
        .padStart(9, "0"),
  };
  const history: Event[] = [
    { type: "chat_request", timestamp: at, content: "q" },
    {
      type: "tool_call_request",
      timestamp: at,
      id: "toolu_01AbCdEfGhIjK",
      name: "grep",
      arguments: {},
    },
    {
      type: "tool_call_response",
      timestamp: at,
      id: "toolu_01AbCdEfGhIjK",
      content: "none",
      is_error: false,
    },
  ];

  it("sends every call id back in the form the server takes, the same on the call and its result", () => {
    const body = openaiBody(request(history), nineCharacterIds);
    expect(body.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "CdEfGhIjK", type: "function", function: { name: "grep", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "CdEfGhIjK", content: "none" },
    ]);
  });

  it("leaves ids as recorded for a dialect without the hook", () => {
    const body = openaiBody(request(history), COMPATIBLE_DIALECT);
    expect(body.messages[2]).toEqual({ role: "tool", tool_call_id: "toolu_01AbCdEfGhIjK", content: "none" });
  });

  it("caps the output, forces a tool and sends reasoning each in the dialect's own way", () => {
    const forcing = request([{ type: "chat_request", timestamp: at, content: "q" }], {
      toolChoice: { name: "grep" },
      tools: [
        { name: "grep", description: "", parameters: {} },
        { name: "read", description: "", parameters: {} },
      ],
    });
    const compatible = openaiBody(forcing, COMPATIBLE_DIALECT);
    expect(compatible).toMatchObject({ max_tokens: 1000, tool_choice: "required" });
    expect(compatible.tools?.map((t) => t.type === "function" && t.function.name)).toEqual(["grep"]);
    expect(compatible.max_completion_tokens).toBeUndefined();
    const openai = openaiBody(forcing);
    expect(openai).toMatchObject({
      max_completion_tokens: 1000,
      tool_choice: { function: { name: "grep" } },
    });
    expect(openai.tools).toHaveLength(2);
  });
});

describe("openaiParts", () => {
  it("assigns a call's id and name (a server repeating them does not double them), appends its arguments, and counts usage", async () => {
    const got = await parts([
      chunk({ role: "assistant", content: "Hi" }),
      chunk({
        tool_calls: [
          { index: 0, id: "c1", type: "function", function: { name: "grep", arguments: '{"q":' } },
        ],
      }),
      chunk(
        { tool_calls: [{ index: 0, id: "c1", function: { name: "grep", arguments: '"x"}' } }] },
        "tool_calls",
      ),
      {
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "gpt-test",
        choices: [],
        usage: {
          prompt_tokens: 7,
          completion_tokens: 3,
          total_tokens: 10,
          prompt_tokens_details: { cached_tokens: 4 },
        },
      },
      DONE,
    ]);
    expect(got).toEqual([
      { type: "text", text: "Hi" },
      { type: "usage", inputTokens: 7, outputTokens: 3, cacheReadTokens: 4 },
      { type: "tool_call", id: "c1", name: "grep", arguments: { q: "x" } },
      { type: "stop", reason: "tool_use" },
    ]);
  });

  it("generates a missing call id, reads reasoning_content and refusals, and takes [DONE] without a finish reason", async () => {
    const got = await parts([
      chunk({ reasoning_content: "hmm" }),
      chunk({ refusal: "no" }),
      chunk({ tool_calls: [{ index: 0, function: { name: "grep", arguments: "{}" } }] }),
      DONE,
    ]);
    expect(got.slice(0, 3)).toEqual([
      { type: "reasoning_field", field: "reasoning_content" },
      { type: "reasoning", text: "hmm" },
      { type: "refusal", text: "no" },
    ]);
    expect(got[3]).toMatchObject({ type: "tool_call", name: "grep", arguments: {} });
    expect((got[3] as { id: string }).id).toMatch(/^call_/);
    expect(got[4]).toEqual({ type: "stop", reason: "tool_use" });
  });

  it("gives arguments cut at the length limit as a cut call; refuses malformed ones otherwise, and a stream cut before [DONE]", async () => {
    const cut = await parts([
      chunk(
        { tool_calls: [{ index: 0, id: "c1", function: { name: "write", arguments: '{"text":"ab' } }] },
        "length",
      ),
      DONE,
    ]);
    expect(cut).toEqual([
      { type: "cut_tool_call", id: "c1", name: "write", partialArguments: '{"text":"ab' },
      { type: "stop", reason: "max_tokens" },
    ]);
    await expect(
      parts([
        chunk(
          { tool_calls: [{ index: 0, id: "c1", function: { name: "w", arguments: "{oops" } }] },
          "tool_calls",
        ),
        DONE,
      ]),
    ).rejects.toThrow(StreamErrorEvent);
    await expect(parts([chunk({ content: "partial" })])).rejects.toThrow(StreamCutError);
  });
});
