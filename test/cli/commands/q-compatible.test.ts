// jp q against OpenAI-compatible servers (Ollama, llama.cpp, OpenRouter, any
// other): only the standard fields unless the config turns one on, no key
// where none is configured, and the window (and prices) from the server.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { sdkTypeErrors } from "../../support/sdk-types.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** A workspace whose config also defines `provider` at the mock (`path` after its URL). */
async function withProvider(provider: string, urlPath: string, more = "") {
  w = await qWorkspace({ script: [{ text: "ok" }, { text: "again" }] });
  fs.appendFileSync(
    path.join(w.root, ".jp/config.toml"),
    `\n[providers.${provider}]\nbase_url = "${w.mock.url}${urlPath}"\n${more}`,
  );
  return w;
}

const bodies = () => w!.mock.requests.map((r) => r.body);

describe("an OpenAI-compatible server", () => {
  it("gets max_tokens, no prompt_cache_key and no Authorization header when it has no key", async () => {
    await withProvider("lab", "/v1");
    expect((await w!.jp("q", "-m", "lab/qwen3", "hi")).code).toBe(0);
    const request = w!.mock.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body.max_tokens).toBe(8192);
    expect(request.body).not.toHaveProperty("max_completion_tokens");
    expect(request.body).not.toHaveProperty("prompt_cache_key");
    expect(sdkTypeErrors("chat", bodies())).toEqual([]);
  });

  it('forces a tool with the string form it reads: "required", over that tool alone', async () => {
    await withProvider("llamacpp", "/v1");
    w!.mock.queue.splice(0);
    w!.mock.push(
      { tool_calls: [{ id: "c1", name: "count_words", arguments: { path: "notes.txt" } }] },
      { text: "5" },
    );
    expect((await w!.jp("q", "-m", "llamacpp/qwen", "-u", "count_words", "count")).code).toBe(0);
    const [forced, next] = bodies();
    expect(forced).toMatchObject({ tool_choice: "required", tools: [{ function: { name: "count_words" } }] });
    expect(forced!.tools).toHaveLength(1);
    expect(next!.tool_choice).toBe("auto");
    expect(sdkTypeErrors("chat", bodies())).toEqual([]);
  });

  it("gets prompt_cache_key when its config turns it on", async () => {
    await withProvider("vllm", "/v1", "prompt_cache_key = true\n");
    expect((await w!.jp("q", "-m", "vllm/llama", "hi")).code).toBe(0);
    expect(bodies()[0]!.prompt_cache_key).toEqual(expect.any(String));
  });
});

describe("Ollama, spoken natively", () => {
  it("streams /api/chat as JSON lines, with num_ctx for what the conversation needs up to the model's length, num_predict, think and keep_alive", async () => {
    await withProvider("ollama", "", 'keep_alive = "30m"\n');
    w!.mock.gets.set("/api/show", {
      model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40960 },
      capabilities: ["completion", "tools", "thinking"],
    });
    w!.mock.push(
      {
        reasoning: "count them",
        tool_calls: [{ id: "x", name: "count_words", arguments: { path: "notes.txt" } }],
      },
      { text: "5 words" },
    );
    w!.mock.queue.splice(0, 2);
    const result = await w!.jp(
      "q",
      "-m",
      "ollama/qwen3",
      "-c",
      'assistant.reasoning.effort="low"',
      "count notes.txt",
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("5 words");
    const [first, second] = w!.mock.requests;
    expect(first!.path).toBe("/api/chat");
    expect(first!.headers.authorization).toBeUndefined();
    expect(first!.body).toMatchObject({
      model: "qwen3",
      stream: true,
      // Qwen 3 thinks on or off: a level would be silently its default (Ollama's thinking guide).
      think: true,
      keep_alive: "30m",
      options: { num_ctx: 16384, num_predict: 8192 },
      tools: [{ type: "function", function: { name: "count_words" } }],
    });
    // The tool loop goes back with the thinking in Ollama's own field and the tool named, the call's id on both.
    const id = w!.events().find((e) => e.type === "tool_call_request")?.id;
    expect((second!.body as { messages: unknown[] }).messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: "",
        thinking: "count them",
        tool_calls: [{ id, function: { name: "count_words", arguments: { path: "notes.txt" } } }],
      },
      {
        role: "tool",
        content: expect.stringContaining("5") as unknown,
        tool_name: "count_words",
        tool_call_id: id,
      },
    ]);
    expect(w!.mock.modelRequests.map((r) => r.path)).toEqual(["/api/show"]);
    // Each body fits the official JavaScript library's request type.
    expect(sdkTypeErrors("ollama", bodies())).toEqual([]);
  });

  it("sends a thinking level only to a model that takes levels (gpt-oss), and says off to one that can stop", async () => {
    await withProvider("ollama", "");
    w!.mock.gets.set("/api/show", { capabilities: ["completion", "tools", "thinking"] });
    w!.mock.queue.splice(0);
    w!.mock.push({ text: "one" }, { text: "two" }, { text: "three" }, { text: "four" });
    const ask = (model: string, ...flags: string[]) => w!.jp("q", "-m", model, ...flags, "hi");
    expect((await ask("ollama/gpt-oss:20b", "-c", 'assistant.reasoning.effort="high"')).code).toBe(0);
    expect((await ask("ollama/qwen3", "-c", 'assistant.reasoning.effort="low"')).code).toBe(0);
    expect((await ask("ollama/qwen3", "-R")).code).toBe(0);
    // gpt-oss cannot stop thinking: off is its least.
    expect((await ask("ollama/gpt-oss:20b", "-R")).code).toBe(0);
    expect(w!.mock.requests.map((r) => r.body.think)).toEqual(["high", true, false, "low"]);
  });

  it("names `ollama pull` for a model that is not pulled", async () => {
    await withProvider("ollama", "");
    w!.mock.queue.splice(0);
    w!.mock.push({ fault: { status: 404, message: "model 'qwen9' not found" } });
    const result = await w!.jp("q", "-m", "ollama/qwen9", "hi");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("Ollama has no model 'qwen9'");
    expect(result.stderr).toContain("ollama pull qwen9");
  });
});

