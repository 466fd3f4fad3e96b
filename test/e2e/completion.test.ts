// Completion in real shells at a real terminal: bash, zsh and fish, each with
// the script `jp completion SHELL` prints, and Tab pressed as a person does.
// The values come from the workspace: its conversations (with their titles),
// the model table, its configured tools.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PTY_AVAILABLE, runInPty, type PtySession } from "../support/pty.js";
import { screenRows } from "../support/screen.js";
import { REPO_ROOT, runCli, tempDir, trustAsItIs } from "../support/workspace.js";

const has = (shell: string) => spawnSync(shell, ["--version"], { stdio: "ignore" }).status === 0;
const SHELLS = {
  bash: has("bash"),
  zsh: has("zsh"),
  fish: has("fish"),
};
for (const [shell, here] of Object.entries(SHELLS))
  if (!here)
    console.warn(`${shell} completion tests skipped: ${shell} is not installed (apt install ${shell})`);

const TAB = "\t";
const CLEAR_LINE = "\u0015";

let root: string;
let env: Record<string, string>;
let ids: { hello: string; plan: string };
/** A copy of dcdpr/jp's own workspace (its personas, aliases and tools), trusted. */
let jpWs: string;

beforeAll(async () => {
  root = tempDir();
  // jp on the PATH, as the scripts call it; a home of its own, so no shell reads a person's rc files.
  const bin = path.join(root, "bin");
  fs.mkdirSync(bin);
  fs.symlinkSync(path.join(REPO_ROOT, "bin/jp"), path.join(bin, "jp"));
  const home = path.join(root, "home");
  fs.mkdirSync(home);
  env = {
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    HOME: home,
    XDG_CACHE_HOME: path.join(root, "cache"),
    XDG_CONFIG_HOME: path.join(root, "config"),
    NO_COLOR: "1",
  };
  const ws = path.join(root, "ws");
  fs.mkdirSync(ws);
  const jp = async (...args: string[]) => {
    const result = await runCli(args, { cwd: ws, env });
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  await jp("init");
  fs.appendFileSync(
    path.join(ws, ".jp/config.toml"),
    '\n[conversation.tools.fs_read_file]\nsource = "local"\nsummary = "read a file of the project"\ncommand = ["cat"]\n',
  );
  const created = (out: string) => /conversation (\d+)/.exec(out)![1]!;
  ids = {
    hello: created(await jp("conversation", "new", "--title", "say hello")),
    plan: created(await jp("conversation", "new", "--title", "plan the parser")),
  };
  jpWs = path.join(root, "jp");
  fs.cpSync(path.join(REPO_ROOT, "fixtures/jp-workspace/.jp"), path.join(jpWs, ".jp"), { recursive: true });
  trustAsItIs(jpWs, env);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

/** An interactive shell in a terminal, at the workspace (`ws`), with jp's completion loaded. */
async function shellWithCompletion(
  shell: keyof typeof SHELLS,
  ws = path.join(root, "ws"),
): Promise<PtySession> {
  const command = {
    bash: ["bash", "--norc", "--noprofile", "-i"],
    zsh: ["zsh", "-f", "-i"],
    fish: ["fish", "--no-config", "-i"],
  }[shell];
  const session = runInPty(command, {
    cwd: ws,
    env: { ...env, PS1: "$ " },
    size: { columns: 150, rows: 50 },
  });
  const load = {
    bash: 'eval "$(jp completion bash)"',
    zsh: 'autoload -Uz compinit && compinit -u && eval "$(jp completion zsh)"',
    fish: "jp completion fish | source",
  }[shell];
  session.type(`${load}; echo completion-ready\n`);
  await session.waitFor(/^completion-ready/m);
  return session;
}

/**
 * Tabs that list the choices: bash inserts their common prefix, rings on the
 * second Tab and lists on the third; zsh lists on the second; fish on the first.
 */
const LIST = { bash: TAB.repeat(3), zsh: TAB.repeat(2), fish: TAB };

/** What the terminal shows after `typed` (Tabs included), read as a person reads the screen. */
async function screenAfter(session: PtySession, typed: string, expected: RegExp): Promise<string> {
  const from = session.output().length;
  session.type(typed);
  try {
    await session.waitFor(expected, from, 10_000);
    // A shell draws a listing row by row, by columns: what is seen first may not be drawn last.
    return (await settledScreen(session)).join("\n");
  } finally {
    session.type(CLEAR_LINE);
  }
}

/** The screen once the terminal has shown nothing new for a moment (a shell done drawing). */
async function settledScreen(session: PtySession): Promise<string[]> {
  for (let seen = -1; seen !== session.output().length;) {
    seen = session.output().length;
    await sleep(150);
  }
  return screenRows([{ data: session.output(), columns: 150, rows: 50 }]);
}

/**
 * The line as the shell leaves it after `typed` and one Tab: a mark is typed
 * after the Tab, and a shell reads keys in order, so once the mark is on
 * screen the completion has been written. Returns what precedes the mark
 * (a trailing space says the value is whole).
 */
async function completedAfterTab(session: PtySession, typed: string): Promise<string> {
  const mark = "ZZ";
  const from = session.output().length;
  session.type(`${typed}${TAB}${mark}`);
  try {
    await session.waitFor(mark, from, 10_000);
    // fish may repaint the line after the mark first shows.
    const rows = await settledScreen(session);
    const line = rows.findLast((row) => row.includes(typed.slice(0, 5)) && row.includes(mark)) ?? "";
    return line.slice(line.indexOf(typed.slice(0, 5)), line.lastIndexOf(mark));
  } finally {
    session.type(CLEAR_LINE);
  }
}

const shellsHere = (Object.keys(SHELLS) as (keyof typeof SHELLS)[]).filter((shell) => SHELLS[shell]);

describe.skipIf(!PTY_AVAILABLE).each(shellsHere)("%s at a terminal", (shell) => {
  it("offers conversation ids after --id, with their titles", async () => {
    const session = await shellWithCompletion(shell);
    const screen = await screenAfter(session, `jp q --id ${LIST[shell]}`, /plan the parser/);
    // fish draws the prefix the choices share as "…": the ids are told apart by their ends.
    expect(screen).toMatch(new RegExp(`${ids.hello.slice(-6)}\\s+(?:\\(|-- )?say hello · 0 turns`));
    expect(screen).toMatch(new RegExp(`${ids.plan.slice(-6)}\\s+(?:\\(|-- )?plan the parser · 0 turns`));
    session.type("exit\n");
    await session.exit;
  });

  it("offers anthropic/claude-sonnet-5-5 after -m anthropic/, and a configured tool after -t", async () => {
    const session = await shellWithCompletion(shell);
    const models = await screenAfter(session, `jp q -m anthropic/${LIST[shell]}`, /claude-sonnet-5-5/);
    expect(models).toMatch(/claude-opus-5-5\s+(?:\(|-- )?1,000,000 tokens/);
    // A retired model is not offered.
    expect(models).not.toContain("claude-3-7-sonnet");
    // One choice left: it is written out in full on the line.
    const unique: [typed: string, written: string][] = [
      ["jp q -m anthropic/claude-sonnet-5-", "jp q -m anthropic/claude-sonnet-5-5"],
      ["jp q -t fs", "jp q -t fs_read_file"],
    ];
    for (const [typed, written] of unique) {
      const from = session.output().length;
      session.type(`${typed}${TAB}`);
      await session.waitFor(written.slice(-12), from, 10_000);
      expect((await settledScreen(session)).at(-1)).toContain(written);
      session.type(CLEAR_LINE);
    }
    session.type("exit\n");
    await session.exit;
  });
});

describe.skipIf(!PTY_AVAILABLE).each(shellsHere)("%s in a JP workspace", (shell) => {
  it("offers JP's personas after -c (a config key still after them), its model aliases after -m, whole tool names after -t", async () => {
    const session = await shellWithCompletion(shell, jpWs);
    // Personas by the name `-c NAME` loads them by, each beside its file.
    const personas = await screenAfter(session, `jp q -c rfd-${LIST[shell]}`, /rfd-triager/);
    for (const name of ["rfd-implementor", "rfd-reviewer", "rfd-triager"])
      expect(personas).toMatch(new RegExp(`${name}\\s+(?:\\(|-- )?\\.jp/config/personas/${name}\\.toml`));
    // JP's aliases, each with the model it names.
    const aliases = await screenAfter(session, `jp q -m so${LIST[shell]}`, /alias of openai/);
    expect(aliases).toMatch(/sonnet\s+(?:\(|-- )?alias of anthropic\/claude-sonnet-5/);
    expect(aliases).toMatch(/sol\s+(?:\(|-- )?alias of openai\/gpt-5\.6-sol/);
    // Tools: JP's local ones and those its config takes from an MCP server.
    const tools = await screenAfter(session, `jp q -t git_diff${LIST[shell]}`, /git_diff_file/);
    expect(tools).toMatch(/git_diff_commit\s+(?:\(|-- )?\S/);
    // One choice left: written out whole, and followed by a space, but for a key, whose value follows its =.
    const whole: [typed: string, line: string][] = [
      ["jp -c archi", "jp -c architect "],
      ["jp q -c skill/we", "jp q -c skill/web "],
      ["jp q -c assistant.model.i", "jp q -c assistant.model.id="],
      ["jp q -m opu", "jp q -m opus "],
      ["jp q -t fs_r", "jp q -t fs_read_file "],
      ["jp q -t rust_crates_s", "jp q -t rust_crates_search "],
    ];
    for (const [typed, line] of whole) expect(await completedAfterTab(session, typed)).toBe(line);
    session.type("exit\n");
    await session.exit;
  });
});
