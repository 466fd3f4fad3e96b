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
import { LockTimeoutError, type LockHolder } from "./errors.js";

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
  try {
    const holder: unknown = JSON.parse(fs.readFileSync(path, "utf8"));
    return isLockHolder(holder) ? holder : undefined;
  } catch {
    return undefined;
  }
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
  fs.writeFileSync(tmp, JSON.stringify(holder));
  try {
    fs.linkSync(tmp, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}

/**
 * Remove a lock whose holder is dead. Takeovers are serialised by a second
 * lock so two waiters cannot both remove a lock and one of them a fresh one.
 */
function takeOverStale(path: string, seen: LockHolder, me: LockHolder): void {
  const guard = `${path}.takeover`;
  if (!tryCreate(guard, me)) {
    if (isStale(readHolder(guard))) fs.rmSync(guard, { force: true });
    return;
  }
  try {
    const current = readHolder(path);
    if (current && current.token === seen.token) fs.rmSync(path, { force: true });
  } finally {
    fs.rmSync(guard, { force: true });
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

/** Take the lock at `path`, waiting up to the timeout. Synchronous by design: held only around a write. */
export function acquireLock(path: string, options: LockOptions = {}): HeldLock {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const me: LockHolder = {
    pid: process.pid,
    hostname: os.hostname(),
    acquired_at: new Date().toISOString(),
    token: uniqueToken(),
    ...(options.command ? { command: options.command } : {}),
  };
  // A monotonic clock that needs none of Node's perf_hooks modules (performance.now loads eight).
  const started = process.hrtime.bigint();
  let delay = 1;
  let announced = false;
  for (;;) {
    if (tryCreate(path, me)) break;
    const holder = readHolder(path);
    if (holder && isStale(holder)) {
      takeOverStale(path, holder, me);
      continue;
    }
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
      if (current?.token === me.token) fs.rmSync(path, { force: true });
    },
  };
}
