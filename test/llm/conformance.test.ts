// One conformance suite, run against every provider jp speaks, through
// `jp q` against the mock server speaking each provider's wire format:
// plain text with usage, a stream cut anywhere, a two-request tool loop, thinking that goes back
// as the provider wants it, a cut-off answer, an error body, Ctrl-C in the
// middle of an answer, the window guard.
import { execa } from "execa";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import {
  BUILT_IN_PROVIDERS,
  baseUrlFor,
  type Api,
  type BuiltInName,
  type BuiltInProvider,
} from "../../src/llm/providers/index.js";
import { mockModel, qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

interface Dialect {
  name: string;
  options: Parameters<typeof qWorkspace>[0];
  model: string;
  path: string;
  /** The first request's fields that force `count_words`, in the provider's documented form; undefined: it cannot force one. */
  forced?: Record<string, unknown>;
}

/** Where each API streams an answer from, below the provider's base path. */
const STREAM_PATH: Record<Api, (name: string) => string> = {
  anthropic: () => "/v1/messages",
  responses: () => "/responses",
  chat: () => "/chat/completions",
  gemini: (name) => `/v1beta/models/${name}:streamGenerateContent?alt=sse`,
  ollama: () => "/api/chat",
};

/** How each API forces a tool, in its documented form; Ollama's /api/chat cannot. */
const FORCED: Record<Api, Record<string, unknown> | undefined> = {
  anthropic: { tool_choice: { type: "tool", name: "count_words" } },
  responses: { tool_choice: { type: "function", name: "count_words" } },
  // As JP's accepted requests to OpenRouter and Cerebras name it.
  chat: { tool_choice: { type: "function", function: { name: "count_words" } } },
  gemini: { toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["count_words"] } } },
  ollama: undefined,
};

/** Servers that read only the string forms of `tool_choice` (llama-server). */
const STRING_TOOL_CHOICE: ReadonlySet<string> = new Set(["llamacpp"]);

/** Every built-in provider, as the registry lists it, and a compatible server jp knows nothing of. */
const DIALECTS: Dialect[] = [
  ...BUILT_IN_PROVIDERS.map((room: BuiltInProvider & { name: BuiltInName }): Dialect => {
    const model = mockModel(room.name);
    const base = new URL(baseUrlFor(room, room.api)).pathname;
    const forced = STRING_TOOL_CHOICE.has(room.name) ? { tool_choice: "required" } : FORCED[room.api];
    return {
      name: room.title,
      options: room.name === "openai" ? { provider: room.name, api: "responses" } : { provider: room.name },
      model,
      path: base.replace(/\/+$/, "") + STREAM_PATH[room.api](model.slice(model.indexOf("/") + 1)),
      ...(forced ? { forced } : {}),
    };
  }),
  {
    name: "Chat Completions (compatible servers)",
    options: { provider: "openai", api: "chat" },
    model: mockModel("openai"),
    path: "/v1/chat/completions",
    forced: FORCED.chat,
  },
];

const responses = () =>
  w!.events().filter((e) => e.type === "chat_response" || e.type === "tool_call_request");
const metadataOf = (e: Event) => (e as { metadata?: Record<string, unknown> }).metadata ?? {};

