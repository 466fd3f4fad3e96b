// `jp q`'s use case with in-memory stand-ins for each step's work: the order
// of the steps, the configuration read once, a conversation made only once
// the model is ready, the turn lock held for the turn and let go (with what
// the tools started) on every path, and a question kept, failed, when the
// tools could not start.
import { describe, expect, it } from "vitest";
import { JpError } from "../../src/errors.js";
import type { Event } from "../../src/events/index.js";
import type { StreamPart } from "../../src/llm/types.js";
import type { Tool } from "../../src/tools/types.js";
import { ask, type AskSteps, type ReadyModel } from "../../src/service/ask.js";
import type { ConversationRef } from "../../src/store/conversations.js";
import { recordingOutput, scriptedPrompter, scriptedProvider } from "../support/doubles.js";

const NOW = new Date("2026-12-01T10:00:00Z");
const REF: ConversationRef = { id: "c1", folder: "c1", dir: "/nowhere" };

const answer = (text: string): StreamPart[] => [
  { type: "text", text },
  { type: "block_end" },
  { type: "usage", inputTokens: 10, outputTokens: 3 },
  { type: "stop", reason: "end" },
];

interface Stage {
  /** Every step called, in order, with the lock's state at the time. */
  calls: string[];
  log: Event[];
  steps: AskSteps<{ id: string }>;
  provider: ReturnType<typeof scriptedProvider>;
}

/** The steps in memory: a log, a lock, a scripted provider; `change` replaces any of them. */
function stage(options: {
  answers?: StreamPart[][];
  keeps?: boolean;
  log?: Event[];
  change?: (steps: AskSteps<{ id: string }>, stage: Stage) => Partial<AskSteps<{ id: string }>>;
}): Stage {
  const calls: string[] = [];
  const log = [...(options.log ?? [])];
  const provider = scriptedProvider(options.answers ?? [answer("Hello.")]);
  let held = false;
  const call = (name: string) => calls.push(held ? `${name} (locked)` : name);
  const called = <T>(name: string, value: T) => {
    call(name);
    return Promise.resolve(value);
  };
  const model: ReadyModel = {
    modelId: "scripted/model",
    provider,
    modelName: "model",
    capabilities: { id: "scripted/model", facts: {}, sources: {} },
    attachments: [],
    configAttachments: [],
  };
  const steps: AskSteps<{ id: string }> = {
    keeps: options.keeps ?? true,
    configure: () => called("configure", { id: "config" }),
    readyModel: () => called("readyModel", model),
    conversation: () => called("conversation", REF),
    log: () => ({
      events: () => log,
      append: (group) => {
        call(`append ${group.map((e) => e.type).join(",")}`);
        log.push(...group);
      },
    }),
    holdTurn: () => {
      call("holdTurn");
      held = true;
      return {
        release: () => {
          held = false;
          call("release");
        },
      };
    },
    interrupts: () => ({ signal: new AbortController().signal, dispose: () => void call("dispose") }),
    offerTools: () => called("offerTools", { tools: [], close: () => called("close tools", undefined) }),
    setUp: () =>
      called("setUp", {
        maxTokens: 100,
        maxRetries: 0,
        backoffMs: 0,
        prompter: scriptedPrompter(),
        output: recordingOutput(),
        now: () => NOW,
        cwd: "/",
      }),
    recorded: () => undefined,
    repair: () => undefined,
    afterTurn: (_config, _ref, events) => called(`afterTurn ${events.length} events`, undefined),
    now: () => NOW,
  };
  const result: Stage = { calls, log, steps, provider };
  Object.assign(steps, options.change?.(steps, result));
  return result;
}

