// The conversation lock on its own, in one process: what a holder record says,
// what counts as left behind, and who may take a lock over. The races between
// processes are in concurrency.test.ts; broken states in broken-state.test.ts.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { LockTimeoutError } from "../../src/store/errors.js";
import {
  acquireLock,
  DEFAULT_LOCK_TIMEOUT_MS,
  isHeld,
  lockLeftBehind,
  lockTimeoutFromEnv,
  removeLeftLock,
} from "../../src/store/lock.js";
import { tempDir } from "../support/workspace.js";

const lockIn = () => path.join(tempDir(), "events.lock");

/** A pid no process has: above the kernel's default pid_max. */
const DEAD_PID = 4_194_304 + 17;

const record = (pid: number, hostname = os.hostname()) =>
  JSON.stringify({ pid, hostname, acquired_at: "2026-01-01T00:00:00Z", token: "t", command: "jp q" });

describe("the conversation lock", () => {
  it("names its holder, counts as held while the holder lives, and is gone once released", () => {
    const file = lockIn();
    const lock = acquireLock(file, { command: "jp q" });
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({
      pid: process.pid,
      hostname: os.hostname(),
      command: "jp q",
    });
    expect(isHeld(file)).toBe(true);
    expect(lockLeftBehind(file)).toBeUndefined();
    expect(removeLeftLock(file)).toBeUndefined();
    expect(fs.existsSync(file)).toBe(true);
    lock.release();
    expect(fs.existsSync(file)).toBe(false);
    expect(isHeld(file)).toBe(false);
  });

  it("release removes only its own lock, not one another holder took since", () => {
    const file = lockIn();
    const lock = acquireLock(file);
    fs.writeFileSync(file, record(process.pid));
    lock.release();
    expect(fs.readFileSync(file, "utf8")).toBe(record(process.pid));
  });

  it("says why a lock is left behind: a dead holder, or a broken record; a holder on another host is not judged", () => {
    const file = lockIn();
    fs.writeFileSync(file, record(DEAD_PID));
    expect(lockLeftBehind(file)).toBe(`the lock's holder, process ${DEAD_PID}, is gone`);
    expect(isHeld(file)).toBe(false);
    fs.writeFileSync(file, "");
    expect(lockLeftBehind(file)).toBe("the lock is broken: it is empty");
    fs.writeFileSync(file, '{"pid":1}');
    expect(lockLeftBehind(file)).toBe("the lock is broken: it does not name a holder");
    fs.writeFileSync(file, record(DEAD_PID, "another-host"));
    expect(lockLeftBehind(file)).toBeUndefined();
  });

  it("is taken over from a dead holder, and removeLeftLock clears one as doctor does", () => {
    const file = lockIn();
    fs.writeFileSync(file, record(DEAD_PID));
    const lock = acquireLock(file, { timeoutMs: 1000 });
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({ pid: process.pid });
    lock.release();
    fs.writeFileSync(file, record(DEAD_PID));
    expect(removeLeftLock(file, "jp doctor")).toBe(`the lock's holder, process ${DEAD_PID}, is gone`);
    expect(fs.existsSync(file)).toBe(false);
  });

  it("times out on a live holder, naming it", () => {
    const file = lockIn();
    const held = acquireLock(file, { command: "jp q" });
    const waited: unknown[] = [];
    try {
      expect(() =>
        acquireLock(file, { timeoutMs: 1000, onWait: (holder) => waited.push(holder?.pid) }),
      ).toThrow(LockTimeoutError);
      expect(() => acquireLock(file, { timeoutMs: 0 })).toThrow(
        `waiting for process ${process.pid} (jp q) holding ${file}`,
      );
      expect(waited).toEqual([process.pid]);
    } finally {
      held.release();
    }
  });

  it("takes its timeout from JP_LOCK_TIMEOUT in seconds, and the default for anything else", () => {
    expect(lockTimeoutFromEnv({ JP_LOCK_TIMEOUT: "2.5" })).toBe(2500);
    expect(lockTimeoutFromEnv({ JP_LOCK_TIMEOUT: "0" })).toBe(0);
    for (const raw of [undefined, "", "soon", "-1"])
      expect(lockTimeoutFromEnv({ JP_LOCK_TIMEOUT: raw })).toBe(DEFAULT_LOCK_TIMEOUT_MS);
  });
});
