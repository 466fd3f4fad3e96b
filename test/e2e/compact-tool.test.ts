// The compact tool end to end: real bin/jp in a pseudo-terminal, the mock LLM scripted to call it.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScript, withoutCacheMarkers } from "../support/mock-llm.js";
import { SONNET_5_5 } from "../support/model-info.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { SAMPLE_CONVERSATION, sampleWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT, runCli, tempDir } from "../support/workspace.js";
import { anyNumber, objectContaining } from "../support/matchers.js";
import type { ShownConversation } from "../support/conversation.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const SAMPLE = SAMPLE_CONVERSATION;
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function withSample(script = loadScript("compact-call")) {
  w = await sampleWorkspace({ script });
  return w;
}

type Message = { role: string; content: { type: string; text?: string; content?: string }[] };
// The breakpoint on the newest message moves forward each request; the content is what must stay.
const messages = (n: number) =>
  withoutCacheMarkers(w!.mock.requests[n]!.body as unknown as { messages: Message[] }).messages;
// eslint-disable-next-line no-control-regex -- strips terminal colour codes
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "");

/** What `jp conversation show --json` lists of the workspace's conversation. */
async function shownConversation(): Promise<ShownConversation> {
  const result = await runCli(["c", "show", "--json"], { cwd: w!.root, env: w!.env });
  return JSON.parse(result.stdout) as ShownConversation;
}

