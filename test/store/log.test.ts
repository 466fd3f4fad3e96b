import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { EventLog, readLines, readLog } from "../../src/store/log.js";
import { MalformedLogError } from "../../src/store/errors.js";
import { tempDir } from "../support/workspace.js";

const ts = "2026-01-01T00:00:00Z";

describe("EventLog", () => {
  it("round-trips unknown kinds and unknown fields byte for byte through read and append", () => {
    const source = new EventLog(tempDir());
    const lines = [
      `{"type":"turn_start","timestamp":"${ts}"}`,
      `{"type":"holographic_memo","timestamp":"${ts}","weird":{"z":1,"a":[true,null,1.5]},"émoji":"🚀"}`,
      `{"content":"field order kept","type":"chat_request","timestamp":"${ts}","future_field":42}`,
    ];
    fs.writeFileSync(source.file, lines.join("\n") + "\n");
    const copy = new EventLog(tempDir());
    copy.append(source.read().events);
    expect(fs.readFileSync(copy.file, "utf8")).toBe(lines.join("\n") + "\n");
  });

  it("writes a group with one write at the end of the log", () => {
    const log = new EventLog(tempDir());
    log.append([{ type: "turn_start", timestamp: ts }]);
    log.append([
      { type: "chat_request", timestamp: ts, content: "a" },
      { type: "chat_response", timestamp: ts, message: "b" },
    ]);
    expect(log.read().events.map((e) => e.type)).toEqual(["turn_start", "chat_request", "chat_response"]);
  });

  it("tolerates a torn last line, then quarantines it on the next locked write", () => {
    const log = new EventLog(tempDir());
    log.append([{ type: "chat_request", timestamp: ts, content: "kept" }]);
    const torn = `{"type":"chat_response","timestamp":"${ts}","mess`;
    fs.appendFileSync(log.file, torn);

    const read = log.read();
    expect(read.events).toHaveLength(1);
    expect(read.torn).toEqual({ offset: read.size, bytes: torn.length });

    log.append([{ type: "chat_response", timestamp: ts, message: "after" }]);
    const after = log.read();
    expect(after.torn).toBeUndefined();
    expect(after.events.map((e) => e.type)).toEqual(["chat_request", "chat_response"]);
    expect(fs.readFileSync(log.quarantineFile, "utf8")).toContain(torn);
  });

  it("treats a complete JSON object without its newline as torn, never as committed", () => {
    const log = new EventLog(tempDir());
    fs.writeFileSync(log.file, `{"type":"turn_start","timestamp":"${ts}"}`);
    expect(log.read().events).toHaveLength(0);
    log.append([{ type: "turn_start", timestamp: ts }]);
    expect(fs.readFileSync(log.quarantineFile, "utf8")).toContain('"turn_start"');
  });

  it("fails on a malformed middle line with file:line and a doctor hint", () => {
    const log = new EventLog(tempDir(), "1234");
    fs.writeFileSync(
      log.file,
      [
        `{"type":"turn_start","timestamp":"${ts}"}`,
        `{"type":"chat_request","timestamp":`,
        `{"type":"turn_start","timestamp":"${ts}"}`,
        "",
      ].join("\n"),
    );
    let error: unknown;
    try {
      log.read();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MalformedLogError);
    expect((error as MalformedLogError).message).toMatch(
      new RegExp(`^${log.file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: not valid JSON`),
    );
    expect((error as MalformedLogError).hint).toBe(
      "run `jp conversation doctor 1234` to quarantine the bad line",
    );
  });

  it("names the schema problem of a valid-JSON line that breaks its kind", () => {
    const log = new EventLog(tempDir());
    fs.writeFileSync(log.file, `{"type":"tool_call_response","timestamp":"${ts}","id":"x","content":"c"}\n`);
    expect(() => log.read()).toThrow(/events\.jsonl:1: invalid tool_call_response at `is_error`/);
  });

  it("reads lines across chunk boundaries, multi-byte characters included", () => {
    const dir = tempDir();
    const file = path.join(dir, "big.jsonl");
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(JSON.stringify({ i, text: "ü🚀".repeat(i % 700) }));
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const read = [...readLines(file)].map((l) => l.text);
    expect(read).toEqual(lines);
  });
});

describe("symbolic links in a workspace", () => {
  it("a log that is a link is refused, not written through", () => {
    const d = tempDir();
    const outside = path.join(tempDir(), "victim.txt");
    fs.writeFileSync(outside, "precious\n");
    fs.symlinkSync(outside, path.join(d, "events.jsonl"));
    const append = () => {
      new EventLog(d).append([{ type: "turn_start", timestamp: ts }]);
    };
    expect(append).toThrow(/events\.jsonl is a symbolic link; jp does not write through links/);
    expect(fs.readFileSync(outside, "utf8")).toBe("precious\n");
  });

  it("a conversation folder that is a link is refused, and nothing is written in its target", () => {
    const target = tempDir();
    const link = path.join(tempDir(), "17000000000");
    fs.symlinkSync(target, link);
    const append = () => {
      new EventLog(link).append([{ type: "turn_start", timestamp: ts }]);
    };
    expect(append).toThrow(/17000000000 is a symbolic link/);
    expect(fs.readdirSync(target)).toEqual([]);
  });
});

