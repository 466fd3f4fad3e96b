// Both providers over real HTTP against the local mock server.
import * as http from "node:http";
import * as net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import {
  AuthError,
  isLocalUrl,
  MissingKeyError,
  OverloadedError,
  RateLimitError,
  UnreachableError,
} from "../../src/llm/errors.js";
import { Config } from "../../src/config/schema.js";
import { createProvider } from "../../src/llm/create-provider.js";
import { streamWithRetries, type RetryPart } from "../../src/llm/retry.js";
import type { ModelRequest } from "../../src/llm/types.js";
import { startMockLlm, type MockLlm } from "../support/mock-llm.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const ts = "2026-01-01T00:00:00Z";
const history: Event[] = [
  { type: "turn_start", timestamp: ts },
  { type: "chat_request", timestamp: ts, content: "read the file" },
  {
    type: "chat_response",
    timestamp: ts,
    reasoning: "I should read it",
    metadata: { anthropic_thinking_signature: "sig-1" },
  },
  { type: "chat_response", timestamp: ts, message: "Reading." },
  { type: "tool_call_request", timestamp: ts, id: "t1", name: "read_file", arguments: { path: "a.txt" } },
  { type: "tool_call_response", timestamp: ts, id: "t1", content: "hello", is_error: false },
  { type: "tool_call_request", timestamp: ts, id: "t2", name: "read_file", arguments: { path: "b.txt" } },
  { type: "tool_call_response", timestamp: ts, id: "t2", content: "missing", is_error: true },
];
const request = (model: string, extra: Partial<ModelRequest> = {}): ModelRequest => ({
  model,
  system: "be brief",
  events: history,
  tools: [
    {
      name: "read_file",
      description: "Read a file",
      parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    },
  ],
  toolChoice: "auto",
  maxTokens: 1000,
  ...extra,
});

async function collect(parts: AsyncIterable<RetryPart>): Promise<RetryPart[]> {
  const out: RetryPart[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

const config = (provider: string, url: string) => ({
  providers: {
    [provider]: { base_url: provider === "anthropic" ? url : `${url}/v1`, api_key_env: "MOCK_KEY" },
  },
});
const env = { MOCK_KEY: "sk-test-secret" };
const options = { maxRetries: 3, backoffMs: 1, signal: new AbortController().signal };

describe("Anthropic provider", () => {
  it("streams reasoning with its signature, text, a tool call and usage", async () => {
    mock = await startMockLlm([
      {
        reasoning: "Let me think about this.",
        signature: "sig-xyz",
        text: "I will read b.txt again.",
        tool_calls: [{ id: "toolu_1", name: "read_file", arguments: { path: "b.txt" } }],
        usage: { input: 321, output: 45 },
      },
    ]);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", mock.url), env);
    const parts = await collect(streamWithRetries(provider, request("claude-test"), options));
    expect(
      parts
        .filter((p) => p.type === "reasoning")
        .map((p) => (p as { text: string }).text)
        .join(""),
    ).toBe("Let me think about this.");
    expect(parts).toContainEqual({ type: "reasoning_signature", signature: "sig-xyz" });
    expect(
      parts
        .filter((p) => p.type === "text")
        .map((p) => (p as { text: string }).text)
        .join(""),
    ).toBe("I will read b.txt again.");
    expect(parts).toContainEqual({
      type: "tool_call",
      id: "toolu_1",
      name: "read_file",
      arguments: { path: "b.txt" },
    });
    expect(parts.slice(-2)).toEqual([
      { type: "usage", inputTokens: 321, outputTokens: 45 },
      { type: "stop", reason: "tool_use" },
    ]);
  });

  it("sends the system prompt, thinking with its signature, paired tool results, one role per message, and the key in a header", async () => {
    mock = await startMockLlm([{ text: "ok" }]);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", mock.url), env);
    await collect(
      streamWithRetries(provider, request("claude-test", { toolChoice: { name: "read_file" } }), options),
    );
    const sent = mock.requests[0]!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("sk-test-secret");
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // The answer must come back as it is: node:http does not decompress.
    expect(sent.headers["accept-encoding"]).toBe("identity");
    expect(sent.body).toMatchObject({
      model: "claude-test",
      system: "be brief",
      max_tokens: 1000,
      stream: true,
      tool_choice: { type: "tool", name: "read_file" },
    });
    expect(sent.body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "read the file" }] },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "I should read it", signature: "sig-1" },
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "t1", name: "read_file", input: { path: "a.txt" } },
        ],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t1", content: "hello", is_error: false }],
      },
      {
        role: "assistant",
        content: [{ type: "tool_use", id: "t2", name: "read_file", input: { path: "b.txt" } }],
      },
      {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: "t2", content: "missing", is_error: true }],
      },
    ]);
    expect(sent.body.tools).toEqual([
      {
        name: "read_file",
        description: "Read a file",
        input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      },
    ]);
  });

  it("retries a 429 honouring retry-after and a 500, then succeeds", async () => {
    mock = await startMockLlm([
      { fault: { status: 429, retry_after: 0.001 } },
      { fault: { status: 500 } },
      { text: "finally" },
    ]);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", mock.url), env);
    const retries: string[] = [];
    const parts = await collect(
      streamWithRetries(provider, request("claude-test"), {
        ...options,
        onRetry: (e, n, ms) => retries.push(`${e.constructor.name} ${n} ${ms}`),
      }),
    );
    expect(retries).toEqual(["RateLimitError 1 1", "OverloadedError 2 2"]);
    expect(
      parts
        .filter((p) => p.type === "text")
        .map((p) => (p as { text: string }).text)
        .join(""),
    ).toBe("finally");
    expect(mock.requests).toHaveLength(3);
  });

  it("restarts after a stream cut mid-message", async () => {
    mock = await startMockLlm([
      { text: "a long answer that gets cut", event_delay_ms: 20, fault: { cut_after_events: 4 } },
      { text: "whole answer" },
    ]);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", mock.url), env);
    const retried: string[] = [];
    const parts = await collect(
      streamWithRetries(provider, request("claude-test"), {
        ...options,
        onRetry: (error) => retried.push(error.message),
      }),
    );
    expect(retried).toEqual([`the answer from anthropic at ${mock.url} was cut off before it was complete`]);
    const restart = parts.findIndex((p) => p.type === "restart");
    expect(restart).toBeGreaterThan(0);
    expect(
      parts
        .slice(restart)
        .filter((p) => p.type === "text")
        .map((p) => (p as { text: string }).text)
        .join(""),
    ).toBe("whole answer");
  });

  it("gives up after max retries with the provider's error, and explains auth failures in one line", async () => {
    mock = await startMockLlm([
      { fault: { status: 429, retry_after: 0 } },
      { fault: { status: 429, retry_after: 0 } },
    ]);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", mock.url), env);
    await expect(
      collect(streamWithRetries(provider, request("claude-test"), { ...options, maxRetries: 1 })),
    ).rejects.toBeInstanceOf(RateLimitError);
    mock.push({ fault: { status: 401, message: "invalid x-api-key" } });
    const error = await collect(streamWithRetries(provider, request("claude-test"), options)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AuthError);
    expect((error as Error).message).toBe("anthropic rejected the API key (401): invalid x-api-key");
    expect((error as Error).message).not.toContain("sk-test-secret");
  });
});

