// Compaction against a model with preserved thinking, through the real
// bin/jp and a local server that plays Anthropic's documented rule
// (test/support/preserved-thinking.ts): a thinking block goes back only while
// its prefix is unchanged; otherwise the server refuses (400) or, asked to,
// drops it. Every way jp compacts is followed by two more questions, which
// must neither be refused nor have a block jp sent dropped.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  INPUT_TRANSFORMATIONS_KEY,
  REASONING_BINDING_KEY,
  REASONING_LEFT_OUT_KEY,
  type Event,
} from "../../src/events/index.js";
import type { MockRoute, ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, sampleWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { mcpCacheDir } from "../../src/mcp/offer.js";
import { sdkTypeErrors } from "../support/sdk-types.js";
import { SONNET_5_5 } from "../support/model-info.js";
import { historyDigest } from "../../src/llm/reasoning-binding.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { REPO_ROOT } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const MODEL = "anthropic/claude-sonnet-5-5";
const JP = path.join(REPO_ROOT, "bin/jp");

const BIG_TOOL = `[conversation.tools.big]
source = "local"
summary = "Print about 5 KB of data"
command = ["node", "-e", "process.stdout.write('x '.repeat(2500))"]
run = "unattended"
`;
const THINKING = '[assistant.reasoning]\neffort = "medium"\n';

/** An answer that thinks first. */
const answer = (n: number): ScriptedResponse => ({ reasoning: `thinking ${n}`, text: `answer ${n}` });

async function workspace(
  extraConfig = "",
  script: ScriptedResponse[] = [],
  route?: MockRoute,
): Promise<QWorkspace> {
  w = await qWorkspace({
    model: MODEL,
    extraConfig: THINKING + extraConfig,
    script,
    ...(route ? { route } : {}),
  });
  return w;
}

/** Ask `count` questions, each answered with thinking; every one must succeed. */
async function ask(ws: QWorkspace, count: number, from = 1): Promise<void> {
  for (let i = 0; i < count; i++) {
    ws.mock.push(answer(from + i));
    const r = await ws.jp("q", `question ${from + i}`);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
  }
}

type Body = { messages: { role: string; content: { type: string; thinking?: string }[] }[] };

/** The thinking texts a request sent back. */
function thinkingSent(ws: QWorkspace, request = -1): string[] {
  const body = ws.mock.requests.at(request)!.body as unknown as Body;
  return body.messages.flatMap((m) =>
    m.content.filter((b) => b.type === "thinking").map((b) => b.thinking ?? ""),
  );
}

/** Nothing jp sent was refused or dropped by the server. */
function expectAccepted(ws: QWorkspace): void {
  expect(ws.mock.refusedForBinding).toBe(0);
  expect(ws.mock.dropped).toEqual([]);
}

/** Compact with these arguments, then ask two more questions: every request must be accepted whole. */
async function compactThenAsk(ws: QWorkspace, args: string[], next: number): Promise<void> {
  const compact = await ws.jp("c", "compact", ...args);
  expect(compact.stderr).not.toMatch(/error/);
  expect(compact.code).toBe(0);
  await ask(ws, 2, next);
  expectAccepted(ws);
}

/** The last request's tool names. */
const toolNames = (ws: QWorkspace, request = -1) =>
  ((ws.mock.requests.at(request)!.body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name);

const metadataOf = (e: Event) =>
  "metadata" in e && e.metadata ? (e.metadata as Record<string, unknown>) : {};

/**
 * Change turn 1's answer in the log and forget what its later thinking is
 * bound to, as an older jp's log would have it: a change jp cannot see.
 */
function changeBehindJp(ws: QWorkspace): void {
  const log = path.join(ws.folder(), "events.jsonl");
  const events = fs
    .readFileSync(log, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as { message?: string; metadata?: Record<string, unknown> });
  for (const e of events) {
    if (e.message === "answer 1") e.message = "answer one";
    if (e.metadata) {
      const { [REASONING_BINDING_KEY]: _forgotten, ...rest } = e.metadata;
      e.metadata = rest;
    }
  }
  fs.writeFileSync(log, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
}

/**
 * Rewrite the log's reasoning bindings as a jp before the order was recorded
 * wrote them: no `order`, and the history digested with the earlier thinking in it.
 */
function bindAsOlderJp(ws: QWorkspace): void {
  const log = path.join(ws.folder(), "events.jsonl");
  const events = fs
    .readFileSync(log, "utf8")
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l) as Event);
  events.forEach((e, i) => {
    const binding = metadataOf(e)[REASONING_BINDING_KEY] as Record<string, unknown> | undefined;
    if (!binding || !("metadata" in e)) return;
    e.metadata = {
      ...metadataOf(e),
      [REASONING_BINDING_KEY]: { header: binding.header, history: historyDigest(events.slice(0, i), true) },
    };
  });
  fs.writeFileSync(log, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
}

describe("preserved thinking", () => {
  it("an append-only conversation sends every block back, each bound to its prefix", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2"]);
    expect(ws.mock.dropped).toEqual([]);
    expect(ws.mock.refusedForBinding).toBe(0);
    const reasoning = ws.events().filter((e) => e.type === "chat_response" && e.reasoning !== undefined);
    expect(reasoning).toHaveLength(3);
    for (const e of reasoning) expect(metadataOf(e)[REASONING_BINDING_KEY]).toBeDefined();
    // The safety net is asked for, with its beta header.
    const last = ws.mock.requests.at(-1)!;
    expect(last.headers["anthropic-beta"]).toContain("thinking-binding-controls-2026-08-01");
    expect(last.body.thinking).toMatchObject({ block_binding: { prefix_mismatch_behavior: "drop_block" } });
    expect(
      sdkTypeErrors(
        "anthropic-beta",
        ws.mock.requests.map((r) => r.body),
      ),
    ).toEqual([]);
  });

  it("a summary of turn 1 leaves its later reasoning out; two more questions go through untouched", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    const compact = await ws.jp("c", "compact", "--turn", "1", "--summary", "We said hello.");
    expect(compact.code).toBe(0);
    ws.mock.push(answer(4));
    const r = await ws.jp("q", "question 4");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("the reasoning of turns 2–3 is not sent back");
    // Turns 2 and 3 were written after turn 1 as it was: their prefix changed.
    expect(thinkingSent(ws)).toEqual([]);
    await ask(ws, 1, 5);
    // Turn 4's thinking was written after the summary: it goes back.
    expect(thinkingSent(ws)).toEqual(["thinking 4"]);
    expect(ws.mock.dropped).toEqual([]);
    expect(ws.mock.refusedForBinding).toBe(0);
    const last = ws.events().findLast((e) => e.type === "chat_response")!;
    expect(metadataOf(last)[REASONING_LEFT_OUT_KEY]).toEqual([
      { turn: 1, blocks: 1, reason: "history" },
      { turn: 2, blocks: 1, reason: "history" },
    ]);
  });

  it("stripping turn 1's reasoning keeps turns 2 and 3's: earlier thinking is no part of a prefix", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    const dry = await ws.jp("c", "compact", "--turn", "1", "-r", "--dry-run");
    expect(dry.stdout).not.toContain("Reasoning:");
    const compact = await ws.jp("c", "compact", "--turn", "1", "-r");
    expect(compact.code).toBe(0);
    ws.mock.push(answer(4));
    const next = await ws.jp("q", "question 4");
    expect(next.code).toBe(0);
    expect(next.stderr).not.toContain("not sent back");
    // The oldest block removed: the rest stays valid, and the server reads all of it.
    expect(thinkingSent(ws)).toEqual(["thinking 2", "thinking 3"]);
    expectAccepted(ws);
    await ask(ws, 1, 5);
    expect(thinkingSent(ws)).toEqual(["thinking 2", "thinking 3", "thinking 4"]);
    expectAccepted(ws);
  });

  it("stripping turn 2's reasoning is a gap: turn 3's stays out, turn 1's goes back", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    const dry = await ws.jp("c", "compact", "--turn", "2", "-r", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Reasoning: the thinking of turn 3 \(≈\d+ tokens\) stops going back/);
    const compact = await ws.jp("c", "compact", "--turn", "2", "-r");
    expect(compact.code).toBe(0);
    ws.mock.push(answer(4));
    const next = await ws.jp("q", "question 4");
    expect(next.code).toBe(0);
    expect(next.stderr).toContain("the reasoning of turn 3 is not sent back");
    expect(thinkingSent(ws)).toEqual(["thinking 1"]);
    expectAccepted(ws);
    const last = ws.events().findLast((e) => e.type === "chat_response")!;
    expect(metadataOf(last)[REASONING_LEFT_OUT_KEY]).toEqual([{ turn: 2, blocks: 1, reason: "order" }]);
    // Turn 4 was written after turn 1's thinking alone: it follows it.
    await ask(ws, 1, 5);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 4"]);
    expectAccepted(ws);
  });

  it("stripping turn 1's tool calls, then two more questions", async () => {
    const ws = await workspace(BIG_TOOL, [
      { reasoning: "a job for the tool", tool_calls: [{ id: "toolu_1", name: "big", arguments: {} }] },
      { reasoning: "that is a lot", text: "Plenty of data." },
    ]);
    const first = await ws.jp("q", "-t=big", "how much data is there?");
    expect(first.code).toBe(0);
    // Within the turn, the first thinking went back with the tool result.
    expect(thinkingSent(ws)).toEqual(["a job for the tool"]);
    await ask(ws, 1, 2);
    await compactThenAsk(ws, ["--turn", "1", "-t"], 3);
    // The thinking before the call saw nothing that changed; the rest came after the stripped result.
    expect(thinkingSent(ws)).toEqual(["a job for the tool", "thinking 3"]);
  });

  it("a generated summary keeping the last turn, then two more questions", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    ws.mock.push({ text: "Questions 1 and 2 were asked and answered." });
    await compactThenAsk(ws, ["--keep-last", "1", "--summarize"], 4);
    // Turn 1 is kept (keep_first = 1) and nothing before it changed; turn 3 is kept, but what came
    // before it changed: its thinking stays out; turn 4's goes back.
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 4"]);
  });

  it("a pinned turn inside a summarised range, then two more questions", async () => {
    const ws = await workspace();
    await ask(ws, 4);
    expect((await ws.jp("c", "pin", "--turn", "2")).code).toBe(0);
    await compactThenAsk(ws, ["--turn", "1..3", "--summary", "Questions 1 to 3."], 5);
    expect(thinkingSent(ws)).toEqual(["thinking 5"]);
  });

  it("--reset after a compaction brings back the reasoning written before it, then two more questions", async () => {
    const ws = await workspace();
    await ask(ws, 2);
    await compactThenAsk(ws, ["--turn", "1", "--summary", "Question 1."], 3);
    expect(thinkingSent(ws)).toEqual(["thinking 3"]);
    await compactThenAsk(ws, ["--reset"], 5);
    // The reset view is the one turns 1 and 2 were written in; turns 3 and 4 were written under the
    // summary; turn 5 after the reset, without them.
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 5"]);
  });

  it("a log bound by an older jp (no order, the history digested with thinking) continues: its blocks go back while nothing changed", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    bindAsOlderJp(ws);
    const older = ws.events().filter((e) => e.type === "chat_response" && e.reasoning !== undefined);
    for (const e of older) expect(metadataOf(e)[REASONING_BINDING_KEY]).not.toHaveProperty("order");
    await ask(ws, 2, 4);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3", "thinking 4"]);
    expectAccepted(ws);
    // What this jp writes records the order again.
    const newest = ws
      .events()
      .filter((e) => e.type === "chat_response" && e.reasoning !== undefined)
      .at(-1)!;
    expect(metadataOf(newest)[REASONING_BINDING_KEY]).toHaveProperty("order");
  });

  it("a tool offered for one question is added in the conversation: every earlier block goes back, then and after", async () => {
    const ws = await workspace(
      '[conversation.tools.extra]\nsource = "local"\nsummary = "Another tool"\ncommand = ["true"]\nenable = false\n',
    );
    await ask(ws, 2);
    const usual = ws.mock.requests.at(-1)!.body.tools;
    ws.mock.push(answer(3));
    const once = await ws.jp("q", "-t", "extra", "question 3");
    expect(once.code).toBe(0);
    expect(once.stderr).not.toContain("not sent back");
    const third = ws.mock.requests.at(-1)!;
    // The usual tools stay on top; the extra one is declared deferred and added where it is asked for.
    expect((third.body.tools as { name: string }[]).filter((t) => !("defer_loading" in t))).toEqual(usual);
    expect(third.body.tools).toContainEqual(expect.objectContaining({ name: "extra", defer_loading: true }));
    expect((third.body.messages as unknown[]).at(-1)).toEqual({
      role: "system",
      content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "extra" } }],
    });
    expect(third.headers["anthropic-beta"]).toContain("mid-conversation-tool-changes-2026-07-01");
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2"]);
    expectAccepted(ws);
    await ask(ws, 1, 4);
    // Back to the usual tools: withdrawn where the next question is asked, so turn 3's thinking stays valid.
    expect((ws.mock.requests.at(-1)!.body.messages as unknown[]).at(-1)).toEqual({
      role: "system",
      content: [{ type: "tool_removal", tool: { type: "tool_reference", name: "extra" } }],
    });
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3"]);
    await ask(ws, 1, 5);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3", "thinking 4"]);
    expectAccepted(ws);
    expect(
      sdkTypeErrors(
        "anthropic-beta",
        ws.mock.requests.map((r) => r.body),
      ),
    ).toEqual([]);
  });

  it("a question with tool use turned off (-T) keeps the tools declared and says tool_choice none: every earlier block goes back", async () => {
    const ws = await workspace(
      '[conversation.tools.extra]\nsource = "local"\nsummary = "Another tool"\ncommand = ["true"]\n',
    );
    await ask(ws, 2);
    const usual = ws.mock.requests.at(-1)!.body.tools;
    expect(usual).toContainEqual(expect.objectContaining({ name: "extra" }));
    ws.mock.push(answer(3));
    const off = await ws.jp("q", "-T", "question 3");
    expect(off.code).toBe(0);
    expect(off.stderr).not.toContain("not sent back");
    const third = ws.mock.requests.at(-1)!.body;
    // The docs: "to turn tool use off for a request, send `tool_choice: {"type": "none"}`. Don't remove `tools`."
    expect(third.tools).toEqual(usual);
    expect(third.tool_choice).toEqual({ type: "none" });
    expect((third.messages as { role: string }[]).some((m) => m.role === "system")).toBe(false);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2"]);
    expectAccepted(ws);
    await ask(ws, 1, 4);
    const fourth = ws.mock.requests.at(-1)!.body;
    expect(fourth.tools).toEqual(usual);
    expect(fourth.tool_choice).toEqual({ type: "auto" });
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3"]);
    expectAccepted(ws);
  });

  it("an MCP server whose tool list changed: the tools on top stay, the change is said in the conversation", async () => {
    const server = path.join(REPO_ROOT, "test/support/mcp-server.mjs");
    const ws = await workspace(
      [
        "[providers.mcp.bookworm]",
        'type = "stdio"',
        'command = "node"',
        `arguments = ${JSON.stringify([server])}`,
        "all_tools = true",
        '[conversation.tools."*"]',
        'run = "unattended"',
        "",
      ].join("\n"),
    );
    await ask(ws, 2);
    const first = toolNames(ws);
    // The server gained a tool since: its cached list, which jp offers from, says so.
    const cacheFile = path.join(mcpCacheDir(ws.env, ws.root), "bookworm.json");
    const cache = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as { tools: { name: string }[] };
    fs.writeFileSync(
      cacheFile,
      JSON.stringify({ ...cache, tools: [...cache.tools, { ...cache.tools[0]!, name: "new_tool" }] }),
    );
    ws.mock.push(answer(3));
    const third = await ws.jp("q", "question 3");
    expect(third.code).toBe(0);
    expect(third.stderr).not.toContain("not sent back");
    const body = ws.mock.requests.at(-1)!.body;
    const tools = body.tools as { name: string; defer_loading?: boolean }[];
    expect(tools.filter((t) => !t.defer_loading).map((t) => t.name)).toEqual(first);
    expect(tools).toContainEqual(expect.objectContaining({ name: "new_tool", defer_loading: true }));
    expect((body.messages as unknown[]).at(-1)).toEqual({
      role: "system",
      content: [{ type: "tool_addition", tool: { type: "tool_reference", name: "new_tool" } }],
    });
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2"]);
    expectAccepted(ws);
    await ask(ws, 1, 4);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3"]);
    expectAccepted(ws);
  });

  it("recall is offered from the first request, so the first compaction does not change the tools", async () => {
    const ws = await workspace();
    await ask(ws, 2);
    const before = toolNames(ws);
    expect(before).toContain("recall");
    await compactThenAsk(ws, ["--turn", "2", "-r"], 3);
    expect(toolNames(ws)).toEqual(before);
    // Turn 1 comes before the change: its thinking still goes back.
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 3"]);
  });

  it("automatic compaction inside a 30-step tool turn is the provider's: every step's thinking goes back, then two more questions", async () => {
    const steps: ScriptedResponse[] = [];
    for (let i = 0; i < 30; i++)
      steps.push({ reasoning: `step ${i}`, tool_calls: [{ id: `toolu_${i}`, name: "big", arguments: {} }] });
    steps.push({ reasoning: "all done", text: "Done with all the data." });
    // Outputs of about 600 tokens and a budget of 6,000: over it from the tenth step on.
    const ws = await workspace(
      `${BIG_TOOL.replace("2500", "600")}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 6000\n`,
      steps,
    );
    const result = await ws.jp("q", "-t=big", "process all the data");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the provider clears this turn's oldest tool results");
    // Nothing is stripped on jp's side: the log has no compaction, every request is the conversation whole.
    expect(ws.events().some((e) => e.type === "compaction")).toBe(false);
    const last = ws.mock.requests.at(-1)!;
    // The step in progress reads the thinking of every step before it, the kept steps' included.
    expect(thinkingSent(ws)).toEqual(Array.from({ length: 30 }, (_, i) => `step ${i}`));
    // What the server cleared for each request: the same results from one request to the next,
    // more only in bulk (at least clear_at_least, two results here), so the cached prefix is
    // rewritten a few times rather than at every step.
    const cleared = ws.mock.contextEdits.map((edits) => Number(edits[0]?.cleared_tool_uses ?? 0));
    const bulks = cleared.slice(1).flatMap((n, i) => (n === cleared[i] ? [] : [n - cleared[i]!]));
    expect(bulks.length).toBeGreaterThan(1);
    expect(bulks.length).toBeLessThanOrEqual(6);
    expect(bulks.every((step) => step >= 2)).toBe(true);
    // Cache breakpoints where the last two clearings end: the next clearing reads the prefix before it.
    const marked = (last.body.messages as { content: Record<string, unknown>[] }[]).flatMap((m) =>
      m.content.filter((b) => b.type === "tool_result" && b.cache_control).map((b) => b.tool_use_id),
    );
    const ends = [...new Set(cleared)].slice(-2).map((n) => `toolu_${n - 1}`);
    expect(marked).toEqual(expect.arrayContaining(ends));
    expect(last.body.context_management).toEqual({
      edits: [
        {
          type: "clear_tool_uses_20250919",
          trigger: { type: "input_tokens", value: 6000 },
          keep: { type: "tool_uses", value: 30 - cleared.at(-1)! },
          // min_saving's default, a fifth of the budget.
          clear_at_least: { type: "input_tokens", value: 1200 },
        },
      ],
    });
    expect(last.headers["anthropic-beta"]).toContain("context-management-2025-06-27");
    expectAccepted(ws);
    await ask(ws, 2, 1);
    expectAccepted(ws);
    expect(
      sdkTypeErrors(
        "anthropic-beta",
        ws.mock.requests.map((r) => r.body),
      ),
    ).toEqual([]);
  });

  it("a model whose Models API says it does not clear tool uses: automatic compaction strips them here, with no context_management", async () => {
    const steps: ScriptedResponse[] = [];
    for (let i = 0; i < 14; i++)
      steps.push({ reasoning: `step ${i}`, tool_calls: [{ id: `toolu_${i}`, name: "big", arguments: {} }] });
    steps.push({ reasoning: "all done", text: "Done with all the data." });
    const ws = await workspace(
      `${BIG_TOOL.replace("2500", "600")}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 6000\n`,
      steps,
    );
    ws.mock.models.set("claude-sonnet-5-5", SONNET_5_5("claude-sonnet-5-5", { noClearing: true }));
    const result = await ws.jp("q", "-t=big", "process all the data");
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("the provider clears");
    expect(ws.mock.requests.some((r) => r.body.context_management !== undefined)).toBe(false);
    expect(ws.events().some((e) => e.type === "compaction")).toBe(true);
  });

  it("compact --dry-run names the thinking a compaction stops sending back; print and show name what jp left out", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    const dry = await ws.jp("c", "compact", "--turn", "1", "--summary", "Question 1.", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(
      /Reasoning: the thinking of turns 2–3 \(≈\d+ tokens\) stops going back to the model, which reads it only while all before it is unchanged and no thinking between was left out; the log keeps it\./,
    );
    const json = JSON.parse(
      (await ws.jp("c", "compact", "--turn", "1", "--summary", "Question 1.", "--dry-run", "--json")).stdout,
    ) as { reasoning_lost: { turns: number[]; tokens: number } };
    expect(json.reasoning_lost.turns).toEqual([2, 3]);
    expect(json.reasoning_lost.tokens).toBeGreaterThan(0);
    // Stripping the last turn's reasoning changes nothing before any other block.
    const last = await ws.jp("c", "compact", "--turn", "3", "-r", "--dry-run");
    expect(last.stdout).not.toContain("Reasoning:");
    await compactThenAsk(ws, ["--turn", "1", "--summary", "Question 1."], 4);
    const print = await ws.jp("c", "print", "--compacted");
    expect(print.stdout).toContain(
      "Not sent: the reasoning of turns 2–3 is not sent back: what came before it changed (a compaction) (the log keeps it)",
    );
    const show = await ws.jp("c", "show");
    expect(show.stdout).toContain(
      "  reasoning:   the reasoning of turns 2–3 is not sent back: what came before it changed (a compaction) (the log keeps it)",
    );
    const context = await ws.jp("c", "show", "--context");
    expect(context.stdout).toContain(
      "Not sent: the reasoning of turns 2–3 is not sent back: what came before it changed (a compaction) (the log keeps it)",
    );
    const shown = JSON.parse((await ws.jp("c", "show", "--json")).stdout) as { reasoning: unknown };
    expect(shown.reasoning).toEqual({
      left_out: [
        { turn: 2, blocks: 1, reason: "history" },
        { turn: 3, blocks: 1, reason: "history" },
      ],
      dropped_by_provider: [],
    });
  });

  it.skipIf(!PTY_AVAILABLE)(
    "the compact tool's preview names the thinking it costs; its compaction is followed by two more questions",
    async () => {
      const ws = await workspace();
      await ask(ws, 3);
      ws.mock.push(
        {
          reasoning: "time to tidy",
          tool_calls: [
            {
              id: "toolu_compact",
              name: "compact",
              arguments: {
                rules: [{ before_quote: "question 3", summary: "Questions 1 and 2.", note: "Tidy up." }],
              },
            },
          ],
        },
        { text: "Recorded." },
      );
      const session = runInPty([JP, "q", "-u", "compact", "tidy up"], {
        cwd: ws.root,
        env: { ...ws.env, NO_COLOR: "1" },
      });
      await session.waitFor("Run compact? [y,n,r,e,?]");
      expect(session.output().replace(/\r/g, "")).toMatch(
        /thinking of turn 3 \(≈\d+ tokens\) stops going back to the model, which reads it only while all\s+before it is unchanged/,
      );
      session.type("y");
      expect(await session.exit).toBe(0);
      expect(ws.events().some((e) => e.type === "compaction")).toBe(true);
      expectAccepted(ws);
      await ask(ws, 2, 5);
      expectAccepted(ws);
      // Turn 5 was written with the summary in force: its thinking goes back.
      expect(thinkingSent(ws)).toEqual(["thinking 5"]);
    },
  );

  it("a summary the provider writes keeps a kept turn's thinking in the next requests", async () => {
    const ws = await workspace();
    await ask(ws, 3);
    ws.mock.push({ text: "Questions 1 and 2 were asked and answered." });
    await compactThenAsk(ws, ["--keep-first", "0", "--keep-last", "1", "--summarize"], 4);
    // The summary was asked of the conversation's own model, as its on-demand compaction.
    const asked = ws.mock.requests[3]!;
    expect(asked.body.compaction).toEqual({ type: "summarize" });
    expect(asked.headers["anthropic-beta"]).toContain("compact-2026-09-04");
    const compaction = ws.events().find((e) => e.type === "compaction")!;
    expect(compaction).toMatchObject({
      summary: {
        text: "Questions 1 and 2 were asked and answered.",
        source: "derived",
        model: MODEL,
        provider: { block: { type: "compaction" } },
      },
    });
    // It goes first, in place of turns 1 and 2; turn 3 was kept, and so is its thinking.
    const next = ws.mock.requests[4]!.body as unknown as Body;
    expect(next.messages[0]).toMatchObject({ role: "assistant", content: [{ type: "compaction" }] });
    expect(thinkingSent(ws, 4)).toEqual(["thinking 3"]);
    expect(thinkingSent(ws)).toEqual(["thinking 3", "thinking 4"]);
    // Every other model reads its text.
    const print = await ws.jp("c", "print", "--compacted");
    expect(print.stdout).toContain("Questions 1 and 2 were asked and answered.");
    expect(print.stdout).toContain(
      "── turns 1–2 (summary, generated by anthropic/claude-sonnet-5-5 as its own compaction block, user compaction)",
    );
  });

  it("with provider_summaries = false, jp writes the summary and the kept turn's thinking stays out", async () => {
    const ws = await workspace("[conversation.compaction]\nprovider_summaries = false\n");
    await ask(ws, 3);
    ws.mock.push({ text: "Questions 1 and 2." });
    await compactThenAsk(ws, ["--keep-first", "0", "--keep-last", "1", "--summarize"], 4);
    expect(ws.mock.requests[3]!.body).not.toHaveProperty("compaction");
    expect(thinkingSent(ws, 4)).toEqual([]);
  });

  it("automatic compaction has the provider write its summary of earlier turns", async () => {
    const steps = (n: number, tag: string): ScriptedResponse[] => [
      ...Array.from({ length: n }, (_, i) => ({
        reasoning: `${tag} step ${i}`,
        tool_calls: [{ id: `toolu_${tag}_${i}`, name: "big", arguments: {} }],
      })),
      { reasoning: `${tag} done`, text: `Done with ${tag}.` },
    ];
    const ws = await workspace(
      `${BIG_TOOL}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 20000\n\n[conversation.compaction.auto.rule.summary]\ninstructions = "Summarise the earlier turns."\n`,
      [...steps(4, "first"), ...steps(30, "second")],
      // The summary request is the provider's on-demand compaction.
      (body) => (body.compaction ? { text: "Earlier, the first batch was processed." } : undefined),
    );
    expect((await ws.jp("q", "-t=big", "first batch")).code).toBe(0);
    const second = await ws.jp("q", "-t=big", "second batch");
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/context compacted: .*turns 1–1 summarized/);
    const summary = ws.events().find((e) => e.type === "compaction" && e.summary);
    expect(summary).toMatchObject({
      source: "auto",
      summary: {
        text: "Earlier, the first batch was processed.",
        provider: { block: { type: "compaction" } },
      },
    });
    expect(ws.mock.requests.some((r) => r.body.compaction !== undefined)).toBe(true);
    expectAccepted(ws);
    await ask(ws, 2, 1);
    expectAccepted(ws);
  });

  it("refused: with prefix_mismatch = error, a block jp could not judge is refused, and jp asks again without it", async () => {
    const ws = await workspace('prefix_mismatch = "error"\n');
    await ask(ws, 2);
    changeBehindJp(ws);
    ws.mock.push(answer(3));
    const r = await ws.jp("q", "question 3");
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      "refused earlier reasoning as bound to a different conversation; asking again",
    );
    expect(ws.mock.refusedForBinding).toBe(1);
    expect(thinkingSent(ws)).toEqual([]);
    expect(ws.mock.requests.at(-1)!.body.thinking).not.toHaveProperty("block_binding");
    // The next question sends turn 3's thinking, written without the others, and nothing is refused.
    await ask(ws, 1, 4);
    expect(ws.mock.refusedForBinding).toBe(1);
  });

  it("drop_block: the provider's input_transformations are recorded with the answer", async () => {
    const ws = await workspace();
    await ask(ws, 2);
    changeBehindJp(ws);
    ws.mock.push(answer(3));
    const r = await ws.jp("q", "question 3");
    expect(r.code).toBe(0);
    expect(ws.mock.dropped).toEqual([
      { path: "messages.3.content.0", reason: "prefix_binding_mismatch", request: 3 },
    ]);
    const last = ws.events().findLast((e) => e.type === "chat_response")!;
    expect(metadataOf(last)[INPUT_TRANSFORMATIONS_KEY]).toEqual([
      { type: "thinking_dropped", path: "messages.3.content.0", reason: "prefix_binding_mismatch" },
    ]);
    const show = await ws.jp("c", "show");
    expect(show.stdout).toContain(
      "  dropped:     the provider dropped 1 thinking block from the requests of turn 3 (prefix_binding_mismatch)",
    );
    const print = await ws.jp("c", "print", "--compacted");
    expect(print.stdout).toContain(
      "Dropped: the provider dropped 1 thinking block from the requests of turn 3 (prefix_binding_mismatch)",
    );
  });
});

