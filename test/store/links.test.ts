// No write leaves the workspace through a link, and special files are refused
// in one line instead of hanging a reader.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { tempDir } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function withConversation(): Promise<{ dir: string; folder: string }> {
  w = await qWorkspace({ script: [{ text: "hello" }] });
  expect((await w.jp("q", "hi")).code).toBe(0);
  return { dir: path.join(w.root, ".jp/conversations"), folder: path.basename(w.folder()) };
}

describe("links and special files in a workspace", () => {
  it("ls reads a conversation folder that links outside but writes nothing there", async () => {
    const { dir, folder } = await withConversation();
    const outside = path.join(tempDir(), folder);
    fs.renameSync(path.join(dir, folder), outside);
    fs.symlinkSync(outside, path.join(dir, folder));
    const before = fs.readFileSync(path.join(outside, "metadata.json"), "utf8");
    const listed = await w!.jp("conversation", "ls");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(folder.slice(0, 11));
    expect(fs.readFileSync(path.join(outside, "metadata.json"), "utf8")).toBe(before);
  });

  it("rm refuses a .trash that links outside, in one line, and keeps the conversation", async () => {
    const { dir, folder } = await withConversation();
    const outside = tempDir();
    fs.symlinkSync(outside, path.join(dir, ".trash"));
    const removed = await w!.jp("conversation", "rm", folder.slice(0, 11));
    expect(removed.code).toBe(1);
    expect(removed.stderr).toMatch(/\.trash is a symbolic link; jp does not write through links/);
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(fs.existsSync(path.join(dir, folder, "events.jsonl"))).toBe(true);
  });

  it("a FIFO in place of a log is refused in one line, and ls does not hang", async () => {
    const { dir, folder } = await withConversation();
    const log = path.join(dir, folder, "events.jsonl");
    fs.rmSync(log);
    execFileSync("mkfifo", [log]);
    const listed = await w!.jp("conversation", "ls");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain("(unreadable)");
    const shown = await w!.jp("conversation", "show");
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain("events.jsonl is not a regular file");
    expect(shown.stderr.trim().split("\n").length).toBeLessThanOrEqual(2);
  });
});
