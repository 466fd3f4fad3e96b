import { fork, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { EventLog } from "../../src/store/log.js";
import { acquireLock } from "../../src/store/lock.js";
import { LockTimeoutError } from "../../src/store/errors.js";
import { workerScript } from "../support/workers.js";
import { tempDir } from "../support/workspace.js";

function runWorker(dir: string, id: number, events: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [workerScript("append-worker"), dir, String(id), String(events)], {
      stdio: "inherit",
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      resolve(code ?? -1);
    });
  });
}

type Meta = { worker: number; group: number; index: number; size: number };

describe("concurrent appends", () => {
  it("8 processes appending 500 events each give 4,000 well-formed lines with every group contiguous", async () => {
    const dir = tempDir();
    const codes = await Promise.all(Array.from({ length: 8 }, (_, w) => runWorker(dir, w, 500)));
    expect(codes).toEqual(Array(8).fill(0));

    const raw = fs.readFileSync(path.join(dir, "events.jsonl"), "utf8");
    const lines = raw.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(4000);
    const metas = lines.map((l) => (JSON.parse(l) as { metadata: Meta }).metadata);
    for (let i = 0; i < metas.length;) {
      const first = metas[i]!;
      expect(first.index).toBe(0);
      for (let k = 0; k < first.size; k++) {
        expect(metas[i + k]).toMatchObject({ worker: first.worker, group: first.group, index: k });
      }
      i += first.size;
    }
    const perWorker = new Map<number, number>();
    for (const m of metas) perWorker.set(m.worker, (perWorker.get(m.worker) ?? 0) + 1);
    expect([...perWorker.values()]).toEqual(Array(8).fill(500));
  });

  it("a writer killed with SIGKILL mid-append, 20 times, leaves every committed event readable", async () => {
    const dir = tempDir();
    const log = new EventLog(dir);
    let committedEvents = 0;
    for (let round = 0; round < 20; round++) {
      const committed = await new Promise<number>((resolve) => {
        let count = 0;
        const child = fork(workerScript("append-worker"), [dir, String(round), "100000", "40"], {
          stdio: "ignore",
        });
        child.on("message", (m: { size: number }) => {
          count += m.size;
          // Kill at a varying point, usually while the next group is being written.
          if (count > 30 + round * 7) child.kill("SIGKILL");
        });
        child.on("exit", () => {
          resolve(count);
        });
      });
      committedEvents += committed;
      const read = log.read();
      // Everything acknowledged is readable; a group in flight may or may not have landed.
      expect(read.events.length).toBeGreaterThanOrEqual(committedEvents);
      committedEvents = read.events.length;
      for (const e of read.events) expect(e.type).toBe("chat_response");
    }
    // A final locked write quarantines any torn tail; nothing committed is lost.
    const before = log.read().events.length;
    log.append([{ type: "turn_start", timestamp: "2026-01-01T00:00:00Z" }]);
    expect(log.read().events.length).toBe(before + 1);
  });

  it("a writer killed while its group is being written leaves a torn tail that readers skip and the next write quarantines", async () => {
    const dir = tempDir();
    const log = new EventLog(dir);
    const file = path.join(dir, "events.jsonl");
    const eventBytes = 4 * 1024 * 1024;
    let torn = 0;
    for (let round = 0; round < 6; round++) {
      const committed = await new Promise<number>((resolve, reject) => {
        let count = 0;
        // Groups of 2 to 4 events of 4 MB: each group is one write of 8 to 16 MB.
        const child = fork(
          workerScript("append-worker"),
          [dir, String(round), "1000", "4", String(eventBytes)],
          {
            stdio: "ignore",
          },
        );
        child.on("message", (m: { size: number }) => {
          count += m.size;
          if (count < 2) return;
          // Watch the file grow past what is committed, and kill the writer mid-write.
          const committedSize = fs.statSync(file).size;
          const deadline = Date.now() + 10_000;
          while (fs.statSync(file).size <= committedSize && Date.now() < deadline) {
            // Busy wait: the write lasts a few milliseconds.
          }
          child.kill("SIGKILL");
        });
        child.on("error", reject);
        child.on("exit", () => {
          resolve(count);
        });
      });
      const read = log.read();
      if (read.torn) torn += 1;
      // Everything acknowledged is readable, and only whole groups are: never part of the torn one.
      expect(read.events.length).toBeGreaterThanOrEqual(committed);
      const metas = read.events.map((e) => (e.type === "chat_response" ? e.metadata : undefined) as Meta);
      for (let i = 0; i < metas.length; i += metas[i]!.size) {
        expect(metas[i]!.index).toBe(0);
        expect(metas[i + metas[i]!.size - 1]).toMatchObject({ group: metas[i]!.group });
      }
      // The next locked write moves the torn bytes to the quarantine file; nothing committed is lost.
      let quarantined = 0;
      log.append([{ type: "turn_start", timestamp: "2026-01-01T00:00:00Z" }], {
        onQuarantine: (bytes) => (quarantined = bytes),
      });
      expect(quarantined).toBe(read.torn?.bytes ?? 0);
      const after = log.read();
      expect(after.torn).toBeUndefined();
      expect(after.events).toHaveLength(read.events.length + 1);
      fs.rmSync(file);
      fs.rmSync(path.join(dir, "events.quarantine"), { force: true });
    }
    // The kill lands inside the write: the trials did produce torn tails.
    expect(torn).toBeGreaterThanOrEqual(3);
  });

  it("a second writer times out naming the holder's pid", () => {
    const dir = tempDir();
    const lockPath = path.join(dir, "events.lock");
    // A live holder: this very process, under another token.
    fs.writeFileSync(
      lockPath,
      JSON.stringify({ pid: process.pid, hostname: os.hostname(), acquired_at: "", token: "other" }),
    );
    const waits: unknown[] = [];
    let error: unknown;
    try {
      acquireLock(lockPath, { timeoutMs: 400, onWait: (h) => waits.push(h) });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(LockTimeoutError);
    expect((error as Error).message).toContain(`process ${process.pid}`);
    expect(waits).toHaveLength(1);
  });

  it("takes over a stale lock left by a dead process", async () => {
    const dir = tempDir();
    const lockPath = path.join(dir, "events.lock");
    const dead = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ["-e", "0"]);
      child.on("exit", () => {
        resolve(child.pid!);
      });
    });
    fs.writeFileSync(
      lockPath,
      JSON.stringify({ pid: dead, hostname: os.hostname(), acquired_at: "", token: "dead" }),
    );
    const lock = acquireLock(lockPath, { timeoutMs: 2000 });
    expect((JSON.parse(fs.readFileSync(lockPath, "utf8")) as { pid: number }).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lockPath)).toBe(false);
  });
});