describe.each(DIALECTS)("$name", (dialect) => {
  it("streams a plain answer and records its usage", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [{ text: "Plain answer, streamed.", usage: { input: 42, output: 7 } }],
    });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Plain answer, streamed.");
    expect(w.mock.requests.map((r) => r.path)).toEqual([dialect.path]);
    expect(metadataOf(responses().at(-1)!)).toMatchObject({
      model: dialect.model,
      usage: { input_tokens: 42, output_tokens: 7 },
    });
  });

  it("reads a stream cut anywhere, through events and multi-byte characters", async () => {
    const text = "Déjà vu — 東京 🌸 naïve café, twice: déjà vu.";
    w = await qWorkspace({
      ...dialect.options,
      script: [
        {
          text,
          tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }],
          split_bytes: 5,
        },
        { text: "ok", split_bytes: 3 },
      ],
    });
    const result = await w.jp("q", "go");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(text);
    expect(responses()[0]).toMatchObject({ type: "chat_response", message: text });
    expect(responses()[1]).toMatchObject({ name: "count_words", arguments: { path: "notes.txt" } });
  });

  it("runs a two-request tool loop, the result reaching the model", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [
        { tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "notes.txt has 5 words." },
      ],
    });
    const result = await w.jp("q", "count the words in notes.txt");
    expect(result.code).toBe(0);
    expect(w.mock.requests).toHaveLength(2);
    const call = w.events().find((e) => e.type === "tool_call_request")!;
    expect(call).toMatchObject({ name: "count_words", arguments: { path: "notes.txt" } });
    const answered = w.events().find((e) => e.type === "tool_call_response")!;
    expect(answered).toMatchObject({ is_error: false });
    // The second request carries the call and its result (5 words, as count_words says).
    const second = JSON.stringify(w.mock.requests[1]!.body);
    expect(second).toContain("count_words");
    expect(second).toMatch(/5/);
    expect(result.stdout).toContain("notes.txt has 5 words.");
  });

  it("forces a tool (-u) in the provider's own form, or asks for it in words where it has none", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [
        { tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "5 words." },
      ],
    });
    expect((await w.jp("q", "-u", "count_words", "how long is notes.txt?")).code).toBe(0);
    const first = w.mock.requests[0]!.body;
    if (dialect.forced) expect(first).toMatchObject(dialect.forced);
    else {
      expect(first).not.toHaveProperty("tool_choice");
      expect(JSON.stringify(first)).toContain("(jp q -u count_words)");
    }
    // Later requests of the turn choose freely; a question that asked in words keeps them (the request only appends).
    const second = w.mock.requests[1]!.body;
    if (dialect.forced) expect(second).not.toMatchObject(dialect.forced);
    else expect(JSON.stringify(second)).toContain("(jp q -u count_words)");
  });

  it("records thinking and sends it back within the tool loop as the provider wants it", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [
        {
          reasoning: "Counting is a job for the tool.",
          signature: "SIG_CONFORMANCE",
          tool_calls: [{ id: "call_1", name: "count_words", arguments: { path: "notes.txt" } }],
        },
        { text: "Done." },
      ],
      extraConfig: '[assistant.reasoning]\neffort = "medium"\n',
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    const thought = w.events().find((e) => e.type === "chat_response" && e.reasoning !== undefined);
    expect(thought).toMatchObject({ reasoning: "Counting is a job for the tool." });
    const second = JSON.stringify(w.mock.requests[1]!.body);
    // Signed providers get the signature back; the others (Ollama, compatible servers) the text in their field.
    expect(second).toMatch(/SIG_CONFORMANCE|Counting is a job for the tool\./);
  });

  it("says when the answer was cut off at the output limit", async () => {
    // Not asked to go on (that is q-prices.test.ts's): the cut answer is kept, and said to be cut.
    w = await qWorkspace({
      ...dialect.options,
      script: [{ text: "half an ans", stop: "max_tokens" }],
      request: "max_continuations = 0",
    });
    const result = await w.jp("q", "write at length");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("cut off at the token limit");
    expect(metadataOf(responses().at(-1)!)).toMatchObject({ stop_reason: "max_tokens" });
  });

  it("reports an error body in one line and keeps the question, marked failed", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [{ fault: { status: 400, message: "the request was malformed" } }],
    });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the request was malformed");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
  });

  it("does not send a request clearly over the model's window", async () => {
    w = await qWorkspace({
      ...dialect.options,
      extraConfig: `[models."${dialect.model}"]\ncontext_window = 1000\n`,
    });
    const result = await w.jp("q", "x ".repeat(4000));
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`more than the 1,000-token context window of ${dialect.model}`);
    expect(w.mock.requests).toHaveLength(0);
  });

  it("keeps what arrived when Ctrl-C interrupts the answer, and the next question goes on", async () => {
    w = await qWorkspace({
      ...dialect.options,
      script: [
        { text: "a long answer, word by word. ".repeat(12), event_delay_ms: 40 },
        { text: "Going on." },
      ],
    });
    const child = execa(JP, ["q", "tell me everything"], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
    });
    // Interrupted once the answer has begun to show.
    await new Promise<void>((resolve) => {
      child.stdout.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("a long")) resolve();
      });
    });
    child.kill("SIGINT");
    const interrupted = await child;
    expect(interrupted.exitCode).toBe(130);
    const kept = responses().at(-1)!;
    expect(metadataOf(kept)).toMatchObject({ interrupted: true });
    expect((kept as { message?: string }).message).toMatch(/^a long/);
    const next = await w.jp("q", "go on");
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("Going on.");
    expect(JSON.stringify(w.mock.requests[1]!.body)).toContain("a long");
  });
});
