// The local server's preserved thinking, held to what the platform docs and
// the beta SDK's types say the real API does: it must refuse what the real
// API refuses, or the tests that use it prove nothing.
import { afterEach, describe, expect, it } from "vitest";
import { postMessages, startMockLlm, type MockLlm } from "./mock-llm.js";
import { BINDING_BETA, CONTEXT_MANAGEMENT_BETA, TOOL_CHANGES_BETA } from "./preserved-thinking.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const MODEL = "claude-sonnet-5-5";

type Block = Record<string, unknown>;
type Message = { role: string; content: Block[] };

async function post(body: Record<string, unknown>, beta?: string) {
  return postMessages(mock!, { model: MODEL, max_tokens: 100, ...body }, beta);
}

/** The signature of the answer's thinking block, from its stream. */
const signatureOf = (stream: string) => /"signature":"(bound\.[^"]+)"/.exec(stream)![1]!;

/** A first exchange: the question, and the answer's thinking block as it must go back. */
async function firstAnswer(system = "Be brief.") {
  mock!.push({ reasoning: "hmm", text: "hello" });
  const question: Message = { role: "user", content: [{ type: "text", text: "hi" }] };
  const first = await post({ system, messages: [question] });
  expect(first.status).toBe(200);
  const answer: Message = {
    role: "assistant",
    content: [
      { type: "thinking", thinking: "hmm", signature: signatureOf(first.text) },
      { type: "text", text: "hello" },
    ],
  };
  return { question, answer };
}

const next: Message = { role: "user", content: [{ type: "text", text: "and then?" }] };

