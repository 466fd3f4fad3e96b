// Summaries the provider writes itself (Anthropic's on-demand compaction),
// through the real bin/jp and a local server that plays the documented rules
// (test/support/compaction-rules.ts): the beta header on every request that
// carries the block, the block first and alone, its cost in usage.iterations,
// the Models API's `capabilities.compaction`, and the errors and missing
// summaries after which jp writes the summary itself.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const MODEL = "anthropic/claude-sonnet-5-5";
const JP = path.join(REPO_ROOT, "bin/jp");
const BETA = "compact-2026-09-04";
const THINKING = '[assistant.reasoning]\neffort = "medium"\n';

const answer = (n: number): ScriptedResponse => ({ reasoning: `thinking ${n}`, text: `answer ${n}` });

async function workspace(extraConfig = ""): Promise<QWorkspace> {
  w = await qWorkspace({ model: MODEL, extraConfig: THINKING + extraConfig });
  return w;
}

/** Ask `count` questions, each answered; every one must succeed. */
async function ask(ws: QWorkspace, count: number, from: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    ws.mock.push(answer(from + i));
    const r = await ws.jp("q", `question ${from + i}`);
    expect(r.stderr).not.toMatch(/error/);
    expect(r.code).toBe(0);
  }
}

type Block = { type: string };
const blocksOf = (body: Record<string, unknown>): Block[] =>
  ((body.messages as { content: Block[] | string }[] | undefined) ?? []).flatMap((m) =>
    typeof m.content === "string" ? [] : m.content,
  );

/** The requests that carried a compaction block, with the betas each named. */
function carrying(ws: QWorkspace): string[][] {
  return ws.mock.requests
    .filter((r) => blocksOf(r.body).some((b) => b.type === "compaction"))
    .map((r) => String(r.headers["anthropic-beta"] ?? "").split(","));
}

interface Shown {
  usage: { input_tokens: number; output_tokens: number };
  estimated_cost_usd: number;
}
async function shown(ws: QWorkspace): Promise<Shown> {
  return JSON.parse((await ws.jp("c", "show", "--json")).stdout) as Shown;
}