describe("a conversation moved to another Claude model", () => {
  it("from Opus 5.5 to Fable 5.1 sends the Opus thinking, which Fable reads; back on Opus, the server drops Fable's and jp says so", async () => {
    w = await qWorkspace({ model: "anthropic/claude-opus-5-5", extraConfig: THINKING });
    const ws = w;
    await ask(ws, 2);
    ws.mock.push(answer(3));
    const moved = await ws.jp("q", "-m", "anthropic/claude-fable-5-1", "question 3");
    expect(moved.code).toBe(0);
    expect(ws.mock.requests.at(-1)!.body.model).toBe("claude-fable-5-1");
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2"]);
    expectAccepted(ws);
    // Opus 5.5 cannot read Fable 5.1's thinking: jp sends it all the same, the API drops it.
    ws.mock.push(answer(4));
    const back = await ws.jp("q", "-m", "anthropic/claude-opus-5-5", "question 4");
    expect(back.code).toBe(0);
    expect(thinkingSent(ws)).toEqual(["thinking 1", "thinking 2", "thinking 3"]);
    expect(ws.mock.refusedForBinding).toBe(0);
    expect(ws.mock.dropped).toEqual([
      { path: "messages.5.content.0", reason: "model_binding_mismatch", request: 4 },
    ]);
    const show = await ws.jp("c", "show");
    expect(show.stdout).toContain(
      "the provider dropped 1 thinking block from the requests of turn 4 (model_binding_mismatch)",
    );
  });
});

