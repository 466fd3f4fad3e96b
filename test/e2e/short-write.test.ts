// A write the system cuts short (here a file size limit, `ulimit -f` in a
// child shell) is an error: the command fails with a plain message, and the
// log is exactly as it was, with no part of the group left behind.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  if (w) fs.rmSync(w.root, { recursive: true, force: true });
  w = undefined;
});

/** Run bin/jp in a shell whose file size limit is the log's size rounded up to the next KiB. */
function jpLimited(q: QWorkspace, log: string, args: string[]) {
  const limitKiB = Math.ceil((fs.statSync(log).size + 1) / 1024);
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  return execa("bash", ["-c", `ulimit -f ${limitKiB}; exec "${JP}" ${quoted}`], {
    cwd: q.root,
    env: q.env,
    reject: false,
    stdin: "ignore",
  });
}

function conversationLog(root: string): string {
  const dir = path.join(root, ".jp/conversations");
  return path.join(
    dir,
    fs.readdirSync(dir).find((f) => /^\d/.test(f))!,
    "events.jsonl",
  );
}

describe("short writes", () => {
  it("a lock that cannot be written names its path and leaves no temporary file behind", async () => {
    w = await qWorkspace({ route: () => ({ text: "ok" }) });
    expect((await w.jp("q", "-n", "first")).code).toBe(0);
    const log = conversationLog(w.root);
    const quoted = ["q", "again"].map((a) => `'${a}'`).join(" ");
    const result = await execa("bash", ["-c", `ulimit -f 0; exec "${JP}" ${quoted}`], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/could not write \S+\.lock: the file size limit was reached/);
    expect(result.stderr).not.toContain("internal error");
    const left = fs
      .readdirSync(path.dirname(log))
      .filter((f) => f.endsWith(".tmp") || f === "events.pending");
    expect(left).toEqual([]);
  });

  it("jp q: a turn that cannot be appended fails plainly and leaves the log unchanged", async () => {
    w = await qWorkspace({ route: () => ({ text: "ok" }) });
    expect((await w.jp("q", "-n", "first")).code).toBe(0);
    const log = conversationLog(w.root);
    const before = fs.readFileSync(log);
    const result = await jpLimited(w, log, ["q", "x".repeat(4096)]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("could not append to");
    expect(result.stderr).toContain("the file size limit was reached; nothing of this write was kept");
    expect(result.stderr).not.toContain("internal error");
    expect(fs.readFileSync(log)).toEqual(before);
    expect((await w.jp("q", "again")).code).toBe(0);
  });

  it("jp conversation compact: the compaction is not recorded and the log is unchanged", async () => {
    w = await qWorkspace({ route: () => ({ text: "a long answer. ".repeat(60) }) });
    for (const q of ["one", "two", "three"])
      expect((await w.jp("q", ...(q === "one" ? ["-n"] : []), q)).code).toBe(0);
    const log = conversationLog(w.root);
    // Fill the log up to just under a KiB boundary so the compaction event cannot fit.
    const size = fs.statSync(log).size;
    const pad = Math.ceil((size + 1) / 1024) * 1024 - size - 40;
    if (pad > 60)
      fs.appendFileSync(
        log,
        JSON.stringify({ type: "padding", timestamp: "2026-01-01T00:00:00Z", x: "p".repeat(pad - 60) }) +
          "\n",
      );
    const before = fs.readFileSync(log);
    const result = await jpLimited(w, log, [
      "conversation",
      "compact",
      "--summary",
      "Three questions.",
      "--turn",
      "1..2",
      "--note",
      "n".repeat(150),
    ]);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain("nothing of this write was kept");
    expect(fs.readFileSync(log)).toEqual(before);
  });
});

describe("short writes on import", () => {
  it("a conversation that cannot be written in full is not imported at all, and importing again works", async () => {
    w = await qWorkspace({ route: () => ({ text: "ok" }) });
    const source = path.join(w.root, "jp-export", "17000000042-big");
    fs.mkdirSync(source, { recursive: true });
    fs.writeFileSync(path.join(source, "metadata.json"), JSON.stringify({ title: "Big" }));
    fs.writeFileSync(
      path.join(source, "events.json"),
      JSON.stringify([
        { type: "chat_request", timestamp: "2026-05-29 19:42:36", content: "read it" },
        { type: "chat_response", timestamp: "2026-05-29 19:42:40", message: "long ".repeat(40_000) },
      ]),
    );
    const conversations = path.join(w.root, ".jp/conversations");
    fs.mkdirSync(conversations, { recursive: true });
    const before = fs.readdirSync(conversations).sort();
    const result = await execa(
      "bash",
      ["-c", `ulimit -f 64; exec "${JP}" conversation import jp-export/17000000042-big`],
      {
        cwd: w.root,
        env: w.env,
        reject: false,
        stdin: "ignore",
      },
    );
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).not.toContain("internal error");
    // Nothing half-written is left behind, listed or not.
    expect(fs.readdirSync(conversations).sort()).toEqual(before);
    const again = await w.jp("conversation", "import", "jp-export/17000000042-big");
    expect(again.code).toBe(0);
    expect((await w.jp("conversation", "ls", "--json")).stdout).toContain("17000000042");
  });
});
