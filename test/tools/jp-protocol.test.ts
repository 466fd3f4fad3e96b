// JP's tool protocol through jp q: a command written for JP gets `{{context}}`
// and `{{tool}}` as JP renders them, its Outcome is read (content, errors,
// and a `needs_input` question asked at a real terminal, after which it runs
// again with the answer).
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { screenRows } from "../support/screen.js";
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

describe("a JP tool's config", () => {
  it("hands the tool its options, its compiled access and who calls it, in {{context}} and {{tool}}", async () => {
    w = await qWorkspace({
      script: [call({ mode: "context" }), { text: "ok" }],
      extraConfig: [
        toolConfig("unattended"),
        "[conversation.tools.fs_modify_file.options]",
        'suppress = [".git/"]',
        "[[conversation.tools.fs_modify_file.access.fs]]",
        'path = "./src/../docs"',
        "read = true",
        "write = true",
        "",
      ].join("\n"),
    });
    const looked = await w.jp("q", "-n", "look");
    expect(looked.code, looked.stderr).toBe(0);
    const sent = JSON.parse(String(resultSent(1).content)) as {
      context: Record<string, unknown>;
      options: unknown;
    };
    const conversation = (JSON.parse((await w.jp("c", "s", "--json")).stdout) as { id: string }).id;
    expect(sent.options).toEqual({ suppress: [".git/"] });
    expect(sent.context).toEqual({
      root: w.root,
      action: "run",
      access: {
        fs: [{ lexical_path: "docs", external: false, approved_target: null, read: true, write: true }],
        net: [],
        env: [],
      },
      // jp's own id of the workspace (a JP workspace's is JP's, in .jp/.id).
      workspace_id: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
      conversation_id: conversation,
    });
  });

  it("never runs a tool whose access reaches outside the workspace", async () => {
    w = await qWorkspace({
      script: [call({ mode: "context" }), { text: "ok" }],
      extraConfig: [
        toolConfig("unattended"),
        "[[conversation.tools.fs_modify_file.access.fs]]",
        'path = "../.."',
        "read = true",
        "",
      ].join("\n"),
    });
    expect((await w.jp("q", "-n", "look")).code).toBe(0);
    expect(resultSent(1)).toMatchObject({
      is_error: true,
      content:
        'fs_modify_file was not run: its conversation.tools.fs_modify_file.access.fs path "../.." is not inside the workspace',
    });
  });

  it("answers a question the config fixes (questions.ID.answer) without asking", async () => {
    w = await qWorkspace({
      script: [call({ mode: "ask", path: "a.txt" }), { text: "ok" }],
      extraConfig: [
        toolConfig("unattended"),
        "[conversation.tools.fs_modify_file.questions.name]",
        'answer = "c.txt"',
        "",
      ].join("\n"),
    });
    expect((await w.jp("q", "-n", "rename it")).code).toBe(0);
    expect(resultSent(1)).toMatchObject({ content: "renamed a.txt to c.txt" });
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

  it("shows a question asked after a while alone, with its default, until it is answered", async () => {
    w = await qWorkspace({
      script: [call({ mode: "slow-ask", path: "a.txt" }), { text: "done" }],
      extraConfig: toolConfig("unattended"),
    });
    const size = { columns: 100, rows: 30 };
    const session = runInPty([path.join(REPO_ROOT, "bin/jp"), "q", "-n", "delete it"], {
      cwd: w.root,
      env: w.env,
      size,
    });
    // The tool ran long enough for its area to be drawn before it asked.
    const shown = await session.waitFor("Delete a.txt? [y/N]");
    expect(session.output().slice(0, shown)).toContain("is running");
    // Two of the area's ticks go by: nothing is drawn over the question.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    expect(session.output().slice(shown)).not.toContain("⏱");
    const rows = await screenRows([{ data: session.output(), ...size }]);
    expect(rows.at(-1)).toBe("Delete a.txt? [y/N]");
    expect(rows.join("\n")).not.toContain("is running");
    session.type("y");
    expect(await session.exit).toBe(0);
    expect(resultSent(1)).toMatchObject({ content: "sure=true: deleted a.txt" });
  });

  it("takes a question's default on Enter", async () => {
    w = await qWorkspace({
      script: [call({ mode: "slow-ask", path: "b.txt" }), { text: "done" }],
      extraConfig: toolConfig("unattended"),
    });
    const session = runInPty([path.join(REPO_ROOT, "bin/jp"), "q", "-n", "delete it"], {
      cwd: w.root,
      env: w.env,
    });
    await session.waitFor("Delete b.txt? [y/N]");
    session.type("\r");
    expect(await session.exit).toBe(0);
    expect(resultSent(1)).toMatchObject({ content: "sure=false: kept b.txt" });
  });
});