describe("the mock's preserved thinking", () => {
  it("accepts a block whose prefix is unchanged, wherever cache_control markers sit", async () => {
    mock = await startMockLlm();
    const { question, answer } = await firstAnswer();
    mock.push({ text: "ok" });
    const marked = {
      ...question,
      content: [{ ...question.content[0], cache_control: { type: "ephemeral" } }],
    };
    const again = await post({ system: "Be brief.", messages: [marked, answer, next] });
    expect(again.status).toBe(200);
    expect(mock.dropped).toEqual([]);
  });

  it("refuses a block whose prefix changed, naming it as the API does", async () => {
    mock = await startMockLlm();
    const { question, answer } = await firstAnswer();
    for (const changed of [
      { system: "Be very brief.", messages: [question, answer, next] },
      {
        system: "Be brief.",
        messages: [{ ...question, content: [{ type: "text", text: "hi!" }] }, answer, next],
      },
      {
        system: "Be brief.",
        messages: [question, answer, next],
        tools: [{ name: "t", description: "d", input_schema: { type: "object" } }],
      },
    ]) {
      const refused = await post(changed);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(
        "messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation.",
      );
    }
    expect(mock.refusedForBinding).toBe(3);
  });

  it("a tool marked defer_loading is no part of the prefix", async () => {
    mock = await startMockLlm();
    const { question, answer } = await firstAnswer();
    mock.push({ text: "ok" });
    const deferred = [{ name: "t", description: "d", input_schema: { type: "object" }, defer_loading: true }];
    const again = await post({ system: "Be brief.", messages: [question, answer, next], tools: deferred });
    expect(again.status).toBe(200);
  });

  it("drops it instead with drop_block and its beta header, listing it in input_transformations", async () => {
    mock = await startMockLlm();
    const { question, answer } = await firstAnswer();
    const thinking = { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } };
    const body = { system: "Be very brief.", messages: [question, answer, next], thinking };
    const withoutBeta = await post(body);
    expect(withoutBeta.status).toBe(400);
    expect(withoutBeta.text).toContain(BINDING_BETA);
    mock.push({ text: "ok" });
    const dropped = await post(body, BINDING_BETA);
    expect(dropped.status).toBe(200);
    expect(dropped.text).toContain(
      '"input_transformations":[{"type":"thinking_dropped","path":"messages.1.content.0","reason":"prefix_binding_mismatch"}]',
    );
  });

  it("drops a block another model wrote without an error", async () => {
    mock = await startMockLlm();
    const { question, answer } = await firstAnswer();
    mock.push({ text: "ok" });
    const other = await post({
      model: "claude-opus-5-5",
      system: "Be brief.",
      messages: [question, answer, next],
    });
    expect(other.status).toBe(200);
    expect(mock.dropped).toEqual([
      { path: "messages.1.content.0", reason: "model_binding_mismatch", request: 2 },
    ]);
  });

  /** Three exchanges, each answer thinking first, as the client sends them back. */
  async function threeTurns(model = MODEL) {
    const turns: Message[] = [];
    for (let i = 1; i <= 3; i++) {
      mock!.push({ reasoning: `t${i}`, text: `a${i}` });
      const question: Message = { role: "user", content: [{ type: "text", text: `q${i}` }] };
      const r = await post({ model, system: "Be brief.", messages: [...turns, question] });
      expect(r.status).toBe(200);
      turns.push(question, {
        role: "assistant",
        content: [
          { type: "thinking", thinking: `t${i}`, signature: signatureOf(r.text) },
          { type: "text", text: `a${i}` },
        ],
      });
    }
    return turns;
  }

  /** The messages with the thinking of these assistant turns (1-based) left out. */
  const without = (turns: Message[], ...left: number[]): Message[] =>
    turns.map((m, i) =>
      m.role === "assistant" && left.includes(i / 2 + 0.5)
        ? { ...m, content: m.content.filter((b) => b.type !== "thinking") }
        : m,
    );

  it("keeps the rest when the oldest thinking, the newest or all of it is left out", async () => {
    mock = await startMockLlm();
    const turns = await threeTurns();
    for (const left of [[1], [1, 2], [3], [2, 3], [1, 2, 3]]) {
      mock.push({ text: "ok" });
      const r = await post({ system: "Be brief.", messages: [...without(turns, ...left), next] });
      expect(r.status).toBe(200);
    }
    expect(mock.dropped).toEqual([]);
    expect(mock.refusedForBinding).toBe(0);
  });

  it("refuses a gap: the block after it, and every later one, is bound to what it followed", async () => {
    mock = await startMockLlm();
    const turns = await threeTurns();
    const refused = await post({ system: "Be brief.", messages: [...without(turns, 2), next] });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("messages.5.content.0: Invalid `signature` in `thinking` block.");
    // Dropped instead, only what follows the gap goes.
    mock.push({ text: "ok" });
    const thinking = { type: "adaptive", block_binding: { prefix_mismatch_behavior: "drop_block" } };
    const dropped = await post(
      { system: "Be brief.", messages: [...without(turns, 2), next], thinking },
      BINDING_BETA,
    );
    expect(dropped.status).toBe(200);
    expect(mock.dropped).toEqual([
      { path: "messages.5.content.0", reason: "prefix_binding_mismatch", request: 5 },
    ]);
  });

  it("refuses a block put back before one written without it", async () => {
    mock = await startMockLlm();
    const turns = await threeTurns();
    // Turn 4 answered with turn 1's thinking left out; then turn 1's is sent again.
    mock.push({ reasoning: "t4", text: "a4" });
    const q4: Message = { role: "user", content: [{ type: "text", text: "q4" }] };
    const fourth = await post({ system: "Be brief.", messages: [...without(turns, 1), q4] });
    expect(fourth.status).toBe(200);
    const a4: Message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "t4", signature: signatureOf(fourth.text) },
        { type: "text", text: "a4" },
      ],
    };
    mock.push({ text: "ok" });
    const apart = await post({ system: "Be brief.", messages: [...without(turns, 1), q4, a4, next] });
    expect(apart.status).toBe(200);
    const back = await post({ system: "Be brief.", messages: [...turns, q4, a4, next] });
    expect(back.status).toBe(400);
    expect(back.text).toContain("messages.7.content.0: Invalid `signature`");
  });

  it("Fable 5.1 reads Opus 5.5's thinking; Opus 5.5 drops Fable 5.1's", async () => {
    mock = await startMockLlm();
    const turns = await threeTurns("claude-opus-5-5");
    mock.push({ reasoning: "t4", text: "a4" });
    const onFable = await post({
      model: "claude-fable-5-1",
      system: "Be brief.",
      messages: [...turns, next],
    });
    expect(onFable.status).toBe(200);
    expect(mock.dropped).toEqual([]);
    const a4: Message = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "t4", signature: signatureOf(onFable.text) },
        { type: "text", text: "a4" },
      ],
    };
    mock.push({ text: "ok" });
    const back = await post({
      model: "claude-opus-5-5",
      system: "Be brief.",
      messages: [...turns, next, a4, next],
    });
    expect(back.status).toBe(200);
    expect(mock.dropped).toEqual([
      { path: "messages.7.content.0", reason: "model_binding_mismatch", request: 5 },
    ]);
  });

  it("context editing: asks for its beta header, refuses on-demand compaction with it, clears the oldest results over the trigger", async () => {
    mock = await startMockLlm();
    const use = (i: number): Message => ({
      role: "assistant",
      content: [{ type: "tool_use", id: `t${i}`, name: "big", input: {} }],
    });
    const result = (i: number): Message => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(400) }],
    });
    const messages = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      use(1),
      result(1),
      use(2),
      result(2),
    ];
    const tools = [{ name: "big", description: "d", input_schema: { type: "object" } }];
    const context_management = {
      edits: [
        {
          type: "clear_tool_uses_20250919",
          trigger: { type: "input_tokens", value: 100 },
          keep: { type: "tool_uses", value: 1 },
        },
      ],
    };
    const without = await post({ messages, tools, context_management });
    expect(without.status).toBe(400);
    expect(without.text).toContain(CONTEXT_MANAGEMENT_BETA);
    const both = await post(
      { messages, tools, context_management, compaction: { type: "summarize" } },
      `${CONTEXT_MANAGEMENT_BETA},compact-2026-09-04`,
    );
    expect(both.status).toBe(400);
    mock.push({ text: "ok" });
    const cleared = await post({ messages, tools, context_management }, CONTEXT_MANAGEMENT_BETA);
    expect(cleared.status).toBe(200);
    expect(cleared.text).toContain(
      '"context_management":{"applied_edits":[{"type":"clear_tool_uses_20250919","cleared_tool_uses":1',
    );
  });

  it("context editing: clear_at_least, exclude_tools and a trigger in tool uses, as the docs' table gives them", async () => {
    mock = await startMockLlm();
    const use = (i: number, name: string): Message => ({
      role: "assistant",
      content: [{ type: "tool_use", id: `t${i}`, name, input: {} }],
    });
    const result = (i: number): Message => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: `t${i}`, content: "x".repeat(400) }],
    });
    const messages = [
      { role: "user", content: [{ type: "text", text: "go" }] },
      use(1, "big"),
      result(1),
      use(2, "notes"),
      result(2),
      use(3, "big"),
      result(3),
    ];
    const tools = ["big", "notes"].map((name) => ({
      name,
      description: "d",
      input_schema: { type: "object" },
    }));
    const edit = (options: Record<string, unknown>) => ({
      edits: [{ type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: 1 }, ...options }],
    });
    const cleared = async (context_management: Record<string, unknown>) => {
      mock!.push({ text: "ok" });
      const answer = await post({ messages, tools, context_management }, CONTEXT_MANAGEMENT_BETA);
      expect(answer.status).toBe(200);
      return mock!.contextEdits.at(-1)!.map((e) => e.cleared_tool_uses);
    };
    const low = { type: "input_tokens", value: 100 };
    // Two results of about 100 tokens each can be cleared: asking for at least 300 leaves everything.
    expect(await cleared(edit({ trigger: low }))).toEqual([2]);
    expect(
      await cleared(edit({ trigger: low, clear_at_least: { type: "input_tokens", value: 300 } })),
    ).toEqual([]);
    expect(
      await cleared(edit({ trigger: low, clear_at_least: { type: "input_tokens", value: 150 } })),
    ).toEqual([2]);
    expect(await cleared(edit({ trigger: low, exclude_tools: ["notes"] }))).toEqual([1]);
    expect(await cleared(edit({ trigger: { type: "tool_uses", value: 3 } }))).toEqual([]);
    expect(await cleared(edit({ trigger: { type: "tool_uses", value: 2 } }))).toEqual([2]);
    // The default trigger, 100,000 input tokens, is far off.
    expect(await cleared(edit({}))).toEqual([]);
  });

  it("tool changes in the conversation: their beta header, and a tool declared in tools", async () => {
    mock = await startMockLlm();
    const tools = [
      { name: "extra", description: "d", input_schema: { type: "object" }, defer_loading: true },
    ];
    const add = (name: string) => ({
      role: "system",
      content: [{ type: "tool_addition", tool: { type: "tool_reference", name } }],
    });
    const messages = [{ role: "user", content: [{ type: "text", text: "go" }] }];
    expect((await post({ messages: [...messages, add("extra")], tools })).status).toBe(400);
    const unknown = await post({ messages: [...messages, add("other")], tools }, TOOL_CHANGES_BETA);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("no tool named");
    mock.push({ text: "ok" });
    expect((await post({ messages: [...messages, add("extra")], tools }, TOOL_CHANGES_BETA)).status).toBe(
      200,
    );
  });
});