describe("preserved reasoning on the Responses API", () => {
  it("records the reasoning items OpenAI removed for a changed prefix, and show names them", async () => {
    const ws = await qWorkspace({ provider: "openai", api: "responses" });
    w = ws;
    ws.mock.push({ reasoning: "first thoughts", text: "one" });
    expect((await ws.jp("q", "question 1")).code).toBe(0);
    const removed = { type: "reasoning", action: "removed", id: "rs_mock_0", reason: "prefix_mismatch" };
    ws.mock.push({ text: "two", input_transformations: [removed] });
    expect((await ws.jp("q", "question 2")).code).toBe(0);
    const last = ws.events().findLast((e) => e.type === "chat_response")!;
    expect(metadataOf(last)[INPUT_TRANSFORMATIONS_KEY]).toEqual([removed]);
    const show = await ws.jp("c", "show");
    expect(show.stdout).toContain(
      "  dropped:     the provider dropped 1 thinking block from the requests of turn 2 (prefix_mismatch)",
    );
  });
});

describe("conversations written before jp recorded what reasoning is bound to", () => {
  it("the bundled sample (a JP-style log) continues on a model with preserved thinking, with or without a compaction", async () => {
    const ws = await sampleWorkspace({ model: MODEL, extraConfig: THINKING });
    w = ws;
    ws.mock.push(answer(5));
    const first = await ws.jp("q", "and now?");
    expect(first.code).toBe(0);
    expect(ws.mock.refusedForBinding).toBe(0);
    expect((await ws.jp("c", "compact")).code).toBe(0);
    ws.mock.push(answer(6));
    const second = await ws.jp("q", "and then?");
    expect(second.code).toBe(0);
    expect(ws.mock.refusedForBinding).toBe(0);
    // Turn 5's thinking came after the turns the default rule stripped: it stays out, and that is said.
    // The sample's own thinking (turn 1, kept whole, before any change) has no record of what it is
    // bound to, but nothing before it changed: it goes back.
    expect(second.stderr).toContain(
      "the reasoning of turn 5 is not sent back to anthropic/claude-sonnet-5-5: what came before it changed (a compaction)",
    );
    expect(second.stderr).not.toContain("jp has no record");
    expect(thinkingSent(ws).length).toBeGreaterThan(0);
    expect(thinkingSent(ws)).not.toContain("thinking 5");
  });
});
