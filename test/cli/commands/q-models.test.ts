// jp q against today's models, through the mock server speaking the Models,
// Messages and Responses APIs: what the provider says of a model drives each
// request, and every body sent fits the official SDK's own request type.
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { modelInfo, SONNET_5_5 } from "../../support/model-info.js";
import {
  anthropicBlock,
  anthropicMessageStart,
  withoutCacheMarkers,
  type RawResponse,
  type SseEvent,
} from "../../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { sdkTypeErrors } from "../../support/sdk-types.js";
import { stringContaining, stringMatching } from "../../support/matchers.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Body = Record<string, unknown>;
type Block = { type: string; thinking?: string; signature?: string; text?: string };
type Message = { role: string; content: Block[] };

const bodies = () => w!.mock.requests.map((r) => r.body);
const messages = (n: number) => (withoutCacheMarkers(bodies()[n]!) as { messages: Message[] }).messages;

/** Anthropic stream events as the Messages API sends them, as one raw answer. */
function anthropicStream(events: SseEvent[]): { raw: RawResponse } {
  return {
    raw: { pieces: events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`) },
  };
}

const messageStart = (model: string) => anthropicMessageStart(model, 50);
const block = anthropicBlock;

const messageEnd = (stop: string): SseEvent[] => [
  [
    "message_delta",
    { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 9 } },
  ],
  ["message_stop", { type: "message_stop" }],
];

/** An answer whose thinking is display "omitted": blocks of a signature and no text, then a call. */
const omittedThinkingThenCall = (model: string) =>
  anthropicStream([
    messageStart(model),
    ...block(0, { type: "thinking", thinking: "", signature: "" }, [
      { type: "signature_delta", signature: "SIG_EMPTY_A" },
    ]),
    ...block(1, { type: "thinking", thinking: "", signature: "" }, [
      { type: "signature_delta", signature: "SIG_EMPTY_B" },
    ]),
    ...block(2, { type: "tool_use", id: "toolu_1", name: "count_words", input: {} }, [
      { type: "input_json_delta", partial_json: '{"path":"notes.txt"}' },
    ]),
    ...messageEnd("tool_use"),
  ]);

const models = (config: string) => `[models."anthropic/claude-mock"]\n${config}\n`;

describe("jp q with what the provider says of the model", () => {
  it("asks the Models API once, and its answer drives thinking, the window and max_tokens; a cached answer costs no request", async () => {
    w = await qWorkspace({
      script: [{ text: "one" }, { text: "two" }],
      extraConfig: "[assistant.reasoning]\nbudget_tokens = 4096\n",
    });
    w.mock.models.set(
      "claude-mock",
      modelInfo("claude-mock", {
        window: 3000,
        maxTokens: 6000,
        thinking: ["adaptive", "disabled"],
        efforts: ["low", "medium", "high"],
      }),
    );
    const first = await w.jp("q", "hello");
    expect(first.code).toBe(0);
    // Adaptive only: the budget becomes an effort, said once.
    expect(first.stderr).toContain('the budget of 4,096 tokens is sent as effort "medium"');
    expect(bodies()[0]).toMatchObject({
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "medium" },
      // The config's 8,192 is more than the model writes.
      max_tokens: 6000,
    });
    expect(w.mock.modelRequests.map((r) => r.path)).toEqual(["/v1/models/claude-mock"]);
    // The window the API gave keeps a question clearly over it from being sent.
    const big = await w.jp("q", "x ".repeat(9000));
    expect(big.code).not.toBe(0);
    expect(big.stderr).toContain("more than the 3,000-token context window of anthropic/claude-mock");
    expect(w.mock.requests).toHaveLength(1);
    const again = await w.jp("q", "again");
    expect(again.code).toBe(0);
    expect(w.mock.modelRequests).toHaveLength(1);
    expect(w.mock.requests).toHaveLength(2);
    expect(sdkTypeErrors("anthropic", bodies())).toEqual([]);
  });

  it("turns thinking off as the model takes it: disabled where accepted, between_tools on Sonnet 5.5", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }] });
    w.mock.models.set("claude-mock", modelInfo("claude-mock", { thinking: ["enabled", "disabled"] }));
    w.mock.models.set("claude-sonnet-5-5", SONNET_5_5());
    expect((await w.jp("q", "one")).code).toBe(0);
    expect((await w.jp("q", "-m", "anthropic/claude-sonnet-5-5", "two")).code).toBe(0);
    expect(bodies()[0]!.thinking).toEqual({ type: "disabled" });
    expect(bodies()[1]!.thinking).toEqual({ type: "between_tools" });
    expect(sdkTypeErrors("anthropic", bodies())).toEqual([]);
  });

  it("refuses a thinking budget the model cannot take before anything is sent", async () => {
    w = await qWorkspace({ extraConfig: "[assistant.reasoning]\nbudget_tokens = 24000\n" });
    // The request asks for the model's own output cap: a budget must fit below it.
    w.mock.models.set(
      "claude-mock",
      modelInfo("claude-mock", { thinking: ["enabled", "disabled"], maxTokens: 16_000 }),
    );
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "the thinking budget 24,000 does not fit claude-mock: it must be at least 1,024 and below max_tokens (16,000)",
    );
    expect(w.mock.requests).toHaveLength(0);
  });

  it("refuses a retired model before sending or writing anything, naming its replacement; warns of a deprecated one", async () => {
    w = await qWorkspace({ script: [{ text: "still here" }] });
    w.mock.models.set("claude-old", modelInfo("claude-old", { lifecycle: "retired" }));
    // Thirty days from now: within the sixty in which a request says so.
    const soon = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    w.mock.models.set(
      "claude-mock",
      modelInfo("claude-mock", { lifecycle: "deprecated", retiresAt: `${soon}T00:00:00Z` }),
    );
    const retired = await w.jp("q", "-m", "anthropic/claude-old", "hello");
    expect(retired.code).toBe(2);
    expect(retired.stderr).toContain(
      "anthropic/claude-old is retired: the provider no longer serves it, so nothing was sent",
    );
    expect(w.mock.requests).toHaveLength(0);
    expect(w.events()).toEqual([]);
    // The built-in table knows what replaces a retired model the API only calls retired.
    const known = await w.jp("q", "-m", "anthropic/claude-sonnet-4-5", "hello");
    expect(known.code).toBe(2);
    expect(known.stderr).toContain("use anthropic/claude-sonnet-5-5 instead");
    const deprecated = await w.jp("q", "hello");
    expect(deprecated.code).toBe(0);
    expect(deprecated.stderr).toContain(`anthropic/claude-mock shuts down on ${soon}`);
  });

  it("says the window is unknown and runs without automatic compaction, instead of failing the config", async () => {
    w = await qWorkspace({
      script: [{ text: "ok" }],
      extraConfig: "[conversation.compaction.auto]\nenabled = true\n",
    });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "automatic compaction is off for this turn: the context window of anthropic/claude-mock is unknown",
    );
  });
});

describe("thinking blocks kept exactly", () => {
  it("records empty (omitted) thinking blocks with their own signatures and sends them back, two staying two", async () => {
    w = await qWorkspace({ script: [omittedThinkingThenCall("claude-mock"), { text: "5 words" }] });
    const result = await w.jp("q", "count");
    expect(result.code).toBe(0);
    const reasoning = w
      .events()
      .filter(
        (e): e is Extract<Event, { type: "chat_response" }> =>
          e.type === "chat_response" && e.reasoning !== undefined,
      );
    expect(reasoning.map((e) => [e.reasoning, (e.metadata as Body).anthropic_thinking_signature])).toEqual([
      ["", "SIG_EMPTY_A"],
      ["", "SIG_EMPTY_B"],
    ]);
    const assistant = messages(1).find((m) => m.role === "assistant")!;
    expect(assistant.content.map((b) => [b.type, b.thinking, b.signature])).toEqual([
      ["thinking", "", "SIG_EMPTY_A"],
      ["thinking", "", "SIG_EMPTY_B"],
      ["tool_use", undefined, undefined],
    ]);
    expect(sdkTypeErrors("anthropic", bodies())).toEqual([]);
  });

  it("leaves another model's thinking out of the request on a model switch, keeping it in the log", async () => {
    w = await qWorkspace({
      script: [{ reasoning: "thinking on mock", signature: "SIG_MOCK", text: "first" }, { text: "second" }],
    });
    expect((await w.jp("q", "one")).code).toBe(0);
    expect((await w.jp("q", "-m", "anthropic/claude-other", "two")).code).toBe(0);
    const sent = messages(1).flatMap((m) => m.content.map((b) => b.type));
    expect(sent).not.toContain("thinking");
    expect(sent).toContain("text");
    expect(JSON.stringify(w.events())).toContain("SIG_MOCK");
    // Back on the model that wrote it (-m is kept by the conversation, so it is named again), it goes back again.
    w.mock.push({ text: "third" });
    expect((await w.jp("q", "-m", "anthropic/claude-mock", "three")).code).toBe(0);
    expect(messages(2).flatMap((m) => m.content.map((b) => b.signature ?? null))).toContain("SIG_MOCK");
  });
});

describe("stop reasons", () => {
  it("continues a turn the server paused (pause_turn) by sending it back", async () => {
    w = await qWorkspace({ script: [{ text: "part one", stop: "pause_turn" }, { text: " and done" }] });
    const result = await w.jp("q", "long work");
    expect(result.code).toBe(0);
    expect(w.mock.requests).toHaveLength(2);
    const last = messages(1).at(-1)!;
    expect(last.role).toBe("assistant");
    expect(last.content).toEqual([{ type: "text", text: "part one" }]);
    expect(result.stdout).toMatch(/part one\s+and done/);
  });

  it("keeps what arrived when the window fills up and names the compaction to run, not 'arguments not JSON'", async () => {
    w = await qWorkspace({
      script: [
        anthropicStream([
          messageStart("claude-mock"),
          ...block(0, { type: "text", text: "" }, [{ type: "text_delta", text: "halfway" }]),
          ...block(1, { type: "tool_use", id: "toolu_9", name: "count_words", input: {} }, [
            { type: "input_json_delta", partial_json: '{"pa' },
          ]).slice(0, 2),
          ...messageEnd("model_context_window_exceeded"),
        ]),
      ],
    });
    const result = await w.jp("q", "go");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "the conversation filled anthropic/claude-mock's context window while it answered",
    );
    expect(result.stderr).toContain("jp conversation compact");
    expect(result.stderr).not.toContain("not JSON");
    expect(JSON.stringify(w.events())).toContain("halfway");
  });

  it("records a refusal with nothing else as one, with the provider's explanation", async () => {
    w = await qWorkspace({
      script: [
        anthropicStream([
          messageStart("claude-mock"),
          [
            "message_delta",
            {
              type: "message_delta",
              delta: {
                stop_reason: "refusal",
                stop_sequence: null,
                stop_details: {
                  type: "refusal",
                  category: "cyber",
                  explanation: "this could enable malware",
                },
              },
              usage: { output_tokens: 1 },
            },
          ],
          ["message_stop", { type: "message_stop" }],
        ]),
      ],
    });
    const result = await w.jp("q", "write malware");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the model declined to answer: this could enable malware");
    const answer = w.events().find((e) => e.type === "chat_response")!;
    expect(answer.metadata).toMatchObject({ refusal: true, stop_reason: "refusal" });
  });
});

describe("the OpenAI Responses API", () => {
  it("round-trips reasoning items with their encrypted content through a tool loop, storing nothing at OpenAI", async () => {
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      script: [
        {
          reasoning: "I should count",
          signature: "ENC_REASONING_1",
          tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }],
          usage: { input: 120, output: 40 },
        },
        { text: "There are 5 words.", usage: { input: 200, output: 10 } },
      ],
      extraConfig: '[assistant.reasoning]\neffort = "low"\n',
    });
    const result = await w.jp("q", "how many words in notes.txt?");
    expect(result.code).toBe(0);
    expect(w.mock.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses"]);
    const [first, second] = bodies() as Body[];
    expect(first).toMatchObject({
      model: "gpt-mock",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      reasoning: { effort: "low", summary: "auto" },
      max_output_tokens: 8192,
      input: [{ role: "user", content: "how many words in notes.txt?" }],
    });
    expect(first!.instructions).toEqual(expect.any(String));
    expect(second!.input).toEqual([
      { role: "user", content: "how many words in notes.txt?" },
      {
        type: "reasoning",
        id: stringMatching(/^rs_/),
        summary: [{ type: "summary_text", text: "I should count" }],
        encrypted_content: "ENC_REASONING_1",
      },
      { type: "function_call", call_id: "call_1", name: "count_words", arguments: '{"path":"notes.txt"}' },
      { type: "function_call_output", call_id: "call_1", output: stringContaining("5") },
    ]);
    // Usage as the API reports it, reasoning tokens apart (the mock reports 10 of the 40).
    const usage = w
      .events()
      .flatMap((e) => (e.type === "tool_call_request" ? [(e.metadata as Body).usage] : []));
    expect(usage).toEqual([{ input_tokens: 120, output_tokens: 40, reasoning_tokens: 10 }]);
    const reasoning = w.events().find((e) => e.type === "chat_response" && e.reasoning !== undefined)!;
    expect(reasoning.metadata).toMatchObject({
      openai_reasoning_item: { id: stringMatching(/^rs_/), encrypted_content: "ENC_REASONING_1" },
    });
    expect(result.stdout).toContain("There are 5 words.");
    expect(sdkTypeErrors("responses", bodies())).toEqual([]);
  });

  it("asks a reasoning model for its least reasoning when none is configured, and sends a budget as an effort", async () => {
    w = await qWorkspace({ provider: "openai", api: "responses", script: [{ text: "a" }, { text: "b" }] });
    expect((await w.jp("q", "-m", "openai/gpt-5", "one")).code).toBe(0);
    expect(bodies()[0]!.reasoning).toEqual({ effort: "minimal", summary: "auto" });
    const budget = await w.jp(
      "q",
      "-m",
      "openai/gpt-5.5",
      "-c",
      "assistant.reasoning.budget_tokens=20000",
      "two",
    );
    expect(budget.code).toBe(0);
    expect(budget.stderr).toContain('the budget of 20,000 tokens is sent as effort "high"');
    expect(bodies()[1]!.reasoning).toEqual({ effort: "high", summary: "auto" });
    expect(sdkTypeErrors("responses", bodies())).toEqual([]);
  });
});

describe("side requests", () => {
  it("ask a reasoning model for its least reasoning and leave room for it, so a title is not eaten by reasoning", async () => {
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      script: [{ text: "The parser splits on commas." }, { text: "CSV parser commas" }],
      extraConfig: '[conversation.title.generate.model]\nid = "openai/gpt-5-mini"\n',
    });
    const result = await w.jp("q", "why does the parser fail?");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('titled "CSV parser commas" by openai/gpt-5-mini');
    const title = bodies()[1]!;
    expect(title).toMatchObject({ model: "gpt-5-mini", reasoning: { effort: "minimal", summary: "auto" } });
    expect(title.max_output_tokens).toBe(64 + 2048);
    expect(sdkTypeErrors("responses", bodies())).toEqual([]);
  });

  it("turn thinking off as an Anthropic model takes it", async () => {
    w = await qWorkspace({
      script: [{ text: "answer" }, { text: "A title" }],
      extraConfig: '[conversation.title.generate.model]\nid = "anthropic/claude-sonnet-5-5"\n',
    });
    expect((await w.jp("q", "hello")).code).toBe(0);
    expect(bodies()[1]).toMatchObject({ model: "claude-sonnet-5-5", thinking: { type: "between_tools" } });
    expect(sdkTypeErrors("anthropic", bodies())).toEqual([]);
  });
});

describe("Chat Completions, for compatible servers", () => {
  it("sends bodies the SDK's own request type accepts", async () => {
    w = await qWorkspace({
      provider: "openai",
      script: [
        { tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "5" },
      ],
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    expect(w.mock.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(sdkTypeErrors("chat", bodies())).toEqual([]);
  });
});

describe("beta headers", () => {
  it("go with every Anthropic request, the Models API's included", async () => {
    w = await qWorkspace({ script: [{ text: "ok" }] });
    const beta = ["-c", 'providers.anthropic.beta=["context-1m-2025-08-07","fast-mode"]'];
    expect((await w.jp(...beta, "q", "hi")).code).toBe(0);
    expect(w.mock.requests[0]!.headers["anthropic-beta"]).toBe("context-1m-2025-08-07,fast-mode");
    // The Models API is asked with on-demand compaction's beta too: only then does it say `capabilities.compaction`.
    expect(w.mock.modelRequests[0]!.headers["anthropic-beta"]).toBe(
      "context-1m-2025-08-07,fast-mode,compact-2026-09-04",
    );
  });
});

describe("models as the providers' pages give them today", () => {
  it("model show: Gemini 2.5 shut down and routed, gemini-4-carbon, Gemini windows, dated aliases, a promotion's end unconfirmed", async () => {
    w = await qWorkspace({ provider: "google" });
    const show = async (id: string) => {
      const r = await w!.jp("model", "show", id);
      expect(r.code).toBe(0);
      return r.stdout;
    };
    const pro = await show("google/gemini-2.5-pro");
    expect(pro).toMatch(
      /lifecycle +retired, retires 2026-12-01; answered since by google\/gemini-3.8-flash, at its rates/,
    );
    // Billed at the routed model's rates: Gemini 3.8 Flash's, not 2.5 Pro's $1.25 / $10.
    expect(pro).toMatch(/price +.*\$0\.75.*\(google\/gemini-3\.8-flash's, which answers it\)/);
    expect(await show("google/gemini-2.5-flash")).toContain("answered since by google/gemini-3.5-flash-lite");
    // Still asked, with a warning, not refused: Google answers it.
    w.mock.push({ text: "routed" });
    const asked = await w.jp("q", "-m", "google/gemini-2.5-pro", "hi");
    expect(asked.code).toBe(0);
    expect(asked.stderr).toContain(
      "google/gemini-2.5-pro was shut down on 2026-12-01: the provider answers it with google/gemini-3.8-flash, at that model's rates",
    );
    const carbon = await show("google/gemini-4-carbon");
    expect(carbon).toMatch(/context window +1,048,576 tokens/);
    expect(carbon).toMatch(/effort +low, medium, high/);
    expect(carbon).toMatch(/price +.*\$4/);
    expect(await show("google/gemini-3.1-pro-preview")).toMatch(/context window +1,048,576 tokens/);
    expect(await show("anthropic/claude-sonnet-4-0")).toMatch(
      /lifecycle +retired; replaced by anthropic\/claude-sonnet-5-5/,
    );
    expect(await show("anthropic/claude-sonnet-4-5-20250929")).toMatch(/lifecycle +retired/);
    expect(await show("openai/gpt-5.6-sol")).toMatch(
      /price note +warning: a promotional price, guaranteed by OpenAI only through 2026-11-21; its end is unconfirmed/,
    );
  });
});

describe("model-specific figures in the config", () => {
  it("override what the provider says", async () => {
    w = await qWorkspace({ script: [{ text: "ok" }], extraConfig: models("max_output_tokens = 1000") });
    w.mock.models.set("claude-mock", modelInfo("claude-mock", { maxTokens: 6000 }));
    expect((await w.jp("q", "hi")).code).toBe(0);
    expect(bodies()[0]!.max_tokens).toBe(1000);
  });
});

describe("jp model show", () => {
  it("prints each figure with where it came from, and --json the same", async () => {
    w = await qWorkspace({
      extraConfig: '[models."anthropic/claude-sonnet-5-5"]\nmax_output_tokens = 64000\n',
    });
    w.mock.models.set("claude-sonnet-5-5", SONNET_5_5());
    const shown = await w.jp("model", "show", "anthropic/claude-sonnet-5-5");
    expect(shown.code).toBe(0);
    const lines = shown.stdout.split("\n");
    expect(lines[0]).toBe("anthropic/claude-sonnet-5-5");
    expect(lines.find((l) => l.includes("context window"))).toMatch(
      /1,000,000 tokens {2}\(provider, \d{4}-\d\d-\d\d \d\d:\d\d\)/,
    );
    expect(lines.find((l) => l.includes("max output"))).toContain("64,000 tokens  (config)");
    expect(lines.find((l) => l.includes("thinking"))).toContain("adaptive, between_tools");
    expect(lines.find((l) => l.includes("forced tool use"))).toContain(
      "no: -u asks for the tool instead  (built-in)",
    );
    expect(lines.find((l) => l.includes("price"))).toMatch(
      /\$2\.00 in \/ \$10\.00 out per million \(cache read \$0\.100, .*\) {2}\(jp's supplement: https:\/\/platform\.claude\.com\/docs\/en\/about-claude\/pricing, as of 2026-12-06\)$/,
    );
    const json = JSON.parse(
      (await w.jp("model", "show", "anthropic/claude-sonnet-5-5", "--json")).stdout,
    ) as {
      facts: Record<string, unknown>;
      sources: Record<string, string>;
    };
    expect(json.facts).toMatchObject({
      contextWindow: 1_000_000,
      maxOutputTokens: 64_000,
      forcedToolUse: false,
    });
    expect(json.sources).toMatchObject({
      contextWindow: "provider",
      maxOutputTokens: "config",
      price: "data",
      forcedToolUse: "built-in",
    });
    // Asked once: the second show read the cache.
    expect(w.mock.modelRequests).toHaveLength(1);
  });

  it("says what an unknown window means instead of failing", async () => {
    w = await qWorkspace({});
    const shown = await w.jp("model", "show");
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      'context window   unknown: no over-window guard, no automatic compaction by ratio (set [models."anthropic/claude-mock"] context_window)',
    );
  });
});

describe("the SDK type check of sent bodies", () => {
  it("fails on a body the SDK's type refuses", () => {
    const body = { model: "m", max_tokens: 1, stream: true, messages: [], thinking: { type: "enabled" } };
    expect(sdkTypeErrors("anthropic", [body]).join("\n")).toContain("budget_tokens");
    expect(
      sdkTypeErrors("responses", [{ model: "m", stream: true, reasoning: { effort: "huge" } }]),
    ).not.toEqual([]);
  });
});

describe("the model a conversation continues with", () => {
  it("is -m's from then on, recorded as JP records it, and named when it changes, not on every turn", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" }] });
    const first = await w.jp("q", "-n", "-m", "anthropic/claude-other", "one");
    expect(first.stderr).toContain(
      "anthropic/claude-other: given with -m, and kept for this conversation's next turns",
    );
    expect(w.events().find((e) => e.type === "config_delta")).toMatchObject({
      delta: { assistant: { model: { id: "anthropic/claude-other" } } },
    });
    const second = await w.jp("q", "two");
    expect(w.mock.requests[1]!.body.model).toBe("claude-other");
    // Said when the model changed (the -m turn said it); not again on a turn that keeps it.
    expect(second.stderr).not.toContain("this conversation's model");
    // The same -m again records nothing more; another conversation keeps the configured model.
    expect((await w.jp("q", "-m", "anthropic/claude-other", "three")).code).toBe(0);
    expect(w.events().filter((e) => e.type === "config_delta")).toHaveLength(1);
    const other = await w.jp("q", "-n", "four");
    expect(w.mock.requests[3]!.body.model).toBe("claude-mock");
    expect(other.stderr).not.toContain("this conversation's model");
  });
});
