// jp against the real traffic JP recorded with each provider (fixtures/jp-cassettes):
// the recorded answers replayed to `jp q`, and what jp sends next held to what
// the real API accepts.
import { afterEach, describe, expect, it } from "vitest";
import { OPENAI_REASONING_ITEM_KEY, type Event } from "../../src/events/index.js";
import { cassette, replayed } from "../support/cassette.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const metadataOf = (e: Event) =>
  "metadata" in e && e.metadata ? (e.metadata as Record<string, unknown>) : {};

describe("OpenAI Responses, recorded", () => {
  it("a reasoning item that came without encrypted content never goes back (nothing is stored at OpenAI)", async () => {
    // gpt-5-mini at effort minimal: its reasoning item is only an id.
    const [first] = cassette("openai/test_multi_turn_conversation");
    w = await qWorkspace({ provider: "openai", api: "responses", script: [replayed(first!)] });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    const item = w
      .events()
      .map(metadataOf)
      .find((m) => m[OPENAI_REASONING_ITEM_KEY]);
    expect(item?.[OPENAI_REASONING_ITEM_KEY]).toEqual({
      id: "rs_041d39a5f38ada5b016995b6b7492c8193adbb610aed291ea9",
    });
    // The next question: the server refuses an id-only item under store: false, as OpenAI does.
    w.mock.push({ text: "again" });
    const next = await w.jp("q", "And again");
    expect(next.stderr).not.toContain("not found");
    expect(next.code).toBe(0);
    const input = w.mock.requests[1]!.body.input as { type?: string }[];
    expect(input.some((i) => i.type === "reasoning")).toBe(false);
  });

  it("asks a model jp does not know for its reasoning encrypted, as JP's recorded requests to reasoning models do", async () => {
    w = await qWorkspace({ provider: "openai", api: "responses", script: [{ text: "hello" }] });
    expect((await w.jp("q", "hi")).code).toBe(0);
    expect(w.mock.requests[0]!.body.include).toEqual(["reasoning.encrypted_content"]);
  });

  it("knows gpt-5.6, the name JP's recordings ask for, as the reasoning model it is", async () => {
    const recorded = cassette("openai/test_gpt_5_6_cache_off_sends_explicit_optout")[0]!;
    expect(recorded.request).toMatchObject({ model: "gpt-5.6", include: ["reasoning.encrypted_content"] });
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      model: "openai/gpt-5.6",
      extraConfig: '[assistant.reasoning]\neffort = "low"\n',
      script: [replayed(recorded)],
    });
    const result = await w.jp("q", "Test message");
    expect(result.code).toBe(0);
    const shown = await w.jp("model", "show", "openai/gpt-5.6");
    expect(shown.stdout).toContain("1,050,000 tokens");
    expect(w.mock.requests[0]!.body).toMatchObject({
      model: "gpt-5.6",
      reasoning: { effort: "low", summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
  });
});

describe("Anthropic's Models API, recorded", () => {
  it("reads a ModelInfo that lists only the capabilities the model has, once per cache period", async () => {
    // claude-haiku-4-5's answer: thinking types enabled and adaptive only; no lifecycle field.
    const [recorded] = cassette("anthropic/test_model_details");
    expect(recorded!.path).toBe("/v1/models/claude-haiku-4-5");
    w = await qWorkspace();
    w.mock.models.set("claude-haiku-4-5", JSON.parse(recorded!.body) as object);
    const shown = await w.jp("model", "show", "anthropic/claude-haiku-4-5");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/context window +200,000 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/max output +64,000 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/thinking +enabled {2}\(provider, /);
    expect(w.mock.modelRequests).toHaveLength(1);
    // The answer is kept: the next look asks nothing.
    await w.jp("model", "show", "anthropic/claude-haiku-4-5");
    expect(w.mock.modelRequests).toHaveLength(1);
  });
});

describe("Chat Completions usage, recorded", () => {
  it("keeps the reasoning tokens OpenRouter reports (completion_tokens_details)", async () => {
    const [recorded] = cassette("openrouter/test_chat_completion_stream");
    const reported = /"completion_tokens":(\d+).*?"reasoning_tokens":(\d+)/.exec(recorded!.body)!;
    w = await qWorkspace({ provider: "openrouter", script: [replayed(recorded!)] });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    const usage = w
      .events()
      .map(metadataOf)
      .find((m) => m.usage)?.usage;
    expect(usage).toMatchObject({
      output_tokens: Number(reported[1]),
      reasoning_tokens: Number(reported[2]),
    });
    expect(Number(reported[2])).toBeGreaterThan(0);
  });
});

describe("Responses usage, recorded", () => {
  it("keeps the cache writes GPT-5.6 reports (input_tokens_details.cache_write_tokens)", async () => {
    const [written] = cassette("openai/test_gpt_5_6_prompt_cache_read_after_write");
    const reported = /"input_tokens_details":\{[^}]*"cache_write_tokens":(\d+)/.exec(written!.body)!;
    expect(Number(reported[1])).toBeGreaterThan(0);
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      model: "openai/gpt-5.6",
      script: [replayed(written!)],
    });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    const usage = w
      .events()
      .map(metadataOf)
      .find((m) => m.usage)?.usage;
    expect(usage).toMatchObject({ cache_write_tokens: Number(reported[1]) });
  });
});

