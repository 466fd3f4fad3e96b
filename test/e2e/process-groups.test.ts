// What a tool leaves behind in its process group is ended with it: a
// grandchild that ignores SIGTERM is gone once `jp q` has exited.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { alive } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";
import { startTime, watchdogScript } from "../../src/tools/process-group.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("a stubborn grandchild a tool left running is ended after the tool exits", async () => {
  w = await qWorkspace({
    extraConfig: [
      "[conversation.tools.spawn]",
      'source = "local"',
      'summary = "leave a process behind"',
      // The grandchild ignores SIGTERM and sleeps on; the tool itself exits at once.
      `command = ["sh", "-c", "(trap '' TERM; exec sleep 60) >/dev/null 2>&1 & echo $! > grandchild.pid; echo started"]`,
      'run = "unattended"',
      "",
    ].join("\n"),
    script: [
      { text: "Spawning.", tool_calls: [{ id: "toolu_s", name: "spawn", arguments: {} }] },
      { text: "done" },
    ],
  });
  const done = await execa(JP, ["q", "-n", "go"], {
    cwd: w.root,
    env: w.env,
    reject: false,
    stdin: "ignore",
  });
  expect(done.exitCode, done.stderr).toBe(0);
  const pid = Number(fs.readFileSync(path.join(w.root, "grandchild.pid"), "utf8"));
  expect(pid).toBeGreaterThan(0);
  const started = Date.now();
  while (alive(pid) && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 50));
  const left = alive(pid);
  if (left) process.kill(pid, "SIGKILL");
  expect(left).toBe(false);
});

it("the watchdog signals a group only while its leader is the process jp started: a reused pid is left alone", async () => {
  // Another program that now holds the pid, leading a group of its own (as a reused pid would).
  const other = execa("sh", ["-c", "exec sleep 30"], { detached: true, reject: false });
  const pid = other.pid!;
  try {
    // The watchdog's jp: a process that has ended.
    const deadJp = execa("true");
    await deadJp;
    // What jp recorded of its child: another start time than the program holding the pid now.
    const recorded = String(Number(startTime(pid)) - 1);
    const watchdog = await execa("sh", ["-c", watchdogScript(deadJp.pid!, pid, recorded)], { reject: false });
    expect(watchdog.exitCode).toBe(0);
    expect(alive(pid), "the other program's group was signalled").toBe(true);
    // Its own start time, as recorded when jp started it: the group is jp's and is ended.
    await execa("sh", ["-c", watchdogScript(deadJp.pid!, pid, startTime(pid))], { reject: false });
    await other;
    expect(alive(pid)).toBe(false);
  } finally {
    other.kill("SIGKILL");
  }
});