describe("a server that is slow to answer", () => {
  it("gives up after assistant.request.timeout_secs, saying how long it waited", async () => {
    mock = await startMockLlm([{ text: "late", delay_first_byte_ms: 2000 }]);
    const slow = { ...config("anthropic", mock.url), assistant: { request: { timeout_secs: 0.2 } } };
    const { provider } = createProvider("anthropic/claude-test", slow, env);
    const error = await collect(
      streamWithRetries(provider, request("claude-test"), { ...options, maxRetries: 0 }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toBe(`anthropic at ${mock.url} did not answer within 0.2 s`);
  });
});

describe("a server that cannot be reached", () => {
  /** A port on this machine where nothing listens. */
  async function closedPort(): Promise<number> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  it("names the URL, says the connection was refused, and retries a local server once", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { provider } = createProvider("lab/qwen3", config("lab", url), env);
    const retries: number[] = [];
    const error = await collect(
      streamWithRetries(provider, request("qwen3"), {
        ...options,
        maxRetries: 4,
        onRetry: (_e, attempt) => retries.push(attempt),
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toBe(
      `could not reach lab at ${url}/v1: connection refused (nothing is listening there)`,
    );
    expect((error as UnreachableError).hint).toBe(
      "start the server there, or set providers.lab.base_url to where it listens",
    );
    expect(retries).toEqual([1]);
  });

  it("keeps every retry for a remote host", () => {
    expect(isLocalUrl("http://127.0.0.1:11434/v1")).toBe(true);
    expect(isLocalUrl("http://localhost:8080")).toBe(true);
    expect(isLocalUrl("http://[::1]:8080")).toBe(true);
    expect(isLocalUrl("https://api.anthropic.com")).toBe(false);
    expect(isLocalUrl("http://192.168.1.20:11434")).toBe(false);
  });
});

describe("OpenAI and compatible providers", () => {
  it("streams text and tool calls, and maps history to messages with tool_calls and tool results", async () => {
    mock = await startMockLlm([
      {
        reasoning: "hmm",
        text: "Calling.",
        tool_calls: [{ id: "call_9", name: "read_file", arguments: { path: "c.txt" } }],
        usage: { input: 50, output: 7 },
      },
    ]);
    // A compatible server that streams reasoning in its own field (Ollama's /v1 does, in `reasoning`).
    const { provider } = createProvider("lab/qwen3", config("lab", mock.url), env);
    const parts = await collect(streamWithRetries(provider, request("qwen3"), options));
    expect(parts).toContainEqual({
      type: "tool_call",
      id: "call_9",
      name: "read_file",
      arguments: { path: "c.txt" },
    });
    expect(parts).toContainEqual({ type: "reasoning", text: "hmm" });
    expect(parts).toContainEqual({ type: "usage", inputTokens: 50, outputTokens: 7 });
    expect(parts.at(-1)).toEqual({ type: "stop", reason: "tool_use" });
    const sent = mock.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-test-secret");
    expect(sent.body.messages).toEqual([
      { role: "system", content: "be brief" },
      { role: "user", content: "read the file" },
      {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          { id: "t1", type: "function", function: { name: "read_file", arguments: '{"path":"a.txt"}' } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "hello" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "t2", type: "function", function: { name: "read_file", arguments: '{"path":"b.txt"}' } },
        ],
      },
      { role: "tool", tool_call_id: "t2", content: "Error: missing" },
    ]);
    expect(sent.body).toMatchObject({ model: "qwen3", stream: true, tool_choice: "auto" });
  });

  it("fails before sending anything when the key is missing, naming the variable", () => {
    expect(() => createProvider("openai/gpt-4.1", {}, {})).toThrow(MissingKeyError);
    expect(() => createProvider("openai/gpt-4.1", {}, {})).toThrow(
      "no API key for openai: OPENAI_API_KEY is not set",
    );
    expect(() => createProvider("mystery/model", {}, {})).toThrow("unknown provider 'mystery'");
    expect(() => createProvider("nonsense", {}, {})).toThrow("model id 'nonsense' is not provider/name");
  });

  it("names the alias or built-in model nearest an id that is neither", () => {
    const aliases = Config.parse({
      providers: { llm: { aliases: { opus: "anthropic/claude-opus-5", sonnet: "x/y" } } },
    });
    expect(() => createProvider("opsu", aliases, {})).toThrow(
      "model id 'opsu' is not provider/name; did you mean opus?",
    );
    // A built-in model's name without its provider is offered whole.
    expect(() => createProvider("claude-opus-5", {}, {})).toThrow(
      "model id 'claude-opus-5' is not provider/name; did you mean anthropic/claude-opus-5?",
    );
    // Nothing near: no guess.
    expect(() => createProvider("zzzzzzzz", aliases, {})).toThrow(/is not provider\/name$/);
  });
});

describe("what a server says wrong on the wire", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => {
      if (server)
        server.close(() => {
          resolve();
        });
      else resolve();
    });
    server = undefined;
  });

  /** A server that answers every request with `status`, `headers` and `body`, as given. */
  async function answering(status: number, headers: Record<string, string>, body: string): Promise<string> {
    server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(status, headers);
        res.end(body);
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  it("an error event in the middle of an Anthropic stream is the error it names, and retryable when overloaded", async () => {
    const stream = [
      'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":0}}}\n\n',
      ": a keep-alive comment\n\n",
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n',
    ].join("");
    const url = await answering(200, { "content-type": "text/event-stream" }, stream);
    const { provider } = createProvider("anthropic/claude-test", config("anthropic", url), env);
    const error = await collect(
      streamWithRetries(provider, request("claude-test"), { ...options, maxRetries: 0 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverloadedError);
    expect((error as OverloadedError).retryable).toBe(true);
    expect((error as Error).message).toBe("anthropic failed or is overloaded (529): Overloaded");
  });

  it("a proxy's HTML error page is named by its status and its first words", async () => {
    const url = await answering(
      502,
      { "content-type": "text/html" },
      "<html><body>Bad   gateway</body></html>",
    );
    const { provider } = createProvider("openai/gpt-4.1", config("openai", url), env);
    const error = await collect(
      streamWithRetries(provider, request("gpt-4.1"), { ...options, maxRetries: 0 }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OverloadedError);
    expect((error as Error).message).toBe(
      "openai failed or is overloaded (502): <html><body>Bad gateway</body></html>",
    );
  });

  it("a stream that sends something other than JSON is refused, not half-read", async () => {
    const url = await answering(200, { "content-type": "text/event-stream" }, "data: {not json\n\n");
    const { provider } = createProvider("openai/gpt-4.1", config("openai", url), env);
    const error = await collect(
      streamWithRetries(provider, request("gpt-4.1"), { ...options, maxRetries: 0 }),
    ).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^openai reported an error mid-stream: .*not JSON: \{not json/);
  });
});
