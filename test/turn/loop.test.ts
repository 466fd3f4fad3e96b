// The turn loop with in-memory doubles of its ports: what it records, what it
// asks the provider, how tool calls are approved and answered, and what an
// interrupted turn leaves behind.
import { describe, expect, it } from "vitest";
import { checkProviderView, project } from "../../src/compaction/index.js";
import type { StreamPart } from "../../src/llm/types.js";
import type { Tool } from "../../src/tools/types.js";
import { runTurn } from "../../src/turn/loop.js";
import type { TurnOptions } from "../../src/turn/types.js";
import { memoryLog, recordingOutput, scriptedPrompter, scriptedProvider } from "../support/doubles.js";

const NOW = new Date("2026-12-01T10:00:00Z");

function options(provider: TurnOptions["provider"], extra: Partial<TurnOptions> = {}): TurnOptions {
  return {
    log: memoryLog(),
    provider,
    modelId: "scripted/model",
    modelName: "model",
    maxTokens: 1000,
    maxRetries: 0,
    backoffMs: 0,
    tools: [],
    prompter: scriptedPrompter(),
    output: recordingOutput(),
    now: () => NOW,
    cwd: "/",
    signal: new AbortController().signal,
    ...extra,
  };
}

const answer = (text: string): StreamPart[] => [
  { type: "text", text },
  { type: "block_end" },
  { type: "usage", inputTokens: 10, outputTokens: 3 },
  { type: "stop", reason: "end" },
];

/** A tool that upper-cases its `text` argument. */
const shout = (run: Tool["run"]): Tool => ({
  name: "shout",
  description: "Upper-case a text",
  parameters: { type: "object", properties: { text: { type: "string" } } },
  source: "builtin",
  run,
  enable: { state: true, allowToggle: "any" },
  execute: (args) => Promise.resolve({ content: String(args.text).toUpperCase(), isError: false }),
});

const callShout: StreamPart[] = [
  { type: "tool_call", id: "call_1", name: "shout", arguments: { text: "hi" } },
  { type: "stop", reason: "tool_use" },
];