describe("llama.cpp", () => {
  it("turns thinking on or off through the chat template, with the reasoning in its own field", async () => {
    await withProvider("llamacpp", "/v1");
    w!.mock.push({ text: "third" });
    const ask = (...cfg: string[]) => w!.jp(...cfg, "q", "-m", "llamacpp/qwen", "hi");
    expect((await ask("-c", 'assistant.reasoning.effort="high"')).code).toBe(0);
    expect((await ask("-c", 'assistant.reasoning.effort="none"')).code).toBe(0);
    // A -c is kept by the conversation, as JP keeps it: a new conversation has none.
    expect((await w!.jp("q", "-n", "-m", "llamacpp/qwen", "hi")).code).toBe(0);
    const [on, off, unset] = bodies();
    expect(on).toMatchObject({
      chat_template_kwargs: { enable_thinking: true },
      reasoning_format: "deepseek",
    });
    expect(off).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    expect(off).not.toHaveProperty("reasoning_format");
    expect(unset).not.toHaveProperty("chat_template_kwargs");
  });

  it("gives its window from GET /props, asked once, and a request clearly over it is not sent", async () => {
    await withProvider("llamacpp", "/v1");
    w!.mock.gets.set("/props", { default_generation_settings: { n_ctx: 1500 }, total_slots: 1 });
    const big = await w!.jp("q", "-m", "llamacpp/qwen", "x ".repeat(5000));
    expect(big.stderr).toContain("more than the 1,500-token context window of llamacpp/qwen");
    expect(w!.mock.requests).toHaveLength(0);
    expect((await w!.jp("q", "-m", "llamacpp/qwen", "small")).code).toBe(0);
    expect(w!.mock.modelRequests.map((r) => r.path)).toEqual(["/props"]);
  });
});

describe("OpenRouter", () => {
  it("sends reasoning from jp's settings, and its reasoning_details back verbatim, joined by index, in the tool loop", async () => {
    await withProvider("openrouter", "/api/v1", 'api_key_env = "MOCK_API_KEY"\n');
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "gen-1", object: "chat.completion.chunk", created: 1, model: "anthropic/claude-sonnet-5-5", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const detail = { type: "reasoning.text", format: "anthropic-claude-v1", index: 0 };
    w!.mock.queue.splice(0);
    w!.mock.push(
      {
        raw: {
          pieces: [
            chunk({ role: "assistant", reasoning: "thi", reasoning_details: [{ ...detail, text: "thi" }] }),
            chunk({ reasoning: "nk", reasoning_details: [{ ...detail, text: "nk", signature: "SIG_OR" }] }),
            chunk({
              tool_calls: [
                {
                  index: 0,
                  id: "call_1",
                  type: "function",
                  function: { name: "count_words", arguments: '{"path":"notes.txt"}' },
                },
              ],
            }),
            chunk({}, "tool_calls"),
            "data: [DONE]\n\n",
          ],
        },
      },
      { text: "5 words" },
    );
    const model = "openrouter/anthropic/claude-sonnet-5-5";
    const result = await w!.jp(
      "q",
      "-m",
      model,
      "-c",
      'assistant.reasoning.effort="high"',
      "count notes.txt",
    );
    expect(result.code).toBe(0);
    const [first, second] = bodies();
    expect(first!.reasoning).toEqual({ effort: "high" });
    // Claude through OpenRouter is cached where the request marks it: the system prompt and the newest message.
    const marked = (first!.messages as { role: string; content: unknown }[]).filter(
      (m) => Array.isArray(m.content) && JSON.stringify(m.content).includes("cache_control"),
    );
    expect(marked.map((m) => m.role)).toEqual(["system", "user"]);
    const assistant = (second!.messages as Record<string, unknown>[]).find((m) => m.role === "assistant")!;
    expect(assistant.reasoning_details).toEqual([{ ...detail, text: "think", signature: "SIG_OR" }]);
    // Another model gets none of it.
    w!.mock.push({ text: "ok" });
    expect((await w!.jp("q", "-m", "openrouter/openai/gpt-5.5", "next")).code).toBe(0);
    expect(JSON.stringify(bodies()[2])).not.toContain("SIG_OR");
    expect(JSON.stringify(bodies()[2])).not.toContain("cache_control");
  });

  it("gives windows, output caps and prices from its models API", async () => {
    await withProvider("openrouter", "/api/v1", 'api_key_env = "MOCK_API_KEY"\n');
    w!.mock.gets.set("/api/v1/models", {
      data: [
        {
          id: "anthropic/claude-sonnet-5-5",
          context_length: 1_000_000,
          pricing: { prompt: "0.000002", completion: "0.00001", input_cache_read: "0.0000002" },
          top_provider: { context_length: 1_000_000, max_completion_tokens: 128_000 },
        },
      ],
    });
    const shown = await w!.jp("model", "show", "openrouter/anthropic/claude-sonnet-5-5", "--json");
    expect(shown.code).toBe(0);
    const { facts, sources } = JSON.parse(shown.stdout) as {
      facts: Record<string, unknown>;
      sources: Record<string, string>;
    };
    expect(facts).toMatchObject({
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      price: { input: 2, output: 10, cache_read: 0.2 },
    });
    expect(sources).toMatchObject({ contextWindow: "provider", price: "provider" });
  });
});
