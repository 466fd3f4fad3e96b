// What jp q shows as it goes: reasoning labelled (in a terminal, with NO_COLOR too), kept off stdout when
/* eslint-disable no-control-regex -- terminal output is checked for its escape sequences */
// stdout is a file or a pipe; --hide-reasoning and --hide-tool-calls; -r and -R for one query.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScript } from "../../support/mock-llm.js";
import { PTY_AVAILABLE, runInPty } from "../../support/pty.js";
import { CODE_ANSWER } from "../../support/code-answer.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { REPO_ROOT } from "../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const THOUGHT = {
  reasoning: "Let me think.\nSecond line of thought.",
  signature: "sig-1",
  text: "The answer.",
};
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe.skipIf(!PTY_AVAILABLE)("in a terminal", () => {
  it("labels reasoning with a gutter that reads without color, before the answer", async () => {
    w = await qWorkspace({ script: [THOUGHT] });
    const session = runInPty([JP, "q", "-n", "think"], { cwd: w.root, env: { ...w.env, NO_COLOR: "1" } });
    expect(await session.exit).toBe(0);
    expect(session.output()).toMatch(
      /┊ reasoning\r?\n┊ Let me think\.\r?\n┊ Second line of thought\.\r?\n\r?\nThe answer\./,
    );
  });

  it("shows the reasoning on the terminal (stderr) but writes the answer alone to a file", async () => {
    w = await qWorkspace({ script: [THOUGHT] });
    const out = path.join(w.root, "out.txt");
    const session = runInPty(["sh", "-c", `'${JP}' q -n think > '${out}'`], { cwd: w.root, env: w.env });
    expect(await session.exit).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toBe("The answer.\n");
    expect(session.output()).toContain("Let me think.");
  });

  it("--hide-reasoning and --hide-tool-calls leave them off the screen, and the log keeps them", async () => {
    w = await qWorkspace({ script: [THOUGHT, ...loadScript("tool-then-answer")] });
    const hidden = runInPty([JP, "q", "-n", "--hide-reasoning", "think"], { cwd: w.root, env: w.env });
    expect(await hidden.exit).toBe(0);
    expect(hidden.output()).not.toContain("Let me think");
    expect(hidden.output()).toContain("The answer.");
    const quiet = runInPty([JP, "q", "--hide-tool-calls", "count"], { cwd: w.root, env: w.env });
    expect(await quiet.exit).toBe(0);
    expect(quiet.output()).not.toContain("⚙");
    expect(quiet.output()).toContain("notes.txt has 5 words.");
    const kinds = w.events().map((e) => e.type);
    expect(kinds).toContain("tool_call_response");
    expect(w.events().some((e) => e.type === "chat_response" && e.reasoning === THOUGHT.reasoning)).toBe(
      true,
    );
  });
});

describe("through a pipe", () => {
  it("stdout holds the answer alone, and nothing of the reasoning goes anywhere", async () => {
    w = await qWorkspace({ script: [THOUGHT] });
    const result = await execa(JP, ["q", "-n", "think"], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("The answer.");
    expect(result.stderr).not.toContain("Let me think");
  });
});

describe("-r and -R", () => {
  it("turn thinking on or off for one query, whatever the config says", async () => {
    w = await qWorkspace({
      script: [{ text: "a" }, { text: "b" }, { text: "c" }],
      extraConfig: '[assistant.reasoning]\neffort = "high"\n',
    });
    expect((await w.jp("q", "-n", "-R", "no thinking")).code).toBe(0);
    expect((await w.jp("q", "with thinking")).code).toBe(0);
    const body = (n: number) => w!.mock.requests[n]!.body;
    expect(body(0).thinking === undefined || (body(0).thinking as { type: string }).type === "disabled").toBe(
      true,
    );
    expect(body(1).thinking).toBeDefined();
    expect((body(1).thinking as { type: string }).type).not.toBe("disabled");
  });

  it("-r EFFORT thinks at that effort, as JP reads it: the word is not part of the question", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }] });
    expect((await w.jp("q", "-n", "-r", "high", "think now")).code).toBe(0);
    const body = w.mock.requests[0]!.body as { messages: { content: { text?: string }[] }[] };
    expect(body.messages.at(-1)!.content.at(-1)!.text).toBe("think now");
    // The mock's model is adaptive: the effort goes as it is.
    expect(w.mock.requests[0]!.body).toMatchObject({
      thinking: { type: "adaptive" },
      output_config: { effort: "high" },
    });
    const wrong = await w.jp("q", "-r=hard", "again");
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("-r hard is not an effort");
  });

  it("-r asks for thinking where the config asks for none", async () => {
    w = await qWorkspace({ script: [{ text: "a" }, { text: "b" }] });
    expect((await w.jp("q", "-n", "plain")).code).toBe(0);
    expect((await w.jp("q", "-r", "think now")).code).toBe(0);
    expect(w.mock.requests[0]!.body.thinking).toBeUndefined();
    expect(w.mock.requests[1]!.body.thinking).toBeDefined();
  });
});

