// Permissions as a user meets them: jp run by an unprivileged uid that has no
// passwd entry (setpriv, as root), in a workspace it may only partly read or
// write. Each operating-system refusal is one plain line naming the path.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConversationStore } from "../../src/store/conversations.js";
import { REPO_ROOT, tempWorkspace } from "../support/workspace.js";
import type { Workspace } from "../../src/store/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
/** A uid and gid that no passwd or group entry names. */
const NOBODY_KNOWN = 54321;

function unprivilegedReason(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root to run jp as another uid";
  try {
    fs.accessSync("/usr/bin/setpriv", fs.constants.X_OK);
  } catch {
    return "needs util-linux setpriv";
  }
  if (fs.readFileSync("/etc/passwd", "utf8").includes(`:${NOBODY_KNOWN}:`))
    return `uid ${NOBODY_KNOWN} has a passwd entry here`;
  return undefined;
}
const skip = unprivilegedReason();
if (skip) console.warn(`permission tests skipped: ${skip}`);

let ws: Workspace;
let opened: { dir: string; mode: number }[] = [];

beforeEach(() => {
  ws = tempWorkspace();
  // The uid must be able to reach the workspace through the run's private temp folders.
  opened = [];
  for (let dir = path.dirname(ws.root); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const mode = fs.statSync(dir).mode & 0o777;
    if ((mode & 0o001) === 0) {
      opened.push({ dir, mode });
      fs.chmodSync(dir, mode | 0o011);
    }
  }
  fs.chmodSync(ws.root, 0o755);
  for (const dir of [ws.dir, path.join(ws.dir, "conversations")]) fs.chmodSync(dir, 0o755);
  // The uid's own workspace (jp adopts no other user's .jp/), holding folders and files it may not write or read.
  if (skip === undefined) fs.chownSync(ws.dir, NOBODY_KNOWN, NOBODY_KNOWN);
});

afterEach(() => {
  for (const { dir, mode } of opened) fs.chmodSync(dir, mode);
  fs.rmSync(ws.root, { recursive: true, force: true });
});

function jpAs(args: string[], env: Record<string, string> = {}) {
  return execa(
    "/usr/bin/setpriv",
    [`--reuid=${NOBODY_KNOWN}`, `--regid=${NOBODY_KNOWN}`, "--clear-groups", process.execPath, JP, ...args],
    { cwd: ws.root, env: { PATH: process.env.PATH, NO_COLOR: "1", ...env }, reject: false, stdin: "ignore" },
  );
}

function conversation(title: string): { id: string; dir: string } {
  const store = new ConversationStore(ws);
  const ref = store.create({
    title,
    events: [
      { type: "turn_start", timestamp: "2026-11-01T10:00:00Z" },
      { type: "chat_request", timestamp: "2026-11-01T10:00:01Z", content: `about ${title}` },
    ],
  });
  fs.chmodSync(ref.dir, 0o755);
  for (const f of fs.readdirSync(ref.dir)) fs.chmodSync(path.join(ref.dir, f), 0o644);
  return { id: ref.id, dir: ref.dir };
}

describe.skipIf(skip !== undefined)("jp run by a uid without a passwd entry", () => {
  it("lists what it can read and names the folder it cannot, in one plain line", async () => {
    conversation("open");
    const closed = conversation("closed");
    fs.chmodSync(path.join(closed.dir, "events.jsonl"), 0o600);
    fs.chmodSync(path.join(closed.dir, "metadata.json"), 0o600);
    const result = await jpAs(["conversation", "ls"]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("open");
    expect(result.stdout).toContain("(unreadable)");
    const warnings = result.stderr.trim().split("\n");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(path.basename(closed.dir));
    expect(warnings[0]).toContain("permission denied");
    expect(result.stderr).not.toMatch(/internal error| {4}at /);
  });

  it("refuses to print a log it may not read with the path and what to do", async () => {
    const closed = conversation("closed");
    fs.chmodSync(path.join(closed.dir, "events.jsonl"), 0o600);
    const result = await jpAs(["conversation", "print", closed.id]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(`${path.join(closed.dir, "events.jsonl")}: permission denied`);
    expect(result.stderr).toContain("hint: check the owner and mode of the path");
    expect(result.stderr).not.toMatch(/internal error| {4}at /);
  });

  it("says which folder it may not write when creating a conversation, and leaves nothing behind", async () => {
    const before = fs.readdirSync(path.join(ws.dir, "conversations"));
    const result = await jpAs(["conversation", "new", "--title", "mine"]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr.split("\n")[0]).toBe(
      `jp: error: cannot write ${path.join(ws.dir, "conversations")}: permission denied`,
    );
    expect(result.stderr).not.toMatch(/internal error| {4}at /);
    expect(fs.readdirSync(path.join(ws.dir, "conversations"))).toEqual(before);
  });

  it("works in a workspace the uid owns, though no passwd entry names it", async () => {
    for (const dir of [ws.root, ws.dir, path.join(ws.dir, "conversations")])
      fs.chownSync(dir, NOBODY_KNOWN, NOBODY_KNOWN);
    const created = await jpAs(["conversation", "new", "--title", "mine", "--json"]);
    expect(created.stderr).toBe("");
    expect(created.exitCode).toBe(0);
    const { id } = JSON.parse(created.stdout) as { id: string };
    const listed = await jpAs(["conversation", "ls", "--json"]);
    expect(listed.exitCode).toBe(0);
    expect((JSON.parse(listed.stdout) as { id: string }[]).map((c) => c.id)).toEqual([id]);
  });

  it("keeps its temporary files in a folder of its own uid, closed to others", async () => {
    const tmp = path.join(ws.root, "tmp");
    fs.mkdirSync(tmp, { mode: 0o1777 });
    fs.chmodSync(tmp, 0o1777);
    const result = await jpAs(["conversation", "doctor", "--clean-spills"], { TMPDIR: tmp });
    expect(result.stdout).toMatch(/^removed 0 spill files older than 7 days/);
    expect(result.exitCode).toBe(0);
    const own = fs.statSync(path.join(tmp, `jp-${NOBODY_KNOWN}`));
    expect(own.uid).toBe(NOBODY_KNOWN);
    expect(own.mode & 0o777).toBe(0o700);
  });
});
