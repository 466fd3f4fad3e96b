// `jp conversation fork` during a running turn waits for it: the fork holds whole turns, never half of one.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";
import { REPO_ROOT } from "../../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("waits for the turn in progress, then copies it whole", async () => {
  w = await qWorkspace({
    extraConfig: `[conversation.tools.wait]\nsource = "local"\nsummary = "wait"\ncommand = ["sleep", "1.5"]\nrun = "unattended"\n`,
    script: [
      { text: "first" },
      { text: "Waiting.", tool_calls: [{ id: "toolu_wait", name: "wait", arguments: {} }] },
      { text: "done waiting" },
    ],
  });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const log = path.join(w.folder(), "events.jsonl");
  const turn = execa(JP, ["q", "two"], {
    cwd: w.root,
    env: w.env,
    reject: false,
    stdin: "ignore",
  });
  // The call is recorded, its tool still running: the turn is half done.
  const started = Date.now();
  while (!fs.readFileSync(log, "utf8").includes("toolu_wait")) {
    if (Date.now() - started > 15_000) throw new Error("the turn never called its tool");
    await new Promise((r) => setTimeout(r, 20));
  }
  // Its own process: the lock's wait blocks, and this one serves the mock the turn is waiting on.
  const fork = await execa(JP, ["conversation", "fork", "--json"], {
    cwd: w.root,
    env: w.env,
    reject: false,
    stdin: "ignore",
  });
  expect(fork.exitCode, fork.stderr).toBe(0);
  expect((await turn).exitCode).toBe(0);
  const { id } = JSON.parse(fork.stdout) as { id: string };
  const copied = w.events(id);
  expect(copied).toContainEqual(expect.objectContaining({ type: "tool_call_response", id: "toolu_wait" }));
  expect(copied.at(-1)).toMatchObject({ type: "chat_response", message: "done waiting" });
});
