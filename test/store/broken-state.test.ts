// Broken state recovers: a state.json that cannot be read counts as no active
// conversation (said once, reset by doctor); a lock that is empty, garbage
// or a folder is taken over, since no live jp could have left it so.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("a state.json that cannot be read", () => {
  it.each([
    ["empty", ""],
    ["cut short", '{"active": "17'],
    ["not an object", "[1, 2]"],
  ])("(%s) is said once, counts as no active conversation, and doctor resets it", async (_name, text) => {
    w = await qWorkspace({ script: [{ text: "one" }, { text: "two" }] });
    expect((await w.jp("q", "hello")).code).toBe(0);
    const state = path.join(w.root, ".jp/state.json");
    fs.writeFileSync(state, text);
    for (const args of [
      ["conversation", "ls"],
      ["conversation", "new"],
    ]) {
      const result = await w.jp(...args);
      expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
      expect(result.stderr).not.toContain("internal error");
    }
    fs.writeFileSync(state, text);
    const show = await w.jp("conversation", "show");
    expect(show.code).toBe(1);
    expect(show.stderr).not.toContain("internal error");
    expect(show.stderr.match(/state\.json cannot be read/g)).toHaveLength(1);
    const check = await w.jp("conversation", "doctor", "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("workspace: broken state: state.json cannot be read");
    expect((await w.jp("conversation", "doctor")).stdout).toContain("reset: no conversation is active");
    expect(JSON.parse(fs.readFileSync(state, "utf8"))).toEqual({});
    const asked = await w.jp("q", "again");
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).not.toContain("cannot be read");
  });
});

describe("a lock no live process holds", () => {
  it.each([
    [
      "empty",
      (file: string) => {
        fs.writeFileSync(file, "");
      },
    ],
    [
      "garbage",
      (file: string) => {
        fs.writeFileSync(file, "not a lock");
      },
    ],
    [
      "a folder",
      (file: string) => {
        fs.mkdirSync(file);
      },
    ],
  ])("(%s) is taken over by jp q and reported by doctor", async (_name, make) => {
    w = await qWorkspace({ script: [{ text: "one" }, { text: "two" }], request: "" });
    w.env.JP_LOCK_TIMEOUT = "2";
    expect((await w.jp("q", "hello")).code).toBe(0);
    const folder = w.folder();
    for (const lock of ["events.lock", "turn.lock"]) make(path.join(folder, lock));
    const check = await w.jp("conversation", "doctor", "--check");
    expect(check.stdout).toMatch(/left lock: events\.lock: the lock is broken/);
    expect(check.stdout).toMatch(/left lock: turn\.lock: the lock is broken/);
    const asked = await w.jp("q", "again");
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toContain("two");
    expect(fs.existsSync(path.join(folder, "events.lock"))).toBe(false);
  });
});
