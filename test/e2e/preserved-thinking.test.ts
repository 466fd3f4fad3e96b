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
import type { ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { sdkTypeErrors } from "../support/sdk-types.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const MODEL = "anthropic/claude-sonnet-5-5";
const THINKING = '[assistant.reasoning]\neffort = "medium"\n';

/** An answer that thinks first. */
const answer = (n: number): ScriptedResponse => ({ reasoning: `thinking ${n}`, text: `answer ${n}` });

async function workspace(extraConfig = "", script: ScriptedResponse[] = []): Promise<QWorkspace> {
  w = await qWorkspace({ model: MODEL, extraConfig: THINKING + extraConfig, script });
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
  });
});
