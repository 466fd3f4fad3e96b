// bench/append: median cost of appending one event group to a 100 MB log versus a 100 KB one.
import * as fs from "node:fs";
import * as path from "node:path";
import { EventLog } from "../dist/store/log.js";
import { DATA_DIR, compare, syntheticLog } from "./lib.js";

export function appendBench() {
  const big = syntheticLog("append-100mb", 100 * 1024 * 1024);
  const small = syntheticLog("append-100kb", 100 * 1024);
  const logs = [big, small].map((source, i) => {
    const dir = path.join(DATA_DIR, `append-${i}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(source, path.join(dir, "events.jsonl"));
    return new EventLog(dir);
  });
  const group = [
    {
      type: "tool_call_response",
      timestamp: new Date().toISOString(),
      id: "c1",
      is_error: false,
      content: "ok ".repeat(300),
    },
    { type: "chat_response", timestamp: new Date().toISOString(), message: "done ".repeat(100) },
  ];
  const { a, b } = compare(
    () => logs[0].append(group),
    () => logs[1].append(group),
    200,
  );
  return {
    name: "append",
    ratio: a / b,
    limit: 1.5,
    detail: `100 MB ${a.toFixed(3)} ms vs 100 KB ${b.toFixed(3)} ms per group`,
  };
}
