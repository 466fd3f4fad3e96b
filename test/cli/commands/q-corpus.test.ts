// Every recorded JP conversation, once imported, can be continued with `jp q`:
// its recorded config cannot stop the turn, and the request sent is valid.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkProviderView, describeViewProblem, project } from "../../../src/compaction/index.js";
import { findJpConversations } from "../../../src/store/import-jp.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { FIXTURES_DIR } from "../../support/workspace.js";

const present = fs.existsSync(FIXTURES_DIR);
if (!present) console.warn(`corpus continuation tests skipped: ${FIXTURES_DIR} is absent`);

type Block = { type: string; id?: string; tool_use_id?: string };
type Message = { role: string; content: string | Block[] };

/** Anthropic's rule: each tool_use is answered by a tool_result in the next message, and only then. */
function pairingProblems(messages: Message[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const blocks = typeof m.content === "string" ? [] : m.content;
    const uses = blocks.filter((b) => b.type === "tool_use").map((b) => b.id);
    const next = messages[i + 1];
    const answered = new Set(
      (next && typeof next.content !== "string" ? next.content : [])
        .filter((b) => b.type === "tool_result")
        .map((b) => b.tool_use_id),
    );
    for (const id of uses) if (!answered.has(id)) problems.push(`message ${i}: tool_use ${id} has no result`);
    const previous = messages[i - 1];
    const asked = new Set(
      (previous && typeof previous.content !== "string" ? previous.content : [])
        .filter((b) => b.type === "tool_use")
        .map((b) => b.id),
    );
    for (const b of blocks)
      if (b.type === "tool_result" && !asked.has(b.tool_use_id))
        problems.push(`message ${i}: tool_result ${b.tool_use_id} answers no tool_use`);
  });
  return problems;
}

describe.skipIf(!present)("continuing imported JP conversations", () => {
  const folders = present
    ? findJpConversations(FIXTURES_DIR).filter((f) => fs.existsSync(path.join(f, "events.json")))
    : [];
  let w: QWorkspace;
  beforeAll(async () => {
    w = await qWorkspace({ route: () => ({ text: "Continuing from here." }) });
  });
  afterAll(async () => {
    await w.close();
    fs.rmSync(w.root, { recursive: true, force: true });
  });

  const continues = async (folder: string) => {
    const imported = await w.jp("conversation", "import", "--json", folder);
    expect(imported.code, imported.stderr).toBe(0);
    const [{ id }] = JSON.parse(imported.stdout) as [{ id: string }];
    const before = w.mock.requests.length;
    // -m: some were recorded with providers jp does not serve (google); the mock speaks Anthropic.
    const result = await w.jp("q", "--id", id, "-m", "anthropic/claude-mock", "Where were we?");
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    expect(w.mock.requests).toHaveLength(before + 1);
    const messages = (w.mock.requests.at(-1)!.body as { messages: Message[] }).messages;
    expect(pairingProblems(messages)).toEqual([]);
    expect(messages.at(-1)).toMatchObject({ role: "user" });
    const events = w.events(id);
    expect(events.at(-1)).toMatchObject({ type: "chat_response", message: "Continuing from here." });
    const problems = checkProviderView(project(events).events, { lastTurnFinished: true });
    expect(problems.map(describeViewProblem)).toEqual([]);
  };
  it.each(folders.map((f) => [path.basename(f), f] as const))("jp q continues %s", async (_name, folder) =>
    continues(folder),
  );
});