describe("deeply nested values", () => {
  it("a line nested 200,000 levels deep is a malformed line naming file and line, not a stack overflow", () => {
    const d = tempDir();
    const depth = 200_000;
    fs.writeFileSync(
      path.join(d, "events.jsonl"),
      JSON.stringify({ type: "turn_start", timestamp: ts }) +
        "\n" +
        `{"type":"chat_request","timestamp":"${ts}","content":"x","metadata":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}\n`,
    );
    const read = () => new EventLog(d).read();
    expect(read).toThrow(MalformedLogError);
    expect(read).toThrow(/events\.jsonl:2: nested more than 1000 levels deep/);
  });

  it("brackets inside strings do not count", () => {
    const d = tempDir();
    const content = "[".repeat(5000);
    fs.writeFileSync(
      path.join(d, "events.jsonl"),
      JSON.stringify({ type: "chat_request", timestamp: ts, content }) + "\n",
    );
    expect(new EventLog(d).read().events).toHaveLength(1);
  });
});

describe("readLines", () => {
  it("yields lines longer than a read chunk whole, with offsets and numbers, between short lines", () => {
    const d = tempDir();
    const file = path.join(d, "lines.jsonl");
    // Multi-byte characters straddle every chunk boundary somewhere in 3.5 MB of them.
    const long = "é🚀x".repeat(500_000);
    const lines = ["short", long, "between", long + long, "last"];
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const read = [...readLines(file)];
    expect(read.map((l) => l.text)).toEqual(lines);
    expect(read.map((l) => l.line)).toEqual([1, 2, 3, 4, 5]);
    let offset = 0;
    read.forEach((l, i) => {
      expect(l.offset).toBe(offset);
      offset += Buffer.byteLength(lines[i]!) + 1;
      expect(l.end).toBe(offset);
    });
  });

  it("reports a torn long tail once, with its offset and every byte", () => {
    const d = tempDir();
    const file = path.join(d, "lines.jsonl");
    const tail = "y".repeat(3 * 1024 * 1024 + 17);
    fs.writeFileSync(file, `first\n${tail}`);
    const torn: [number, number][] = [];
    const read = [...readLines(file, { onTorn: (offset, bytes) => torn.push([offset, bytes]) })];
    expect(read.map((l) => l.text)).toEqual(["first"]);
    expect(torn).toEqual([[6, tail.length]]);
  });
});

describe("readLog progress", () => {
  it("reports bytes read every few megabytes of a large log, then the end", () => {
    const d = tempDir();
    const line = JSON.stringify({ type: "chat_request", timestamp: ts, content: "x".repeat(1000) }) + "\n";
    fs.writeFileSync(path.join(d, "events.jsonl"), line.repeat(10_000));
    const size = line.length * 10_000;
    const seen: [number, number][] = [];
    readLog(path.join(d, "events.jsonl"), { onProgress: (done, total) => seen.push([done, total]) });
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every(([, total]) => total === size)).toBe(true);
    expect(seen.at(-1)).toEqual([size, size]);
    expect(seen.map(([done]) => done)).toEqual([...seen.map(([done]) => done)].sort((a, b) => a - b));
  });
});

describe("a group whose writer was killed between two of its lines", () => {
  const ts = "2026-01-01T00:00:00Z";
  const line = (message: string) => JSON.stringify({ type: "chat_response", timestamp: ts, message }) + "\n";

  /** A log whose committed group is followed by two complete lines of a three-line group. */
  function killedMidGroup(): { dir: string; log: EventLog; committed: number } {
    const dir = tempDir();
    const log = new EventLog(dir);
    log.append([{ type: "turn_start", timestamp: ts }]);
    const committed = fs.statSync(log.file).size;
    const group = [line("one"), line("two"), line("three")];
    const stat = fs.statSync(log.file);
    // What the writer recorded before its write, and the first two lines it got out.
    fs.writeFileSync(
      log.pendingFile,
      `${stat.dev} ${stat.ino} ${committed} ${committed + Buffer.byteLength(group.join(""))}\n`,
    );
    fs.appendFileSync(log.file, group[0]! + group[1]!);
    return { dir, log, committed };
  }

  it("is not read: readers stop where it starts and report it as torn", () => {
    const { log, committed } = killedMidGroup();
    const read = log.read();
    expect(read.events.map((e) => e.type)).toEqual(["turn_start"]);
    expect(read.size).toBe(committed);
    expect(read.torn).toEqual({ offset: committed, bytes: Buffer.byteLength(line("one") + line("two")) });
    expect([...readLines(log.file)].map((l) => l.line)).toEqual([1]);
  });

  it("is moved to the quarantine file by the next write, which then lands where it started", () => {
    const { log, committed } = killedMidGroup();
    let moved = 0;
    log.append([{ type: "turn_start", timestamp: ts }], { onQuarantine: (bytes) => (moved = bytes) });
    expect(moved).toBe(Buffer.byteLength(line("one") + line("two")));
    expect(fs.readFileSync(log.quarantineFile, "utf8")).toContain(`unfinished group at byte ${committed}`);
    expect(log.read().events.map((e) => e.type)).toEqual(["turn_start", "turn_start"]);
    expect(fs.existsSync(log.pendingFile)).toBe(false);
  });

  it("is read in full when the record names another log (a folder copied with its record)", () => {
    const { log } = killedMidGroup();
    const [, , start, end] = fs.readFileSync(log.pendingFile, "utf8").trim().split(" ");
    fs.writeFileSync(log.pendingFile, `1 2 ${start} ${end}\n`);
    expect(log.read().events).toHaveLength(3);
  });

  it("leaves no record behind after a write that finished", () => {
    const dir = tempDir();
    const log = new EventLog(dir);
    log.append([{ type: "turn_start", timestamp: ts }]);
    expect(fs.existsSync(log.pendingFile)).toBe(false);
  });
});
