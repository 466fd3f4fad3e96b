// JP's tool protocol through jp q: a command written for JP gets `{{context}}`
// and `{{tool}}` as JP renders them, its Outcome is read (content, errors,
// and a `needs_input` question asked at a real terminal, after which it runs
// again with the answer).
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const TOOL = path.join(REPO_ROOT, "test/support/jp-tool.mjs");
const toolConfig = (run: string) =>
  [
    "[conversation.tools.fs_modify_file]",
    'source = "local"',
    `command = ${JSON.stringify(`node ${TOOL} {{context}} {{tool}}`)}`,
    `run = "${run}"`,
    'summary = "Change a file"',
    "[conversation.tools.fs_modify_file.parameters.path]",
    'type = "string"',
    "[conversation.tools.fs_modify_file.parameters.mode]",
    'type = "string"',
    "",
  ].join("\n");
const call = (args: Record<string, unknown>) => ({
  tool_calls: [{ id: "toolu_jp_1", name: "fs_modify_file", arguments: args }],
});
type Body = { messages: { content: { type: string; content?: unknown; is_error?: boolean }[] }[] };
const resultSent = (n: number) => (w!.mock.requests[n]!.body as unknown as Body).messages.at(-1)!.content[0]!;

describe("a tool written for JP", () => {
  it("gets {{context}} and {{tool}} as JP renders them, and its Outcome's content reaches the model", async () => {
    w = await qWorkspace({
      script: [call({ path: "notes.txt" }), { text: "done" }],
      extraConfig: toolConfig("unattended"),
    });
    const asked = await w.jp("q", "-n", "read my notes");
    expect(asked.code, asked.stderr).toBe(0);
    expect(resultSent(1)).toMatchObject({
      type: "tool_result",
      content: `fs_modify_file read notes.txt in ${w.root} (run)`,
    });
  });

  it("sends an error Outcome back as an error, with its trace and whether trying again may help", async () => {
    w = await qWorkspace({
      script: [call({ mode: "fail" }), { text: "ok" }],
      extraConfig: toolConfig("unattended"),
    });
    expect((await w.jp("q", "-n", "try it")).code).toBe(0);
    expect(resultSent(1)).toMatchObject({
      is_error: true,
      content: "the index is locked\n  caused by: lock held by pid 42\n(transient: trying again may succeed)",
    });
  });

  it("without a terminal, answers a question with no default as not answerable", async () => {
    w = await qWorkspace({
      script: [call({ mode: "ask", path: "a.txt" }), { text: "ok" }],
      extraConfig: toolConfig("unattended"),
    });
    expect((await w.jp("q", "-n", "rename it")).code).toBe(0);
    expect(resultSent(1)).toMatchObject({
      is_error: true,
      content:
        'fs_modify_file needs an answer to "Which name should the file get?" and no one was there to give it',
    });
  });
});

describe.skipIf(!PTY_AVAILABLE)("a tool written for JP, at a terminal", () => {
  it("asks its needs_input question, and runs again with the answer", async () => {
    w = await qWorkspace({
      script: [call({ mode: "ask", path: "a.txt" }), { text: "renamed" }],
      extraConfig: toolConfig("unattended"),
    });
    const session = runInPty([path.join(REPO_ROOT, "bin/jp"), "q", "-n", "rename it"], {
      cwd: w.root,
      env: w.env,
    });
    await session.waitFor("Which name should the file get?");
    session.type("b.txt\r");
    expect(await session.exit).toBe(0);
    expect(resultSent(1)).toMatchObject({ content: "renamed a.txt to b.txt" });
  });
});