describe("creating conversations concurrently", () => {
  it("16 processes creating at the same instant with the same clock get distinct ids, 3 rounds", async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, ".jp"));
    const worker = workerScript("create-worker");
    const ids: string[] = [];
    for (let round = 0; round < 3; round++) {
      const startAt = Date.now() + 1500;
      const results = await Promise.all(
        Array.from(
          { length: 16 },
          (_, i) =>
            new Promise<{ code: number; out: string; err: string }>((resolve, reject) => {
              const child = spawn(process.execPath, [
                worker,
                root,
                String(startAt),
                i % 2 ? "same title" : "",
              ]);
              let out = "";
              let err = "";
              child.stdout.on("data", (d: Buffer) => (out += d.toString()));
              child.stderr.on("data", (d: Buffer) => (err += d.toString()));
              child.on("error", reject);
              child.on("exit", (code) => {
                resolve({ code: code ?? -1, out, err });
              });
            }),
        ),
      );
      expect(results.map((r) => r.err)).toEqual(Array(16).fill(""));
      expect(results.map((r) => r.code)).toEqual(Array(16).fill(0));
      ids.push(...results.map((r) => r.out));
    }
    expect(new Set(ids).size).toBe(48);
    // Every id names exactly one folder.
    const folders = fs.readdirSync(path.join(root, ".jp/conversations")).filter((f) => /^\d/.test(f));
    expect(folders).toHaveLength(48);
    fs.rmSync(root, { recursive: true, force: true });
  });
});
