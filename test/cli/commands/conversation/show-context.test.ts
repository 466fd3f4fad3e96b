// `jp conversation show --context`: what the next request holds, part by part.
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PTY_AVAILABLE, runInPty } from "../../../support/pty.js";
import { sampleWorkspace, type QWorkspace } from "../../../support/q-workspace.js";
import { REPO_ROOT } from "../../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

interface ContextJson {
  total: number;
  window?: number;
  parts: { part: string; tokens: number; items: number }[];
  largest: { part: string; where: string; what: string; tokens: number }[];
  items: { part: string; where: string; what: string; tokens: number }[];
}

async function sample(extraConfig = "") {
  w = await sampleWorkspace({ extraConfig });
  return w;
}

const context = async () =>
  JSON.parse((await w!.jp("c", "show", "--context", "--json")).stdout) as ContextJson;

describe("jp conversation show --context", () => {
  it("gives every part of the next request with tokens; the parts sum to the total, and the items to each part", async () => {
    await sample('[models."anthropic/claude-sonnet-5-5"]\ncontext_window = 4000\n');
    const shown = await context();
    expect(shown.window).toBe(4000);
    expect(shown.parts.map((p) => p.part)).toEqual([
      "system prompt",
      "tool definitions",
      "user",
      "assistant",
      "reasoning",
      "tool calls",
      "tool outputs",
      "summaries",
      "records",
    ]);
    expect(shown.parts.reduce((n, p) => n + p.tokens, 0)).toBe(shown.total);
    for (const p of shown.parts)
      expect(shown.items.filter((i) => i.part === p.part).reduce((n, i) => n + i.tokens, 0)).toBe(p.tokens);
    // The workspace's count_words tool is offered, and recall, which `jp q` offers this model from
    // the first request (it binds its reasoning to the tools); the sample's four turns are all there.
    expect(shown.items.filter((i) => i.part === "tool definitions").map((i) => i.what)).toEqual([
      "recall",
      "count_words",
    ]);
    expect(new Set(shown.items.filter((i) => i.part === "user").map((i) => i.where))).toEqual(
      new Set(["turn 1", "turn 2", "turn 3", "turn 4"]),
    );
    // The recall tool's definition is the largest item, then the sample's largest tool call.
    expect(shown.largest[0]).toMatchObject({ part: "tool definitions", what: "recall" });
    expect(shown.largest[1]).toMatchObject({
      part: "tool calls",
      where: "turn 2",
      what: "write_file call_2",
    });
    expect(shown.largest[0]!.tokens).toBe(Math.max(...shown.items.map((i) => i.tokens)));
  });

  it("says the request compact's dry run counts: one number, before the compaction and after it", async () => {
    await sample('[assistant]\nsystem_prompt = "You help with a CSV parser written in TypeScript."\n');
    const dry = JSON.parse(
      (
        await w!.jp(
          "c",
          "compact",
          "--turn",
          "1..2",
          "--summary",
          "CSV parser rewritten.",
          "--dry-run",
          "--json",
        )
      ).stdout,
    ) as { tokens: { before: number; after: number } };
    const before = await context();
    expect(before.parts.find((p) => p.part === "system prompt")!.tokens).toBeGreaterThan(0);
    expect(before.parts.find((p) => p.part === "tool definitions")!.tokens).toBeGreaterThan(0);
    expect(dry.tokens.before).toBe(before.total);
    await w!.jp("c", "compact", "--turn", "1..2", "--summary", "CSV parser rewritten.");
    // After it, recall is offered too: the dry run counted it.
    expect(dry.tokens.after).toBe((await context()).total);
  });

  it("shows a summary as its own part, and recall among the tools once a compaction is in effect", async () => {
    await sample();
    const before = await context();
    await w!.jp(
      "c",
      "compact",
      "--turn",
      "1..2",
      "--summary",
      "The CSV parser was rewritten as a state machine.",
    );
    const after = await context();
    expect(after.parts.find((p) => p.part === "summaries")!.tokens).toBeGreaterThan(0);
    expect(after.items.find((i) => i.part === "summaries")).toMatchObject({
      where: "turns 1–2",
      what: "summary",
    });
    expect(after.items.filter((i) => i.part === "tool definitions").map((i) => i.what)).toContain("recall");
    // The sample's model binds its reasoning to the tools, so `jp q` offers recall from the first request: counted before too.
    expect(before.items.filter((i) => i.part === "tool definitions").map((i) => i.what)).toContain("recall");
    // The record of the work of the summarised turns is a part of its own.
    expect(after.items.find((i) => i.part === "records")).toMatchObject({ what: "record of the work" });
    expect(after.total).toBeLessThan(before.total + 200);
  });

  it.skipIf(!PTY_AVAILABLE)(
    "draws each part's share of the window as a bar on a terminal, and none in a pipe",
    async () => {
      await sample('[models."anthropic/claude-sonnet-5-5"]\ncontext_window = 2000\n');
      const session = runInPty([JP, "c", "show", "--context"], {
        cwd: w!.root,
        env: { ...w!.env, NO_COLOR: "1" },
      });
      expect(await session.exit).toBe(0);
      const screen = session.output();
      expect(screen).toMatch(/of the 2,000-token window of anthropic\/claude-sonnet-5-5/);
      expect(screen).toMatch(/^ {2}tool calls +≈[\d,]+ +[\d.]+% +█+/m);
      const piped = (await w!.jp("c", "show", "--context")).stdout;
      expect(piped).not.toContain("█");
      expect(piped).toMatch(/^Largest:$/m);
    },
  );
});