describe("runTurn", () => {
  it("records the question and the answer, with the usage, and streams the text", async () => {
    const provider = scriptedProvider([answer("Hello there.")]);
    const opts = options(provider);
    const result = await runTurn("hello", opts);
    expect(result).toMatchObject({ interrupted: false, requests: 1 });
    expect(opts.log.events()).toMatchObject([
      { type: "turn_start" },
      { type: "chat_request", content: "hello" },
      {
        type: "chat_response",
        message: "Hello there.",
        metadata: { usage: { input_tokens: 10, output_tokens: 3 } },
      },
    ]);
    expect(provider.requests[0]).toMatchObject({ model: "model", toolChoice: "auto" });
    expect(provider.requests[0]!.events.map((e) => e.type)).toEqual(["turn_start", "chat_request"]);
  });

  it("keeps a reasoning block with its signature, before the text, as its own event", async () => {
    const provider = scriptedProvider([
      [
        { type: "reasoning", text: "Think." },
        { type: "reasoning_signature", signature: "sig-1" },
        { type: "block_end" },
        ...answer("Done."),
      ],
    ]);
    const opts = options(provider);
    await runTurn("think", opts);
    expect(opts.log.events().slice(2)).toMatchObject([
      { type: "chat_response", reasoning: "Think.", metadata: { anthropic_thinking_signature: "sig-1" } },
      { type: "chat_response", message: "Done." },
    ]);
  });

  it("runs an unattended tool, answers the call and sends the result back in the next request", async () => {
    const provider = scriptedProvider([callShout, answer("It says HI.")]);
    const opts = options(provider, { tools: [shout("unattended")] });
    const result = await runTurn("shout hi", opts);
    expect(result.requests).toBe(2);
    const events = opts.log.events();
    expect(events.map((e) => e.type)).toEqual([
      "turn_start",
      "chat_request",
      "tool_call_request",
      "tool_call_response",
      "chat_response",
    ]);
    expect(events[3]).toMatchObject({ id: "call_1", content: "HI", is_error: false });
    expect(provider.requests[1]!.events.at(-1)).toMatchObject({ type: "tool_call_response", content: "HI" });
    expect(provider.requests[0]!.tools.map((t) => t.name)).toEqual(["shout"]);
  });

  it("asks before a tool set to ask, and tells the model when the person declines", async () => {
    const provider = scriptedProvider([callShout, answer("Fine.")]);
    const prompter = scriptedPrompter(["n"]);
    const opts = options(provider, { tools: [shout("ask")], prompter });
    await runTurn("shout hi", opts);
    expect(prompter.asked).toEqual(["Run tool shout? [y,Y,n,N,p,r,e,?] "]);
    expect(opts.log.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      is_error: true,
      content: "the user declined to run this tool call",
    });
  });

  it("answers a call to a tool it does not offer as an error the model can read", async () => {
    const provider = scriptedProvider([callShout, answer("Sorry.")]);
    const opts = options(provider);
    await runTurn("shout hi", opts);
    expect(opts.log.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      is_error: true,
      content: "there is no tool named 'shout'; available: none",
    });
  });

  it("forces the first request to call the named tool, and lets the next choose", async () => {
    const provider = scriptedProvider([callShout, answer("Ok.")]);
    const opts = options(provider, { tools: [shout("unattended")], forcedTool: "shout" });
    await runTurn("go", opts);
    expect(provider.requests.map((r) => r.toolChoice)).toEqual([{ name: "shout" }, "auto"]);
  });

  it("left with an abort mid-answer, keeps what arrived and leaves a valid conversation", async () => {
    const controller = new AbortController();
    const provider = scriptedProvider([
      [
        { type: "text", text: "Part one. " },
        { type: "tool_call", id: "call_2", name: "shout", arguments: { text: "x" } },
        { type: "stop", reason: "tool_use" },
      ],
    ]);
    const tool: Tool = {
      ...shout("unattended"),
      execute: () => {
        controller.abort();
        return Promise.resolve({ content: "interrupted", isError: true });
      },
    };
    const opts = options(provider, { tools: [tool], signal: controller.signal });
    const result = await runTurn("go", opts);
    expect(result.interrupted).toBe(true);
    const events = opts.log.events();
    expect(events.find((e) => e.type === "chat_response")).toMatchObject({ message: "Part one. " });
    expect(events.find((e) => e.type === "tool_call_response")).toMatchObject({
      id: "call_2",
      is_error: true,
    });
    expect(checkProviderView(project(events).events, { lastTurnFinished: true })).toEqual([]);
  });

  describe("a tool asked for on a model that refuses forced tool use", () => {
    const refusesForcing = { forcedToolUse: false };

    it("asks again, firmly, and keeps the second answer (saying so) when neither calls it; the first is not recorded but its usage is", async () => {
      const provider = scriptedProvider([answer("I would rather talk."), answer("Still talking.")]);
      const output = recordingOutput();
      const opts = options(provider, {
        tools: [shout("unattended")],
        forcedTool: "shout",
        facts: refusesForcing,
        output,
      });
      await runTurn("shout hi", opts);
      expect(provider.requests.map((r) => r.toolChoice)).toEqual([
        { name: "shout" },
        { name: "shout", insist: true },
      ]);
      expect(output.shown).toContain(
        "notice: scripted/model answered without calling shout; asking again, more firmly",
      );
      expect(output.shown).toContain(
        "notice: scripted/model did not call shout although asked twice; its answer is kept",
      );
      const responses = opts.log.events().filter((e) => e.type === "chat_response");
      expect(responses).toMatchObject([
        {
          message: "Still talking.",
          metadata: { discarded_attempts: [{ input_tokens: 10, output_tokens: 3 }] },
        },
      ]);
    });

    it("forces the tool as before on a model that accepts forcing, and on one jp knows nothing of", async () => {
      for (const facts of [{ forcedToolUse: true }, undefined]) {
        const provider = scriptedProvider([answer("No.")]);
        const opts = options(provider, {
          tools: [shout("unattended")],
          forcedTool: "shout",
          ...(facts ? { facts } : {}),
        });
        await runTurn("shout hi", opts);
        expect(provider.requests.map((r) => r.toolChoice)).toEqual([{ name: "shout" }]);
      }
    });
  });
});