const MARKDOWN =
  "## Plan\n\nSome **bold** words and `code`.\n\n- first\n- second\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```ts\nconst x: number = 1;\n```\n\nDone.";

describe.skipIf(!PTY_AVAILABLE)("markdown", () => {
  it("is drawn on a terminal as it streams: emphasis, lists, a table and a highlighted code fence", async () => {
    w = await qWorkspace({ script: [{ text: MARKDOWN, split_bytes: 7 }] });
    const session = runInPty([JP, "q", "-n", "plan it"], {
      cwd: w.root,
      env: { ...w.env, FORCE_COLOR: "1" },
    });
    expect(await session.exit).toBe(0);
    const output = session.output();
    expect(output).not.toContain("**bold**");
    expect(output).not.toContain("```");
    expect(output).toMatch(/\u001b\[1mbold\u001b\[22m/);
    const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
    expect(plain).toMatch(/┌───┬───┐\r?\n│ a │ b │/);
    expect(plain).toMatch(/\* first\r?\n\s+\* second/);
    expect(output).toContain("Done.");
    // Highlighted: the keyword is colored apart from the rest of the line.
    expect(output).toMatch(/\u001b\[\d+mconst\u001b\[\d+m/);
    // The log keeps the markdown as it came.
    expect(w.events().find((e) => e.type === "chat_response")).toMatchObject({ message: MARKDOWN });
  });
});

describe.skipIf(!PTY_AVAILABLE)("markdown about code, streamed in 40-character pieces", () => {
  const plain = (drawn: string) => drawn.replace(/\u001b\[[0-9;]*m/g, "");
  const drawnAnswer = async (env: Record<string, string>) => {
    w = await qWorkspace({ script: [{ text: CODE_ANSWER, text_piece: 40 }] });
    const session = runInPty([JP, "q", "-n", "how do I read a file"], {
      cwd: w.root,
      env: { ...w.env, ...env },
    });
    expect(await session.exit).toBe(0);
    return session.output();
  };
  const expectLaidOut = (text: string) => {
    expect(text).not.toContain("#COLON|");
    expect(text).toContain("std::fs::read_to_string");
    expect(text).toContain("http://127.0.0.1:8080");
    expect(text).toMatch(/^ {2}3\. Build the parser with care\r?$/m);
    expect(text).toMatch(/^ {2}4\. Run cargo test and read the log/m);
    expect(text).toMatch(/^ {2}5\. Ship it\r?$/m);
    expect(text).toMatch(/│ run\s+│ \.\/app --port=8080:80\s+│/);
    expect(text).not.toMatch(/\*\*|`/);
  };

  it("is drawn with its numbers and styles, and no placeholder, in colour", async () => {
    const output = await drawnAnswer({ FORCE_COLOR: "1" });
    expectLaidOut(plain(output));
    expect(output).toMatch(/\u001b\[1mBuild\u001b\[22m/);
    expect(output).toMatch(/\u001b\[3mcare\u001b\[23m/);
    expect(output).toMatch(/\u001b\[33mcargo test\u001b\[39m/);
    expect(output).toMatch(/\u001b\[1mrun\u001b\[22m/);
  });

  it("is laid out the same with NO_COLOR, with no styling at all", async () => {
    const output = await drawnAnswer({ NO_COLOR: "1" });
    expectLaidOut(output);
    expect(output).not.toMatch(/\u001b\[[0-9;]*m/);
  });
});

describe("markdown through a pipe", () => {
  it("stays raw: the answer exactly as the model wrote it", async () => {
    w = await qWorkspace({ script: [{ text: MARKDOWN }] });
    const result = await execa(JP, ["q", "-n", "plan it"], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
    });
    expect(result.stdout).toBe(MARKDOWN);
  });
});
