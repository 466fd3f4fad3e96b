// No write goes through a symbolic link anywhere in .jp/: a linked conversations or cache folder is
// refused or left unwritten, and a linked or unreadable file in a conversation's folder is named by
// doctor, moved aside, and never stops a command for good.
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

/** Every file under `dir`. */
const filesIn = (dir: string) =>
  fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

/** Move `.jp/NAME` out of the workspace and leave a link to it in its place; returns the outside folder. */
function linkOut(root: string, name: string): string {
  const outside = path.join(tempDir(), name);
  const inside = path.join(root, ".jp", name);
  if (fs.existsSync(inside)) fs.renameSync(inside, outside);
  else fs.mkdirSync(outside);
  fs.symlinkSync(outside, inside);
  return outside;
}

describe("a linked folder in .jp/", () => {
  it("conversations: q -n, new and fork are refused with one line, and nothing is written outside", async () => {
    w = await qWorkspace({ script: [{ text: "hello" }] });
    const outside = linkOut(w.root, "conversations");
    for (const args of [
      ["q", "-n", "hi"],
      ["conversation", "new"],
    ]) {
      const result = await w.jp(...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr).toMatch(/conversations is a symbolic link; jp does not write through links/);
    }
    expect(filesIn(outside)).toEqual([]);
    expect(w.mock.requests).toHaveLength(0);
  });

  it("cache: listing and asking write no cache through it", async () => {
    w = await qWorkspace({ script: [{ text: "hello" }, { text: "again" }] });
    expect((await w.jp("q", "-n", "hi")).code).toBe(0);
    fs.rmSync(path.join(w.root, ".jp/cache"), { recursive: true, force: true });
    const outside = linkOut(w.root, "cache");
    expect((await w.jp("conversation", "ls")).code).toBe(0);
    expect((await w.jp("q", "again")).code).toBe(0);
    expect(filesIn(outside)).toEqual([]);
  });
});

describe("a conversation's files", () => {
  it("a linked metadata.json is read as absent, named by doctor and moved aside; the file it names is untouched", async () => {
    w = await qWorkspace({ script: [{ text: "hello" }] });
    expect((await w.jp("q", "-n", "hi")).code).toBe(0);
    const target = path.join(tempDir(), "elsewhere.json");
    fs.writeFileSync(target, '{"title":"not yours"}');
    const metadata = path.join(w.folder(), "metadata.json");
    fs.rmSync(metadata);
    fs.symlinkSync(target, metadata);
    for (const args of [
      ["conversation", "ls"],
      ["conversation", "show"],
      ["conversation", "print"],
    ])
      expect((await w.jp(...args)).code, args.join(" ")).toBe(0);
    const check = await w.jp("conversation", "doctor", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("metadata.json is a symbolic link; jp reads it as absent");
    expect((await w.jp("conversation", "doctor")).code).toBe(0);
    expect(fs.lstatSync(metadata, { throwIfNoEntry: false })).toBeUndefined();
    expect(fs.readFileSync(target, "utf8")).toBe('{"title":"not yours"}');
  });

  it("a linked events.quarantine stops q with one line until doctor moves it aside", async () => {
    w = await qWorkspace({ script: [{ text: "hello" }, { text: "again" }] });
    expect((await w.jp("q", "-n", "hi")).code).toBe(0);
    const outsideFile = path.join(tempDir(), "stolen");
    fs.symlinkSync(outsideFile, path.join(w.folder(), "events.quarantine"));
    // A torn last line: the next append moves it to the quarantine file first.
    fs.appendFileSync(path.join(w.folder(), "events.jsonl"), '{"type":"chat_req');
    const refused = await w.jp("q", "again");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/events\.quarantine is a symbolic link; jp does not write through links/);
    expect(refused.stderr).not.toMatch(/internal error|ELOOP/);
    expect(fs.existsSync(outsideFile)).toBe(false);
    expect((await w.jp("conversation", "doctor")).stdout).toContain("events.quarantine is a symbolic link");
    expect((await w.jp("q", "again")).code).toBe(0);
    expect(fs.existsSync(outsideFile)).toBe(false);
  });
});
