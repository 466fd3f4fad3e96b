// bench/read: reading and parsing a 100 MB log versus a bare chunked read + JSON.parse loop.
import * as fs from "node:fs";
import { readLog } from "../dist/store/log.js";
import { compare, syntheticLog } from "./lib.js";

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

export function readBench() {
  const file = syntheticLog("read-100mb", 100 * 1024 * 1024);
  const { a, b } = compare(
    () => readLog(file),
    () => bareRead(file),
    7,
  );
  return {
    name: "read",
    ratio: a / b,
    limit: 1.3,
    detail: `readLog ${a.toFixed(0)} ms vs bare read+parse ${b.toFixed(0)} ms`,
  };
}
