// What a tool leaves behind in its process group is ended with it: a
// grandchild that ignores SIGTERM is gone once `jp q` has exited.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { alive } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

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
