// Owns the exclusive cross-process lock of a conversation log.
//
// A lock is a file created atomically with link(2) from a fully written temp
// file, so a holder's record is never seen half-written. It names the holder's
// pid and host, which lets a waiter say who it waits for and lets anyone detect
// that the holder died (no such pid on this host) and take the lock over.
// proper-lockfile and friends detect staleness by mtime only and cannot name
// the holder, which is why this file exists.
// The one module, not events/index.js: that would load the event schemas (zod) for every command.
import { isJsonObject } from "../events/json.js";
import { errnoCode } from "../errors.js";
import * as fs from "node:fs";
import * as os from "node:os";
import { uniqueToken } from "./unique.js";
import { LockTimeoutError, LogWriteError, type LockHolder } from "./errors.js";
import { removeFile } from "../remove-file.js";

export interface LockOptions {
  /** Give up after this long (milliseconds). */
  timeoutMs?: number;
  /** Called once when the lock is busy, with the holder, so the caller can say why it waits. */
  onWait?: (holder: LockHolder | undefined) => void;
  /** Shown to other waiters. */
  command?: string;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;

export function lockTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.JP_LOCK_TIMEOUT;
  if (raw === undefined || raw === "") return DEFAULT_LOCK_TIMEOUT_MS;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_LOCK_TIMEOUT_MS;
}

export interface HeldLock {
  path: string;
  release(): void;
}

function isLockHolder(value: unknown): value is LockHolder {
  return (
    isJsonObject(value) &&
    typeof value.pid === "number" &&
    typeof value.hostname === "string" &&
    typeof value.acquired_at === "string" &&
    typeof value.token === "string"
  );
}

function readHolder(path: string): LockHolder | undefined {
  const state = readLock(path);
  return state.kind === "held" ? state.holder : undefined;
}

/**
 * What is at a lock's path. jp writes a lock whole (link from a complete
 * file), so a lock that cannot be read as one (empty, garbage, not a file,
 * unreadable) was never a live jp's: it is `broken`, and may be taken over.
 */
const NOT_A_FILE = "it is a folder";

type LockState =
  | { kind: "absent" }
  | { kind: "held"; holder: LockHolder }
  | { kind: "broken"; identity: string; why: string };

function readLock(path: string): LockState {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(path);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { kind: "absent" };
    throw error;
  }
  const identity = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  if (stat.isDirectory()) return { kind: "broken", identity, why: NOT_A_FILE };
  if (!stat.isFile()) return { kind: "broken", identity, why: "it is a link or a special file" };
  try {
    const holder: unknown = JSON.parse(fs.readFileSync(path, "utf8"));
    if (isLockHolder(holder)) return { kind: "held", holder };
    return { kind: "broken", identity, why: "it does not name a holder" };
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return { kind: "absent" };
    return { kind: "broken", identity, why: stat.size === 0 ? "it is empty" : "it cannot be read" };
  }
}

/** Why the lock at `path` may be taken over (its holder died, or it is broken), or undefined while it holds. */
export function lockLeftBehind(path: string): string | undefined {
  const state = readLock(path);
  if (state.kind === "broken") return `the lock is broken: ${state.why}`;
  if (state.kind === "held" && isStale(state.holder))
    return `the lock's holder, process ${state.holder.pid}, is gone`;
  return undefined;
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === "EPERM";
  }
}

function isStale(holder: LockHolder | undefined): boolean {
  return holder !== undefined && holder.hostname === os.hostname() && !processIsAlive(holder.pid);
}

/** Create `path` atomically holding `holder`, or return false if it exists. */
function tryCreate(path: string, holder: LockHolder): boolean {
  const tmp = `${path}.${holder.token}.tmp`;
  try {
    fs.writeFileSync(tmp, JSON.stringify(holder));
  } catch (error) {
    // A full disk leaves an empty file behind, and Node's error names no path: remove it, name the lock.
    removeFile(tmp);
    throw new LogWriteError(path, error, "write");
  }
  try {
    fs.linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    removeFile(tmp);
  }
}

/**
 * Remove a lock whose holder is dead, or that is broken, if it is still the
 * one seen. Takeovers are serialised by a second lock so two waiters cannot
 * both remove a lock and one of them a fresh one.
 */
function takeOver(path: string, seen: LockState, me: LockHolder): void {
  const guard = `${path}.takeover`;
  if (!tryCreate(guard, me)) {
    if (isStale(readHolder(guard))) removeFile(guard);
    return;
  }
  try {
    const current = readLock(path);
    const same =
      (seen.kind === "held" && current.kind === "held" && current.holder.token === seen.holder.token) ||
      (seen.kind === "broken" && current.kind === "broken" && current.identity === seen.identity);
    // A folder in the lock's place is removed only when empty (rmdir): nothing of anyone's is lost.
    if (same && current.kind === "broken" && current.why === NOT_A_FILE) fs.rmdirSync(path);
    else if (same) removeFile(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") throw error;
  } finally {
    removeFile(guard);
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether a live process holds the lock at `path` (a lock left by a dead one does not count). */
export function isHeld(path: string): boolean {
  const holder = readHolder(path);
  return holder !== undefined && !isStale(holder);
}

/** Remove the lock at `path` if its holder is gone or it is broken (doctor's repair); what was wrong, if anything. */
export function removeLeftLock(path: string, command?: string): string | undefined {
  const why = lockLeftBehind(path);
  if (why !== undefined) takeOver(path, readLock(path), holderRecord(command));
  return why;
}

function holderRecord(command?: string): LockHolder {
  return {
    pid: process.pid,
    hostname: os.hostname(),
    acquired_at: new Date().toISOString(),
    token: uniqueToken(),
    ...(command ? { command } : {}),
  };
}

/** Take the lock at `path`, waiting up to the timeout. Synchronous by design: held only around a write. */
export function acquireLock(path: string, options: LockOptions = {}): HeldLock {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const me = holderRecord(options.command);
  // A monotonic clock that needs none of Node's perf_hooks modules (performance.now loads eight).
  const started = process.hrtime.bigint();
  let delay = 1;
  let announced = false;
  for (;;) {
    if (tryCreate(path, me)) break;
    const state = readLock(path);
    if (state.kind === "absent") continue;
    if (state.kind === "broken" || isStale(state.holder)) {
      takeOver(path, state, me);
      continue;
    }
    const holder = state.holder;
    const waited = Number(process.hrtime.bigint() - started) / 1e6;
    if (waited >= timeoutMs) throw new LockTimeoutError(path, holder, waited);
    if (!announced && waited > 250) {
      announced = true;
      options.onWait?.(holder);
    }
    sleep(delay);
    delay = Math.min(delay * 2, 50);
  }
  return {
    path,
    release() {
      const current = readHolder(path);
      if (current?.token === me.token) removeFile(path);
    },
  };
}