describe("asking a question (service/ask)", () => {
  it("takes each step once, in order, the turn inside the lock", async () => {
    const s = stage({});
    const result = await ask(s.steps, { query: "Hi?" });
    expect(result.interrupted).toBe(false);
    expect(s.calls).toEqual([
      "configure",
      "readyModel",
      "conversation",
      "holdTurn",
      "offerTools (locked)",
      "setUp (locked)",
      "append turn_start,chat_request (locked)",
      "append chat_response (locked)",
      "afterTurn 3 events (locked)",
      "dispose (locked)",
      "release",
      "close tools",
    ]);
    expect(s.log.map((e) => e.type)).toEqual(["turn_start", "chat_request", "chat_response"]);
    expect(s.provider.requests).toHaveLength(1);
  });

  it("makes no conversation and takes no lock when the model is not ready", async () => {
    const s = stage({
      change: () => ({
        readyModel: () => Promise.reject(new JpError("provider.no_key", "no key")),
      }),
    });
    await expect(ask(s.steps, { query: "Hi?" })).rejects.toThrow("no key");
    expect(s.calls).toEqual(["configure"]);
  });

  it("keeps the question, failed, when the tools cannot start, and lets the lock go", async () => {
    const s = stage({
      change: () => ({
        offerTools: () => Promise.reject(new JpError("mcp.start", "the server did not start")),
      }),
    });
    const failed = await ask(s.steps, { query: "Hi?" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(JpError);
    expect(s.log.map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
    expect(s.calls.slice(-3)).toEqual([
      "append turn_start,chat_request,request_failed (locked)",
      "dispose (locked)",
      "release",
    ]);
    expect(s.provider.requests).toHaveLength(0);
  });

  it("lets the lock and the tools go when the turn fails", async () => {
    const s = stage({ answers: [] });
    await expect(ask(s.steps, { query: "Hi?" })).rejects.toThrow("no answer left");
    expect(s.calls.slice(-3)).toEqual(["dispose (locked)", "release", "close tools"]);
    expect(s.calls).not.toContainEqual(expect.stringMatching(/^afterTurn/));
  });

  it("with --no-persist, takes no lock and writes nothing, but the model sees the conversation", async () => {
    const earlier: Event[] = [
      { type: "chat_request", timestamp: NOW.toISOString(), content: "Earlier?" },
      { type: "chat_response", timestamp: NOW.toISOString(), message: "Earlier." },
    ];
    const s = stage({ keeps: false, log: earlier });
    await ask(s.steps, { query: "Hi?" });
    expect(s.calls).not.toContain("holdTurn");
    expect(s.calls.filter((c) => c.startsWith("append"))).toEqual([]);
    expect(s.log).toEqual(earlier);
    expect(s.provider.requests[0]!.events.map((e) => e.type)).toEqual([
      "chat_request",
      "chat_response",
      "turn_start",
      "chat_request",
    ]);
  });

  it("records a question asked again as the retry of its turn", async () => {
    const s = stage({});
    await ask(s.steps, { query: "Again?", retry: { turn: 0, attachments: [] } });
    expect(s.log.find((e) => e.type === "chat_request")).toMatchObject({
      content: "Again?",
      metadata: { retry_of: 0 },
    });
  });

  it("ends an interrupted turn with exit 130, after what follows the turn", async () => {
    // Ctrl-C while a tool runs: the tool sees the turn's signal abort.
    const ctrlC = new AbortController();
    const tool: Tool = {
      name: "wait",
      description: "Wait",
      parameters: { type: "object", properties: {} },
      source: "builtin",
      run: "unattended",
      enable: { state: true, allowToggle: "any" },
      execute: () => {
        ctrlC.abort();
        return Promise.resolve({ content: "interrupted", isError: true });
      },
    };
    const s = stage({
      answers: [
        [
          { type: "tool_call", id: "call_1", name: "wait", arguments: {} },
          { type: "stop", reason: "tool_use" },
        ],
      ],
      change: () => ({
        interrupts: () => ({ signal: ctrlC.signal, dispose: () => undefined }),
        offerTools: () => Promise.resolve({ tools: [tool], close: () => Promise.resolve() }),
      }),
    });
    const failed = await ask(s.steps, { query: "Hi?" }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(JpError);
    expect(failed instanceof JpError && failed.exitCode).toBe(130);
    expect(s.calls.slice(-2)).toEqual([
      expect.stringMatching(/^afterTurn \d+ events \(locked\)$/),
      "release",
    ]);
  });
});