describe("OpenRouter's requests, recorded", () => {
  it("says reasoning is off, as JP's accepted requests do (unsaid, the model reasons at its default and bills for it)", async () => {
    const [recorded] = cassette("openrouter/test_multi_turn_conversation");
    expect(recorded!.request?.reasoning).toEqual({ exclude: true, effort: "minimal" });
    w = await qWorkspace({ provider: "openrouter", script: [replayed(recorded!)] });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    expect(w.mock.requests[0]!.body.reasoning).toEqual(recorded!.request?.reasoning);
  });
});

describe("Ollama, recorded", () => {
  it("keeps the id Ollama gave a tool call, and sends it back", async () => {
    const [call] = cassette("ollama/test_tool_call_auto");
    const id = /"tool_calls":\[\{"id":"(call_[a-z0-9]+)"/.exec(call!.body)![1]!;
    w = await qWorkspace({
      provider: "ollama",
      script: [replayed(call!), { text: "done" }],
      extraConfig:
        '[conversation.tools.run_me]\nsource = "local"\nsummary = "run"\ncommand = ["true"]\nrun = "unattended"\nparameters = { type = "object", properties = { command = { type = "string" } } }\n',
    });
    w.mock.gets.set("/api/show", { capabilities: ["completion", "tools"] });
    expect((await w.jp("q", "Please run the tool")).code).toBe(0);
    const recorded = w.events().find((e) => e.type === "tool_call_request");
    expect(recorded).toMatchObject({ id, name: "run_me", arguments: { command: "ls -la /home" } });
    // And sends it back, on the call and on its result, for templates that pair them.
    const messages = w.mock.requests[1]!.body.messages as {
      tool_calls?: { id?: string }[];
      tool_call_id?: string;
    }[];
    expect(messages.find((m) => m.tool_calls)?.tool_calls?.[0]?.id).toBe(id);
    expect(messages.at(-1)?.tool_call_id).toBe(id);
  });
});

describe("Gemini's requests, recorded", () => {
  it("says thinking is off as JP's accepted request does, and keeps a budget within the model's range", async () => {
    const [off] = cassette("google/test_multi_turn_conversation");
    expect(off!.request?.generationConfig).toMatchObject({
      thinkingConfig: { includeThoughts: false, thinkingBudget: 512 },
    });
    w = await qWorkspace({
      provider: "google",
      model: "google/gemini-2.5-flash-lite",
      request: "max_tokens = 64000",
      script: [replayed(off!), { text: "thought hard" }],
    });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    const sent = (n: number) =>
      (w!.mock.requests[n]!.body.generationConfig as { thinkingConfig?: unknown }).thinkingConfig;
    expect(sent(0)).toEqual({ includeThoughts: false, thinkingBudget: 512 });
    // Effort medium at 64,000 tokens would be a budget of 32,000: 2.5 Flash-Lite takes at most 24,576.
    expect((await w.jp("q", "-c", "assistant.reasoning.effort=medium", "Think")).code).toBe(0);
    expect(sent(1)).toEqual({ includeThoughts: true, thinkingBudget: 24_576 });
  });
});

describe("Gemini's answers, recorded", () => {
  it("records an answer with no parts, with the usage it was billed for", async () => {
    const [call, empty] = cassette("google/test_tool_call_function");
    expect(empty!.body).toContain('"promptTokenCount": 264');
    w = await qWorkspace({
      provider: "google",
      model: "google/gemini-2.5-flash-lite",
      script: [replayed(call!), replayed(empty!)],
      extraConfig:
        '[conversation.tools.run_me]\nsource = "local"\nsummary = "run"\ncommand = ["echo", "working!"]\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "Please run the tool")).code).toBe(0);
    const last = w.events().at(-1)!;
    expect(last).toMatchObject({ type: "chat_response", message: "" });
    expect(metadataOf(last)).toMatchObject({ usage: { input_tokens: 264 }, stop_reason: "end" });
  });
});

describe("Cerebras, recorded", () => {
  it("is a built-in provider: reasoning parsed into its own field, sent back there, and its effort as asked", async () => {
    const [call, answer] = cassette("cerebras/test_tool_call_reasoning");
    expect(call!.request).toMatchObject({ reasoning_format: "parsed", reasoning_effort: "low" });
    w = await qWorkspace({
      provider: "cerebras",
      model: "cerebras/gpt-oss-120b",
      script: [replayed(call!), replayed(answer!)],
      extraConfig:
        '[assistant.reasoning]\neffort = "low"\n[conversation.tools.run_me]\nsource = "local"\nsummary = "run"\ncommand = ["echo", "working!"]\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "Please run the tool, providing whatever arguments you want.")).code).toBe(0);
    expect(w.mock.requests[0]!.body).toMatchObject({ reasoning_format: "parsed", reasoning_effort: "low" });
    const thought = w.events().find((e) => e.type === "chat_response" && e.reasoning !== undefined);
    expect(thought).toMatchObject({ reasoning: "We need to call run_me with some args." });
    // It goes back on the assistant message, in the field it came in, as JP's accepted request sends it.
    const messages = w.mock.requests[1]!.body.messages as { role: string; reasoning?: string }[];
    const recorded = (answer!.request!.messages as { role: string; reasoning?: string }[]).find(
      (m) => m.role === "assistant",
    );
    expect(messages.find((m) => m.role === "assistant")?.reasoning).toBe(recorded?.reasoning);
  });
});

describe("Gemini 3's signatures, recorded", () => {
  it("keeps a signature that came on an empty text part on a part of its own, and sends it back so", async () => {
    const [answer] = cassette("google/test_gemini_3_reasoning");
    const signature = /\{"text": "","thoughtSignature": "([^"]+)"/.exec(answer!.body)![1]!;
    w = await qWorkspace({
      provider: "google",
      model: "google/gemini-3-pro-preview",
      script: [replayed(answer!), { text: "ok" }],
      // Recorded while Google served it; shut down since, so jp would refuse it.
      extraConfig: '[models."google/gemini-3-pro-preview"]\nlifecycle = "active"\n',
    });
    expect((await w.jp("q", "Test message")).code).toBe(0);
    const signed = w.events().filter((e) => metadataOf(e).google_thought_signature === signature);
    expect(signed).toEqual([expect.objectContaining({ type: "chat_response", message: "" })]);
    expect((await w.jp("q", "again")).code).toBe(0);
    const contents = w.mock.requests[1]!.body.contents as {
      role: string;
      parts: Record<string, unknown>[];
    }[];
    const model = contents.find((c) => c.role === "model")!;
    expect(model.parts.at(-1)).toEqual({ text: "", thoughtSignature: signature });
    expect(model.parts.slice(0, -1).some((p) => p.thoughtSignature === signature)).toBe(false);
  });
});

describe("a Models API that fails", () => {
  it("is not asked again before every turn: a failed lookup is kept for a while", async () => {
    w = await qWorkspace({ script: [{ text: "one" }, { text: "two" }] });
    w.mock.models.set("claude-mock", "<html>a proxy's page</html>");
    expect((await w.jp("q", "one")).code).toBe(0);
    expect(w.mock.modelRequests).toHaveLength(1);
    expect((await w.jp("q", "two")).code).toBe(0);
    expect(w.mock.modelRequests).toHaveLength(1);
  });
});

describe("OpenRouter's model list, recorded", () => {
  it("reads the whole 829 KB list (345 models): a model's window, output cap and price, asked once", async () => {
    const [recorded] = cassette("openrouter/test_models");
    expect(recorded!.path).toBe("/api/v1/models");
    expect(recorded!.body.length).toBeGreaterThan(800_000);
    w = await qWorkspace({ provider: "openrouter" });
    w.mock.gets.set("/api/v1/models", JSON.parse(recorded!.body) as object);
    const shown = await w.jp("model", "show", "openrouter/anthropic/claude-opus-5-fast");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/context window +1,000,000 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/max output +128,000 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/price +\$10\.00 in \/ \$50\.00 out per million.*\(provider, /);
    const asked = w.mock.modelRequests.length;
    expect(asked).toBe(1);
    await w.jp("model", "show", "openrouter/anthropic/claude-opus-5-fast");
    expect(w.mock.modelRequests).toHaveLength(asked);
  });
});

describe("the other model APIs, recorded", () => {
  /** A recorded answer's JSON body. */
  const body = (name: string, index = 0) =>
    JSON.parse(cassette(name)[index]!.body) as Record<string, unknown>;

  it("Gemini: a model's window and output cap from the Model resource Google lists", async () => {
    // JP recorded the list (GET /v1beta/models); jp asks for the one model, which answers the same resource.
    const list = body("google/test_model_details") as { models: { name: string }[] };
    const entry = list.models.find((m) => m.name === "models/gemini-2.5-flash-lite")!;
    w = await qWorkspace({ provider: "google" });
    w.mock.gets.set("/v1beta/models/gemini-2.5-flash-lite", entry);
    const shown = await w.jp("model", "show", "google/gemini-2.5-flash-lite");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/context window +1,048,576 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/max output +65,536 tokens {2}\(provider, /);
    expect(w.mock.modelRequests).toHaveLength(1);
  });

  it("llama.cpp: the served window from /props", async () => {
    const [props] = cassette("llamacpp/test_model_details");
    expect(props!.path).toBe("/props");
    const n = (JSON.parse(props!.body) as { default_generation_settings: { n_ctx: number } })
      .default_generation_settings.n_ctx;
    w = await qWorkspace({ provider: "llamacpp" });
    w.mock.gets.set("/props", JSON.parse(props!.body) as object);
    const shown = await w.jp("model", "show", "llamacpp/qwen3.5:9b");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(
      new RegExp(`context window +${n.toLocaleString("en-US")} tokens {2}\\(provider, `),
    );
  });

  it("Cerebras: window, output cap and price from its public list, and gpt-oss's efforts from the table", async () => {
    const [ids, listed] = cassette("cerebras/test_model_details");
    expect([ids!.path, listed!.path]).toEqual(["/v1/models", "/public/v1/models"]);
    w = await qWorkspace({ provider: "cerebras" });
    w.mock.gets.set("/public/v1/models", JSON.parse(listed!.body) as object);
    const shown = await w.jp("model", "show", "cerebras/gpt-oss-120b");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/context window +131,072 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/max output +40,960 tokens {2}\(provider, /);
    expect(shown.stdout).toMatch(/price +\$0\.350 in \/ \$0\.750 out per million {2}\(provider, /);
    expect(shown.stdout).toMatch(/effort +low, medium, high {2}\(built-in\)/);
    const asked = w.mock.modelRequests.length;
    await w.jp("model", "show", "cerebras/gpt-oss-120b");
    expect(w.mock.modelRequests).toHaveLength(asked);
  });

  it("OpenAI: a model's answer holds its id, date and owner, and a shutdown date once one is announced", async () => {
    expect(Object.keys(body("openai/test_model_details")).sort()).toEqual([
      "created",
      "id",
      "object",
      "owned_by",
    ]);
    w = await qWorkspace({ provider: "openai", api: "responses" });
    // The answer JP recorded: no shutdown date, so nothing of a lifecycle; the window is the price data's.
    w.mock.models.set("gpt-5-mini", body("openai/test_model_details"));
    const shown = await w.jp("model", "show", "openai/gpt-5-mini");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/context window +400,000 tokens {2}\(@pydantic\/genai-prices /);
    expect(w.mock.modelRequests.map((r) => r.path)).toEqual(["/v1/models/gpt-5-mini"]);
    // The same answer with the field the API now carries: the lifecycle is the provider's.
    w.mock.models.set("gpt-5-nano", {
      ...body("openai/test_model_details"),
      id: "gpt-5-nano",
      shutdown_date: "2026-12-11",
    });
    const nano = JSON.parse((await w.jp("model", "show", "openai/gpt-5-nano", "--json")).stdout) as {
      facts: Record<string, unknown>;
      sources: Record<string, string>;
    };
    expect(nano.facts).toMatchObject({ lifecycle: "deprecated", retiresAt: "2026-12-11T00:00:00Z" });
    expect(nano.sources).toMatchObject({ lifecycle: "provider", replacement: "built-in" });
  });

  it("Ollama: the model JP listed (/api/tags) is one that thinks and calls tools, as /api/show tells jp", async () => {
    // JP recorded the list; jp asks the model's own details (/api/show), which the list's entry agrees with.
    const tags = body("ollama/test_model_details") as { models: { name: string; capabilities: string[] }[] };
    const qwen = tags.models.find((m) => m.name === "qwen3.5:9b")!;
    expect(qwen.capabilities).toEqual(expect.arrayContaining(["thinking", "tools"]));
    w = await qWorkspace({ provider: "ollama", script: [{ text: "4" }] });
    w.mock.gets.set("/api/show", { capabilities: qwen.capabilities });
    expect((await w.jp("q", "-m", "ollama/qwen3.5:9b", "-R", "What is 2 + 2?")).code).toBe(0);
    // Thinking off is said to a model that thinks, as JP's accepted requests say it.
    expect(w.mock.requests[0]!.body.think).toBe(false);
  });
});
