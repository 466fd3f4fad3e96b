// Recorded provider streams replayed to `jp q` over real HTTP: the official
// SDKs' own fixtures (fixtures/sdk-streams, see its NOTICE) where they exist,
// streams written to the providers' documented event shapes where not. Each
// case checks what the log keeps and what the next request sends back.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject, type Event } from "../../src/events/index.js";
import type { RawResponse, ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { sdkTypeErrors } from "../support/sdk-types.js";
import { REPO_ROOT } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const SDK_STREAMS = path.join(REPO_ROOT, "fixtures/sdk-streams");

/** A recorded stream from an SDK's suite, in pieces of at most 64 bytes (as a network would cut it). */
function recorded(file: string, extra: Partial<RawResponse> = {}): ScriptedResponse {
  const text = fs.readFileSync(path.join(SDK_STREAMS, file), "utf8");
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 64) pieces.push(text.slice(i, i + 64));
  return { raw: { pieces, ...extra } };
}

/** An Anthropic stream written to the documented event shapes. */
function anthropicStream(
  content: Record<string, unknown>[],
  stop: string,
  deltas: Delta[][] = [],
): ScriptedResponse {
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "msg_doc",
          type: "message",
          role: "assistant",
          model: "claude-mock",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 40, output_tokens: 1 },
        },
      },
    ],
  ];
  content.forEach((block, index) => {
    events.push(["content_block_start", { type: "content_block_start", index, content_block: block }]);
    for (const delta of deltas[index] ?? [])
      events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    { type: "message_delta", delta: { stop_reason: stop }, usage: { output_tokens: 9 } },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return {
    raw: { pieces: events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`) },
  };
}
type Delta = Record<string, unknown>;

/** An OpenAI-compatible stream of the given chunk deltas (and finish reason on the last), named as given. */
function openaiStream(
  deltas: Record<string, unknown>[],
  finish: string | null,
  options: { eventName?: string; done?: boolean } = {},
): ScriptedResponse {
  const named = options.eventName ? `event: ${options.eventName}\n` : "";
  const chunk = (delta: Record<string, unknown>, reason: string | null) =>
    `${named}data: ${JSON.stringify({
      id: "chatcmpl-doc",
      object: "chat.completion.chunk",
      created: 1,
      model: "gpt-mock",
      choices: [{ index: 0, delta, finish_reason: reason }],
    })}\n\n`;
  const pieces = deltas.map((d, i) => chunk(d, i === deltas.length - 1 ? finish : null));
  if (options.done ?? true) pieces.push("data: [DONE]\n\n");
  return { raw: { pieces } };
}

type Message = { role: string; content: unknown; [key: string]: unknown };
const messages = (n: number) => (w!.mock.requests[n]!.body as { messages: Message[] }).messages;
const stripCache = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === "cache_control" ? undefined : v)));
const responses = (events: Event[]) =>
  events.filter((e) => e.type === "chat_response" || e.type === "tool_call_request");
const meta = (e: Event) =>
  isJsonObject((e as { metadata?: unknown }).metadata)
    ? (e as { metadata: Record<string, unknown> }).metadata
    : {};

describe("Anthropic streams kept and sent back exactly", () => {
  it("replays the SDK's tool_use fixture: the call, its text, and the next request's tool_use/tool_result", async () => {
    w = await qWorkspace({
      script: [recorded("anthropic/tool_use_response.sse"), recorded("anthropic/basic_response.sse")],
    });
    const result = await w.jp("q", "weather in Paris?");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Hello there!");
    const assistant = messages(1).at(-2)!;
    expect(stripCache(assistant)).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "I'll check the current weather in Paris for you." },
        {
          type: "tool_use",
          id: "toolu_01NRLabsLyVHZPKxbKvkfSMn",
          name: "get_weather",
          input: { location: "Paris" },
        },
      ],
    });
    // jp has no get_weather: the call is answered as an error, paired with its id.
    expect(stripCache(messages(1).at(-1))).toMatchObject({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: "toolu_01NRLabsLyVHZPKxbKvkfSMn", is_error: true }],
    });
  });

  it("keeps server tool blocks and their results verbatim (the SDK's web search fixture) and sends them back", async () => {
    w = await qWorkspace({ script: [recorded("anthropic/stream-a-toolrefusal.sse"), { text: "ok" }] });
    const first = await w.jp("q", "eclipses this year?");
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("declined");
    const kept = responses(w.events());
    expect(
      kept.map((e) =>
        e.type === "chat_response"
          ? Object.keys(e).filter((k) => ["message", "reasoning", "data"].includes(k))[0]
          : e.type,
      ),
    ).toEqual(["data", "data", "message"]);
    await w.jp("q", "thanks");
    const sent = stripCache(messages(1).at(-2)) as Message;
    const blocks = sent.content as Record<string, unknown>[];
    expect(blocks.map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result", "text"]);
    expect(blocks[0]).toEqual({
      type: "server_tool_use",
      id: "srvtoolu_fixture_a_0001",
      name: "web_search",
      input: { query: "solar eclipse viewing safety news 2026" },
    });
    // The search result goes back byte for byte as the SDK's fixture has it.
    const fixture = fs.readFileSync(path.join(SDK_STREAMS, "anthropic/stream-a-toolrefusal.sse"), "utf8");
    const start = fixture.split("\n").find((l) => l.includes('"web_search_tool_result"'))!;
    const original = (JSON.parse(start.slice("data: ".length)) as { content_block: unknown }).content_block;
    expect(blocks[1]).toEqual(original);
  });

  it("keeps two thinking blocks of one answer apart, each with its own signature, in order", async () => {
    const interleaved = anthropicStream(
      [
        { type: "thinking", thinking: "", signature: "" },
        { type: "text", text: "" },
        { type: "thinking", thinking: "", signature: "" },
        { type: "tool_use", id: "toolu_i1", name: "count_words", input: {} },
      ],
      "tool_use",
      [
        [
          { type: "thinking_delta", thinking: "First I look." },
          { type: "signature_delta", signature: "sig-A" },
        ],
        [{ type: "text_delta", text: "Let me count." }],
        [
          { type: "thinking_delta", thinking: "Now the tool." },
          { type: "signature_delta", signature: "sig-B" },
        ],
        [{ type: "input_json_delta", partial_json: '{"path":"notes.txt"}' }],
      ],
    );
    w = await qWorkspace({
      script: [interleaved, { text: "5 words." }],
      extraConfig: "[assistant.reasoning]\nbudget_tokens = 2048\n",
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    expect(stripCache(messages(1).at(-2))).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "First I look.", signature: "sig-A" },
        { type: "text", text: "Let me count." },
        { type: "thinking", thinking: "Now the tool.", signature: "sig-B" },
        { type: "tool_use", id: "toolu_i1", name: "count_words", input: { path: "notes.txt" } },
      ],
    });
    expect(w.mock.requests.every((r) => isJsonObject(r.body.thinking))).toBe(true);
  });

  it("keeps two text blocks apart, the first with the citations that streamed with it", async () => {
    const citation = {
      type: "char_location",
      cited_text: "one two three",
      document_index: 0,
      document_title: "notes.txt",
      start_char_index: 0,
      end_char_index: 13,
    };
    const cited = anthropicStream(
      [
        { type: "text", text: "", citations: [] },
        { type: "text", text: "" },
      ],
      "end_turn",
      [
        [
          { type: "citations_delta", citation },
          { type: "text_delta", text: "The notes start with counting." },
        ],
        [{ type: "text_delta", text: "That is all." }],
      ],
    );
    w = await qWorkspace({ script: [cited, { text: "ok" }] });
    const answered = await w.jp("q", "what do the notes say?");
    expect(answered.code).toBe(0);
    // On screen too, two blocks are two paragraphs, not one run-together line.
    expect(answered.stdout).toContain("The notes start with counting.\n\nThat is all.");
    expect(responses(w.events()).map((e) => (e as { message?: string }).message)).toEqual([
      "The notes start with counting.",
      "That is all.",
    ]);
    await w.jp("q", "thanks");
    expect(stripCache(messages(1).at(-2))).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "The notes start with counting.", citations: [citation] },
        { type: "text", text: "That is all." },
      ],
    });
  });

  it("keeps a redacted thinking block and sends it back before the tool call it led to", async () => {
    const redacted = anthropicStream(
      [
        {
          type: "redacted_thinking",
          data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
        },
        { type: "tool_use", id: "toolu_r1", name: "count_words", input: {} },
      ],
      "tool_use",
      [[], [{ type: "input_json_delta", partial_json: '{"path":"notes.txt"}' }]],
    );
    w = await qWorkspace({
      script: [redacted, { text: "5." }],
      extraConfig: "[assistant.reasoning]\nbudget_tokens = 2048\n",
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    const kept = responses(w.events())[0]!;
    expect(kept).toMatchObject({ type: "chat_response", reasoning: "" });
    expect(meta(kept).anthropic_redacted_thinking).toBe(
      "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
    );
    expect(stripCache(messages(1).at(-2))).toEqual({
      role: "assistant",
      content: [
        {
          type: "redacted_thinking",
          data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP",
        },
        { type: "tool_use", id: "toolu_r1", name: "count_words", input: { path: "notes.txt" } },
      ],
    });
    // Printing a redacted block shows that it was there, not its data.
    const printed = await w.jp("conversation", "print");
    expect(printed.stdout).toContain("redacted");
    expect(printed.stdout).not.toContain("EmwKAhgB");
  });

  it("keeps one thinking setting for a whole -u turn: off in every request when a tool is forced", async () => {
    w = await qWorkspace({
      script: [
        { tool_calls: [{ id: "toolu_u1", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "5 words." },
      ],
      extraConfig: "[assistant.reasoning]\nbudget_tokens = 2048\n",
    });
    const result = await w.jp("q", "-u", "count_words", "count");
    expect(result.code).toBe(0);
    expect(w.mock.requests).toHaveLength(2);
    expect(w.mock.requests.map((r) => r.body.thinking)).toEqual([undefined, undefined]);
    expect(result.stderr).toContain("thinking is off for this turn");
  });

  it("ends the turn with one request and one clear error when max_tokens cuts a tool call's arguments (the SDK's fixture)", async () => {
    w = await qWorkspace({
      script: [recorded("anthropic/incomplete_partial_json_response.sse"), { text: "ok" }],
    });
    const result = await w.jp("q", "write my tax guide");
    expect(result.code).toBe(1);
    expect(w.mock.requests).toHaveLength(1);
    expect(result.stderr).toMatch(
      /cut off at the output limit \(8,192 tokens\) while the model was writing the arguments of make_file/,
    );
    expect(result.stderr).toContain("assistant.request.max_tokens");
    expect(result.stderr).not.toMatch(/could not reach|retry/i);
    const events = w.events();
    const call = events.find((e) => e.type === "tool_call_request")!;
    expect(call).toMatchObject({ id: "toolu_01EKqbqmZrGRXy18eN7m9kvY", name: "make_file", arguments: {} });
    expect(String(meta(call).cut_arguments)).toContain('{"filename": "taxes.txt"');
    expect(events.find((e) => e.type === "tool_call_response")).toMatchObject({ is_error: true });
    // The conversation stays valid: the next question goes out with the call answered.
    expect((await w.jp("q", "shorter please")).code).toBe(0);
    expect(stripCache(messages(1).at(-1))).toMatchObject({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_01EKqbqmZrGRXy18eN7m9kvY", is_error: true },
        { type: "text", text: "shorter please" },
      ],
    });
  });

  it("counts an attempt that was cut off and retried: its input was billed", async () => {
    w = await qWorkspace({
      script: [
        { text: "lost", usage: { input: 700, output: 3 }, fault: { cut_after_events: 2 } },
        { text: "kept", usage: { input: 700, output: 4 } },
      ],
    });
    expect((await w.jp("q", "hello")).code).toBe(0);
    const last = responses(w.events()).at(-1)!;
    expect(meta(last).usage).toMatchObject({ input_tokens: 700, output_tokens: 4 });
    expect(meta(last).discarded_attempts).toEqual([{ input_tokens: 700, output_tokens: 1 }]);
    const shown = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as {
      usage: { requests: number; input_tokens: number };
    };
    expect(shown.usage).toMatchObject({ requests: 2, input_tokens: 1400 });
  });
});

describe("OpenAI-compatible streams accumulated forgivingly", () => {
  it("assigns a tool name a server repeats in every chunk and generates an id it left empty", async () => {
    const repeated = openaiStream(
      [
        { role: "assistant", content: null },
        {
          tool_calls: [
            { index: 0, id: "", type: "function", function: { name: "count_words", arguments: "" } },
          ],
        },
        {
          tool_calls: [
            { index: 0, id: "", type: "function", function: { name: "count_words", arguments: '{"path":' } },
          ],
        },
        {
          tool_calls: [
            {
              index: 0,
              id: "",
              type: "function",
              function: { name: "count_words", arguments: '"notes.txt"}' },
            },
          ],
        },
        {},
      ],
      "tool_calls",
    );
    w = await qWorkspace({
      provider: "openai",
      script: [repeated, { text: "5 words." }, { text: "still 5." }],
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    const call = w.events().find((e) => e.type === "tool_call_request") as { id: string; name: string };
    expect(call.name).toBe("count_words");
    expect(call.id).toMatch(/^call_[a-z0-9]+$/);
    const [assistant, tool] = messages(1).slice(-2);
    expect((assistant!.tool_calls as { id: string }[])[0]!.id).toBe(call.id);
    expect(tool).toMatchObject({ role: "tool", tool_call_id: call.id, content: "5\n" });
    // And the conversation goes on: a recorded id is never empty.
    expect((await w.jp("q", "again")).code).toBe(0);
  });

  it("reads chunks a server names `event: message`", async () => {
    w = await qWorkspace({
      provider: "openai",
      script: [
        openaiStream([{ role: "assistant", content: "named " }, { content: "chunks" }], "stop", {
          eventName: "message",
        }),
      ],
    });
    const result = await w.jp("q", "hi");
    expect(result.stdout).toContain("named chunks");
  });

  it("records a refusal as one (the SDK's recorded refusal) and sends it back in `refusal`", async () => {
    w = await qWorkspace({ provider: "openai", script: [recorded("openai/refusal.sse"), { text: "ok" }] });
    const result = await w.jp("q", "something");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the model declined to answer");
    const kept = responses(w.events())[0]!;
    expect(meta(kept).refusal).toBe(true);
    await w.jp("q", "fine");
    const assistant = messages(1).at(-2)!;
    expect(assistant.content).toBeNull();
    expect(assistant.refusal).toBe((kept as { message: string }).message);
    expect(String(assistant.refusal)).toMatch(/^I'm /);
  });

  it("sends DeepSeek's reasoning_content back on the assistant message that made tool calls", async () => {
    const deepseek = openaiStream(
      [
        { role: "assistant", content: null, reasoning_content: "The file " },
        { reasoning_content: "needs counting." },
        {
          tool_calls: [
            {
              index: 0,
              id: "call_ds1",
              type: "function",
              function: { name: "count_words", arguments: '{"path":"notes.txt"}' },
            },
          ],
        },
      ],
      "tool_calls",
    );
    w = await qWorkspace({ provider: "openai", script: [deepseek, { text: "5." }] });
    expect((await w.jp("q", "count")).code).toBe(0);
    expect(messages(1).at(-2)).toEqual({
      role: "assistant",
      content: null,
      reasoning_content: "The file needs counting.",
      tool_calls: [
        {
          id: "call_ds1",
          type: "function",
          function: { name: "count_words", arguments: '{"path":"notes.txt"}' },
        },
      ],
    });
  });

  it("reports a 200 carrying a JSON error body once, with the server's message", async () => {
    w = await qWorkspace({
      provider: "openai",
      script: [
        {
          raw: {
            pieces: ['{"error":{"message":"model \\"qwen9\\" not found, try pulling it first"}}'],
            headers: { "content-type": "application/json" },
          },
        },
      ],
    });
    const result = await w.jp("q", "hi");
    expect(result.code).toBe(1);
    expect(w.mock.requests).toHaveLength(1);
    expect(result.stderr).toContain('model "qwen9" not found, try pulling it first');
    expect(result.stderr).not.toContain("cut off");
  });

  it("accepts a stream that ends with [DONE] but names no finish_reason", async () => {
    w = await qWorkspace({
      provider: "openai",
      script: [openaiStream([{ role: "assistant", content: "no reason given" }], null)],
    });
    const result = await w.jp("q", "hi");
    expect(result.code).toBe(0);
    expect(w.mock.requests).toHaveLength(1);
    expect(result.stdout).toContain("no reason given");
  });

  it("ends with one request and a clear error when `length` cuts a tool call's arguments", async () => {
    const cut = openaiStream(
      [
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              index: 0,
              id: "call_c1",
              type: "function",
              function: { name: "count_words", arguments: '{"path":"no' },
            },
          ],
        },
      ],
      "length",
    );
    w = await qWorkspace({ provider: "openai", script: [cut] });
    const result = await w.jp("q", "count");
    expect(result.code).toBe(1);
    expect(w.mock.requests).toHaveLength(1);
    expect(result.stderr).toContain("while the model was writing the arguments of count_words");
  });

  it("reads the SDK's recorded streams, leading blank lines included", async () => {
    w = await qWorkspace({
      provider: "openai",
      script: [recorded("openai/works.sse"), recorded("openai/leading-newlines.sse")],
    });
    expect((await w.jp("q", "weather?")).stdout).toContain('"city":"San Francisco"');
    expect((await w.jp("q", "again?")).stdout).toContain('"city":"San Francisco"');
  });
});

describe("OpenAI Responses streams recorded by openai-node", () => {
  it("reads the plain text stream, usage included", async () => {
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      script: [recorded("openai/responses-text.sse")],
    });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Hello world");
    const answer = w.events().find((e) => e.type === "chat_response")!;
    expect(answer.metadata).toMatchObject({ usage: { input_tokens: 10, output_tokens: 2 } });
  });

  it("keeps raw reasoning text and its item (done only in response.completed), and sends it back as content", async () => {
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      script: [recorded("openai/responses-reasoning.sse"), { text: "ok" }],
    });
    const result = await w.jp("q", "what is the answer?");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("The answer is 42");
    const [reasoning, answer] = w.events().filter((e) => e.type === "chat_response");
    expect(reasoning).toMatchObject({
      reasoning: "Chain: Step 1. Step 2.",
      metadata: { openai_reasoning_item: { id: "r1", text: "content" } },
    });
    expect(answer).toMatchObject({
      message: "The answer is 42",
      metadata: { usage: { output_tokens: 6, reasoning_tokens: 2 } },
    });
    expect((await w.jp("q", "and then?")).code).toBe(0);
    const input = (w.mock.requests[1]!.body as { input: unknown[] }).input;
    expect(input.slice(1, 3)).toEqual([
      {
        type: "reasoning",
        id: "r1",
        summary: [],
        content: [{ type: "reasoning_text", text: "Chain: Step 1. Step 2." }],
      },
      { role: "assistant", content: "The answer is 42" },
    ]);
    expect(
      sdkTypeErrors(
        "responses",
        w.mock.requests.map((r) => r.body),
      ),
    ).toEqual([]);
  });
});