/** The preview of the scripted compact call, self-sufficient: the rule, the summary as written, the figures, the note, and the private file of what is dropped; returns that file. */
function expectSelfSufficientPreview(screen: string): string {
  expect(screen).toContain("compact — 1 rule proposed");
  expect(screen).toMatch(/1\. turns 1–3 → the assistant's summary \(31 words\)/);
  // The summary itself is shown, wrapped, so what is approved is what was read.
  const script = JSON.parse(
    fs.readFileSync(path.join(REPO_ROOT, "fixtures/llm/compact-call.json"), "utf8"),
  ) as { responses: { tool_calls: { arguments: { rules: { summary: string }[] } }[] }[] };
  const summary = script.responses[0]!.tool_calls[0]!.arguments.rules[0]!.summary;
  const shownSummary = [...screen.matchAll(/^ +│ ?(.*)$/gm)].map((m) => m[1]!.trim()).join(" ");
  expect(shownSummary.replace(/\s+/g, " ")).toBe(summary.replace(/\s+/g, " ").trim());
  // The call line is printed once, without the raw JSON of the arguments.
  expect(screen.match(/⚙ compact/g)).toHaveLength(1);
  expect(screen).not.toContain('{"rules"');
  expect(screen).not.toContain("Recorded compactions take effect");
  expect(screen).toMatch(/tokens +≈[\d,]+ → ≈[\d,]+ for the next request/);
  expect(screen).toContain(
    'from     "The CSV parser in src/csv.ts chokes on quoted fields with commas. Can …"',
  );
  expect(screen).toContain('to       "Fixed: the helper no longer trims lines, and all 6 CSV tests pass."');
  expect(screen).toContain("why      The parser work is finished and its code is on disk.");
  const spill = /dropped +(\S+\.md)/.exec(screen)![1]!;
  expect(fs.statSync(spill).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(spill, "utf8")).toContain("tool result run_tests call_3 error");
  return spill;
}

describe("jp q -u compact", () => {
  it.skipIf(!PTY_AVAILABLE)(
    "previews, records deferred compactions on y, keeps this turn's prefix, and applies them next turn",
    async () => {
      await withSample();
      const session = runInPty([JP, "q", "-u", "compact", "summarize everything except the current task"], {
        cwd: w!.root,
        env: { ...w!.env, NO_COLOR: "1" },
      });
      await session.waitFor("Run compact? [y,n,r,e,?]");
      const spill = expectSelfSufficientPreview(plain(session.output()));
      session.type("y");
      expect(await session.exit).toBe(0);
      // What was approved keeps the file its preview named.
      expect(fs.existsSync(spill)).toBe(true);

      // The request after the call is built from the same prefix as the one before it.
      const before = JSON.stringify(messages(0));
      const after = JSON.stringify(messages(1));
      expect(after.startsWith(before.slice(0, -1))).toBe(true);

      const shown = await shownConversation();
      expect(shown.compactions).toEqual([
        objectContaining({
          from: 1,
          to: 3,
          source: "assistant",
          state: "deferred until turn 6",
          note: "The parser work is finished and its code is on disk.",
          summary: objectContaining({ source: "supplied", author: "assistant" }),
        }),
      ]);
      // The compaction is appended right after the tool's response, in the same group.
      const log = fs
        .readFileSync(path.join(w!.root, ".jp/conversations", path.basename(SAMPLE), "events.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; id?: string });
      const at = log.findIndex((e) => e.type === "tool_call_response" && e.id === "toolu_compact_1");
      expect(log[at + 1]).toMatchObject({
        type: "compaction",
        source: "assistant",
        deferred_until_turn: 5,
        stats: { tokens_before: anyNumber },
        metadata: { spill_file: spill },
      });

      const compacted = (await runCli(["c", "print", "--compacted"], { cwd: w!.root, env: w!.env })).stdout;
      expect(compacted).toMatch(
        /Deferred: #1 k\w+ by assistant, turns 1–3, takes effect at turn 6 — The parser work is finished/,
      );
      const raw = (await runCli(["c", "print"], { cwd: w!.root, env: w!.env })).stdout;
      expect(raw).toMatch(
        /· compaction k\w+ of turns 1–3 by assistant \(summary, deferred until turn 6\) — The parser work is finished/,
      );

      await runCli(["q", "go on"], { cwd: w!.root, env: w!.env });
      const next = messages(2);
      expect(next[0]).toEqual({
        role: "user",
        content: [
          {
            type: "text",
            text: '[Summary of previous conversation: turns 1-3; recall {"turns":"1-3"} reads them]',
          },
        ],
      });
      // The summarised turns' answers are gone; the user's words are in the record of the work.
      expect(JSON.stringify(next)).not.toContain("needs a small state machine");
      expect(JSON.stringify(next)).toContain("[Record of the work in turns 1-3");
      expect(JSON.stringify(next)).toContain("Now add support for a custom delimiter");
    },
  );

  it.skipIf(!PTY_AVAILABLE)("records nothing on n and tells the model", async () => {
    await withSample();
    const session = runInPty([JP, "q", "-u", "compact", "compact please"], { cwd: w!.root, env: w!.env });
    await session.waitFor("Run compact? [y,n,r,e,?]");
    session.type("n");
    expect(await session.exit).toBe(0);
    expect(JSON.stringify(messages(1).at(-1))).toContain(
      "the user declined the proposed compaction; nothing was recorded",
    );
    const shown = await shownConversation();
    expect(shown.compactions).toEqual([]);
  });

  it.skipIf(!PTY_AVAILABLE)("records nothing on r and sends the model the reason typed", async () => {
    await withSample();
    const session = runInPty([JP, "q", "-u", "compact", "compact please"], { cwd: w!.root, env: w!.env });
    await session.waitFor("Run compact? [y,n,r,e,?]");
    session.type("r");
    await session.waitFor("Reason (sent to the assistant):");
    session.type("keep the parser turns\r");
    expect(await session.exit).toBe(0);
    expect(JSON.stringify(messages(1).at(-1))).toContain(
      "the user declined the proposed compaction: keep the parser turns; nothing was recorded",
    );
    const shown = await shownConversation();
    expect(shown.compactions).toEqual([]);
  });

  it.skipIf(!PTY_AVAILABLE)("records the edited summary on e", async () => {
    await withSample();
    const editor = path.join(tempDir(), "editor.sh");
    fs.writeFileSync(editor, `#!/bin/sh\nsed -i 's/all 6 CSV tests pass/EDITED BY THE USER/' "$1"\n`, {
      mode: 0o755,
    });
    const session = runInPty([JP, "q", "-u", "compact", "compact please"], {
      cwd: w!.root,
      env: { ...w!.env, EDITOR: editor },
    });
    const first = await session.waitFor("Run compact? [y,n,r,e,?]");
    session.type("e");
    await session.waitFor("Run compact? [y,n,r,e,?]", first);
    session.type("y");
    expect(await session.exit).toBe(0);
    const shown = await shownConversation();
    expect(shown.compactions[0]?.summary?.text).toContain("EDITED BY THE USER");
  });

  it("declines cleanly without a terminal", async () => {
    await withSample();
    const result = await runCli(["q", "-u", "compact", "compact please"], { cwd: w!.root, env: w!.env });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "the compact tool needs your approval, but there is no terminal to ask on; nothing was compacted.",
    );
    const shown = await shownConversation();
    expect(shown.compactions).toEqual([]);
  });
});

describe("jp q -u compact on a model that refuses forced tool use", () => {
  it.skipIf(!PTY_AVAILABLE)(
    "asks for the tool instead, asks again firmly when the first answer does not call it, and completes the compaction",
    async () => {
      const [call, ...rest] = loadScript("compact-call");
      await withSample([{ text: "Let me think about what to keep first." }, call!, ...rest]);
      w!.mock.models.set("claude-sonnet-5-5", SONNET_5_5());
      const session = runInPty(
        [
          JP,
          "q",
          "-m",
          "anthropic/claude-sonnet-5-5",
          "-u",
          "compact",
          "summarize everything except the current task",
        ],
        { cwd: w!.root, env: { ...w!.env, NO_COLOR: "1" } },
      );
      await session.waitFor("Run compact? [y,n,r,e,?]");
      expect(plain(session.output())).toContain(
        "anthropic/claude-sonnet-5-5 answered without calling compact; asking again, more firmly",
      );
      session.type("y");
      expect(await session.exit).toBe(0);
      const [gentle, firm, after] = w!.mock.requests.map((r) => withoutCacheMarkers(r.body));
      // Sonnet 5.5 returns an error for a forced tool_choice: the tool is offered and asked for with the
      // question, never in the system prompt, which stays as every earlier thinking block saw it.
      for (const body of [gentle!, firm!]) expect(body.tool_choice).toEqual({ type: "auto" });
      const question = (body: Record<string, unknown>) => {
        const messages = body.messages as { role: string; content: { type: string; text?: string }[] }[];
        return JSON.stringify(messages.findLast((m) => m.content.some((b) => b.type === "text"))!.content);
      };
      expect(question(gentle!)).toContain("summarize everything except the current task");
      expect(question(gentle!)).toContain("Call `compact` now");
      expect(question(firm!)).toContain("you MUST call the tool `compact`");
      for (const body of [gentle!, firm!]) expect(JSON.stringify(body.system)).not.toContain("compact` now");
      // The question goes on as it was first asked: the next request only appends to it.
      const messages = (after!.messages as { content: { type: string; text?: string }[] }[]).map((m) =>
        JSON.stringify(m.content),
      );
      expect(messages.some((m) => m.includes("Call `compact` now"))).toBe(true);
      // The answer that did not call it was not recorded: the log holds the call and the compaction.
      const events = fs.readFileSync(
        path.join(w!.root, ".jp/conversations", path.basename(SAMPLE), "events.jsonl"),
        "utf8",
      );
      expect(events).not.toContain("Let me think about what to keep first.");
      expect((await shownConversation()).compactions).toEqual([
        objectContaining({ from: 1, to: 3, source: "assistant" }),
      ]);
    },
  );
});
