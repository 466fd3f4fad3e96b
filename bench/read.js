// bench/read: reading and parsing a 100 MB log versus a bare chunked read + JSON.parse loop.
import * as fs from "node:fs";
import { readLog } from "../dist/store/log.js";
import * as path from "node:path";
import { compare, DATA_DIR, syntheticLog } from "./lib.js";

/** The baseline: the least any reader must do. */
export function bareRead(file) {
  const fd = fs.openSync(file, "r");
  const chunk = Buffer.allocUnsafe(1 << 20);
  const out = [];
  let carry = "";
  let position = 0;
  for (;;) {
    const n = fs.readSync(fd, chunk, 0, chunk.length, position);
    if (n === 0) break;
    position += n;
    const text = carry + chunk.toString("utf8", 0, n);
    const lines = text.split("\n");
    carry = lines.pop();
    for (const line of lines) out.push(JSON.parse(line));
  }
  fs.closeSync(fd);
  return out;
}

/** A log whose one event holds a 100 MB message: a single line far longer than a read chunk. */
function oneLongLine() {
  const file = path.join(DATA_DIR, "read-one-line-100mb.jsonl");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(DATA_DIR, { recursive: true });
    const message = "the parser reads a quoted field. ".repeat(Math.ceil((100 * 1024 * 1024) / 33));
    fs.writeFileSync(
      file,
      JSON.stringify({ type: "chat_response", timestamp: "2026-01-01T00:00:00Z", message }) + "\n",
    );
  }
  return file;
}

export function readBench() {
  const file = syntheticLog("read-100mb", 100 * 1024 * 1024);
  const { a, b } = compare(
    () => readLog(file),
    () => bareRead(file),
    7,
  );
  const long = oneLongLine();
  const lines = compare(
    () => readLog(long),
    () => readLog(file),
    5,
  );
  return [
    {
      name: "read",
      ratio: a / b,
      limit: 1.3,
      detail: `readLog ${a.toFixed(0)} ms vs bare read+parse ${b.toFixed(0)} ms`,
    },
    {
      name: "read long",
      ratio: lines.a / lines.b,
      limit: 1.5,
      detail: `readLog of one 100 MB line ${lines.a.toFixed(0)} ms vs of 100 MB of normal lines ${lines.b.toFixed(0)} ms`,
    },
  ];
}
