// jp survives the loss of its terminal and stops when asked: a signal at the
// approval prompt ends the turn and frees its lock; a terminal closed during
// a tool or mid-answer ends the turn as SIGHUP does, keeping what arrived.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadScript } from "../support/mock-llm.js";
import { alive, descendants, PTY_AVAILABLE, runInPty, type PtySession } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT, runCli } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const jpQ = (query: string) => runInPty([JP, "q", query], { cwd: w!.root, env: w!.env });

/**
 * The jp process running under the terminal (node running bin/jp or started from its start-up
 * snapshot, not the shell that started it).
 */
function jpPid(session: PtySession): number {
  const [pid] = descendants(session.pid, (cmdline) =>
    /^\S*node (\S*bin\/jp |--snapshot-blob \S*cli\.bundle\/snapshot\.blob )/.test(cmdline),
  );
  if (pid === undefined) throw new Error("no jp process under the terminal");
  return pid;
}

async function gone(pid: number, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (alive(pid)) {
    if (Date.now() - started > timeoutMs) throw new Error(`process ${pid} is still running`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const WAIT_TOOL = `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sleep", "30"]\nrun = "unattended"\n`;

describe.skipIf(!PTY_AVAILABLE)("signals and a vanishing terminal", () => {
  it.each(["SIGTERM", "SIGHUP", "SIGINT"] as const)(
    "%s at the approval prompt ends jp, answers the call as interrupted and frees the lock",
    async (signal) => {
      w = await qWorkspace({
        toolRun: "ask",
        script: [...loadScript("tool-then-answer"), ...loadScript("second-turn")],
      });
      const session = jpQ("count");
      await session.waitFor("Run tool count_words?");
      process.kill(jpPid(session), signal);
      expect(await session.exit).toBe(130);
      expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({
        id: "toolu_count_1",
        content: "interrupted",
      });
      expect(fs.existsSync(path.join(w.folder(), "turn.lock"))).toBe(false);
      expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
    },
  );

  it("a terminal closed while a tool runs ends the turn: the call is answered, the lock freed", async () => {
    w = await qWorkspace({
      extraConfig: WAIT_TOOL,
      script: [
        { text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] },
        ...loadScript("second-turn"),
      ],
    });
    const session = jpQ("wait");
    await session.waitFor(/⚙\S* \S*wait/);
    await new Promise((r) => setTimeout(r, 300));
    const jp = jpPid(session);
    process.kill(session.pid, "SIGKILL");
    await gone(jp);
    expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      id: "toolu_wait",
      content: "interrupted",
      is_error: true,
    });
    expect(fs.existsSync(path.join(w.folder(), "turn.lock"))).toBe(false);
    expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
  });

  it("a terminal closed mid-answer keeps what arrived, as Ctrl-C does", async () => {
    const long = "the parser reads quoted fields one by one. ".repeat(400);
    w = await qWorkspace({ script: [{ text: long, event_delay_ms: 5 }, ...loadScript("second-turn")] });
    const session = jpQ("explain");
    await session.waitFor("quoted fields one by one. the parser");
    const jp = jpPid(session);
    process.kill(session.pid, "SIGKILL");
    await gone(jp);
    const answer = w.events().find((e) => e.type === "chat_response") as
      { message?: string; metadata?: { interrupted?: boolean } } | undefined;
    expect(answer?.message?.length).toBeGreaterThan(40);
    expect(long.startsWith(answer!.message!)).toBe(true);
    expect(answer?.metadata?.interrupted).toBe(true);
    expect((await runCli(["q", "again"], { cwd: w.root, env: w.env })).code).toBe(0);
  });

  it("a tool outlives no jp: killed outright, jp's tool is ended by its watchdog", async () => {
    w = await qWorkspace({
      extraConfig: `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sh", "-c", "sleep 31.5; echo done"]\nrun = "unattended"\n`,
      script: [{ text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] }],
    });
    const session = jpQ("wait");
    await session.waitFor(/⚙\S* \S*wait/);
    await new Promise((r) => setTimeout(r, 300));
    const sleeping = () => running((cmdline) => cmdline.startsWith("sleep 31.5"));
    expect(sleeping()).toHaveLength(1);
    const jp = jpPid(session);
    process.kill(jp, "SIGKILL");
    await gone(jp);
    const started = Date.now();
    while (sleeping().length > 0 && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 100));
    expect(sleeping()).toEqual([]);
    expect(await session.exit).not.toBe(0);
  });
});

/** Every running process whose command line passes `match`. */
function running(match: (cmdline: string) => boolean): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      try {
        return alive(pid) && match(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " "));
      } catch {
        return false;
      }
    });
}

describe("a conversation changed while its turn runs", () => {
  it("rm waits for the turn, which keeps its tool's result, then moves the conversation to the trash", async () => {
    w = await qWorkspace({
      extraConfig: `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sleep", "1.5"]\nrun = "unattended"\n`,
      script: [
        { text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] },
        { text: "Done." },
      ],
    });
    expect((await runCli(["conversation", "new"], { cwd: w.root, env: w.env })).code).toBe(0);
    const q = spawn(process.execPath, [JP, "q", "wait"], {
      cwd: w.root,
      env: { ...w.env, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const qExit = new Promise<number>((resolve) =>
      q.on("close", (code) => {
        resolve(code ?? -1);
      }),
    );
    await w.mock.streaming(1);
    await new Promise((r) => setTimeout(r, 300));
    const id = path.basename(w.folder());
    // Its own process: a waiting jp blocks, and this process serves the model's answers.
    const rm = await promisify(execFile)(process.execPath, [JP, "conversation", "rm", id.slice(0, 11)], {
      cwd: w.root,
      env: { ...w.env, NO_COLOR: "1" },
    });
    expect(rm.stderr).toContain("waiting for the conversation lock");
    expect(await qExit).toBe(0);
    const trashed = path.join(w.root, ".jp/conversations/.trash", id, "events.jsonl");
    const log = fs.readFileSync(trashed, "utf8");
    expect(log).toContain('"tool_call_response"');
    expect(log).toContain("Done.");
    expect(fs.existsSync(path.join(w.root, ".jp/conversations/.trash", id, "turn.lock"))).toBe(false);
  });
});