describe("summaries the provider writes", () => {
  it("compact --summarize from turn 1: the next two questions carry the block with its beta header, and show bills usage.iterations", async () => {
    const ws = await workspace();
    await ask(ws, 3, 1);
    const before = await shown(ws);
    ws.mock.push({ text: "Questions 1 and 2 were asked and answered.", usage: { input: 4000, output: 300 } });
    const compact = await ws.jp("c", "compact", "--keep-first", "0", "--keep-last", "1", "--summarize");
    expect(compact.stderr).not.toMatch(/error|warning/);
    expect(compact.code).toBe(0);
    const compaction = ws.events().find((e) => e.type === "compaction")!;
    // The block records what every request carrying it needs, and the cost the provider reported.
    expect(compaction).toMatchObject({
      summary: { provider: { block: { type: "compaction" }, betas: [BETA] } },
      metadata: { model: MODEL, usage: { input_tokens: 4000, output_tokens: 300 } },
    });
    const after = await shown(ws);
    expect(after.usage.input_tokens - before.usage.input_tokens).toBe(4000);
    expect(after.usage.output_tokens - before.usage.output_tokens).toBe(300);
    expect(after.estimated_cost_usd).toBeGreaterThan(before.estimated_cost_usd);
    await ask(ws, 2, 4);
    // Both later requests carried the block, first and alone, with the header.
    expect(carrying(ws)).toHaveLength(2);
    for (const betas of carrying(ws)) expect(betas).toContain(BETA);
    for (const r of ws.mock.requests.slice(-2)) {
      const blocks = blocksOf(r.body);
      expect(blocks[0]!.type).toBe("compaction");
      expect(blocks.filter((b) => b.type === "compaction")).toHaveLength(1);
    }
  });

  it.skipIf(!PTY_AVAILABLE)(
    "the compact tool after a provider's summary: its compaction is recorded, and the next two questions carry the block with its header",
    async () => {
      const ws = await workspace();
      await ask(ws, 3, 1);
      ws.mock.push({ text: "Questions 1 and 2 were asked and answered." });
      expect((await ws.jp("c", "compact", "--keep-first", "0", "--keep-last", "1", "--summarize")).code).toBe(
        0,
      );
      ws.mock.push(
        {
          reasoning: "turn 3 is done",
          tool_calls: [
            {
              id: "toolu_compact_1",
              name: "compact",
              arguments: {
                rules: [
                  {
                    before_quote: "question 4",
                    reasoning: "strip",
                    note: "Its thinking is no longer needed.",
                  },
                ],
              },
            },
          ],
        },
        { reasoning: "recorded", text: "Recorded." },
      );
      // The user approves the compact tool's preview, as at a terminal.
      const session = runInPty([JP, "q", "-u", "compact", "question 4"], {
        cwd: ws.root,
        env: { ...ws.env, NO_COLOR: "1" },
      });
      await session.waitFor("Run compact? [y,n,r,e,?]");
      session.type("y");
      expect(await session.exit).toBe(0);
      const compactions = ws.events().filter((e) => e.type === "compaction");
      expect(compactions).toHaveLength(2);
      expect(compactions[1]).toMatchObject({ source: "assistant", reasoning: "strip" });
      await ask(ws, 2, 5);
      // Every request since the summary carried the block, with the header.
      expect(carrying(ws)).toHaveLength(4);
      for (const betas of carrying(ws)) expect(betas).toContain(BETA);
    },
  );

  it("a log whose block was recorded without its betas still continues: the header is inferred", async () => {
    const ws = await workspace();
    await ask(ws, 2, 1);
    ws.mock.push({ text: "Question 1 was asked." });
    expect((await ws.jp("c", "compact", "--keep-first", "0", "--keep-last", "1", "--summarize")).code).toBe(
      0,
    );
    // As an older jp wrote it: the block without the record of its beta.
    const log = path.join(ws.folder(), "events.jsonl");
    const lines = fs.readFileSync(log, "utf8").trimEnd().split("\n");
    const older = lines.map((line) => {
      const e = JSON.parse(line) as { type: string; summary?: { provider?: Record<string, unknown> } };
      if (e.type === "compaction" && e.summary?.provider) delete e.summary.provider.betas;
      return JSON.stringify(e);
    });
    expect(older.join("\n")).not.toContain('"betas"');
    fs.writeFileSync(log, older.join("\n") + "\n");
    await ask(ws, 2, 3);
    expect(carrying(ws)).toHaveLength(2);
    for (const betas of carrying(ws)) expect(betas).toContain(BETA);
  });

  it("a model whose Models API lists compaction as unsupported gets jp's summary, and jp says so", async () => {
    const ws = await workspace();
    ws.mock.models.set("claude-sonnet-5-5", {
      type: "model",
      id: "claude-sonnet-5-5",
      display_name: "Claude Sonnet 5.5",
      created_at: "2026-09-01T00:00:00Z",
      capabilities: { compaction: { supported: false } },
    });
    await ask(ws, 2, 1);
    ws.mock.push({ text: "Question 1 was asked (jp's summary)." });
    const compact = await ws.jp("c", "compact", "--keep-first", "0", "--keep-last", "1", "--summarize");
    expect(compact.code).toBe(0);
    expect(compact.stderr).toContain(
      "anthropic/claude-sonnet-5-5 does not write summaries itself (its Models API lists on-demand compaction as unsupported): jp writes the summary itself",
    );
    // The Models API was asked with the beta header, which is what makes it say.
    expect(ws.mock.modelRequests.at(-1)!.headers["anthropic-beta"]).toContain(BETA);
    expect(ws.mock.requests.some((r) => r.body.compaction !== undefined)).toBe(false);
    expect(ws.events().find((e) => e.type === "compaction")).toMatchObject({
      summary: { text: "Question 1 was asked (jp's summary)." },
    });
    await ask(ws, 2, 3);
    expect(carrying(ws)).toEqual([]);
  });

  it.each([
    ["no summary came back (a 200 with empty content, stop_reason max_tokens)", { stop: "max_tokens" }],
    [
      "the API refused with compaction_nothing_to_summarize",
      {
        fault: {
          status: 400,
          error_code: "compaction_nothing_to_summarize",
          message: "There is nothing to summarize.",
        },
      },
    ],
  ] as [string, ScriptedResponse][])("%s: jp writes the summary itself and says so", async (_, refusal) => {
    const ws = await workspace();
    await ask(ws, 2, 1);
    ws.mock.push(refusal, { text: "Question 1 was asked (jp's summary)." });
    const compact = await ws.jp("c", "compact", "--keep-first", "0", "--keep-last", "1", "--summarize");
    expect(compact.code).toBe(0);
    expect(compact.stderr).toMatch(/anthropic\/claude-sonnet-5-5 .*: jp writes the summary itself/);
    expect(ws.events().find((e) => e.type === "compaction")).toMatchObject({
      summary: { text: "Question 1 was asked (jp's summary)." },
    });
    expect(ws.events().find((e) => e.type === "compaction")).not.toHaveProperty("summary.provider");
    await ask(ws, 2, 3);
  });
});
