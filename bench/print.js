// bench/print: `jp conversation print` of a 200 MB conversation to a file, plain and `--compacted`
// (with a compaction over its first half) — peak memory against the log's size.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, syntheticLog } from "./lib.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JP = path.join(HERE, "../bin/jp");

/** Peak memory of `jp conversation print 17000000000 ...args` in `root`, to a file. */
function peakOfPrint(root, args) {
  const rssFile = path.join(DATA_DIR, "print.rss");
  const out = path.join(DATA_DIR, "print-200mb.out");
  const fd = fs.openSync(out, "w");
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--import", path.join(HERE, "peak-rss.mjs"), JP, "conversation", "print", "17000000000", ...args],
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", JP_PEAK_RSS_FILE: rssFile },
      stdio: ["ignore", fd, "inherit"],
    },
  );
  const ms = performance.now() - start;
  fs.closeSync(fd);
  if (run.status !== 0) throw new Error(`jp conversation print ${args.join(" ")} exited ${run.status}`);
  return { peak: Number(fs.readFileSync(rssFile, "utf8")), ms, output: fs.statSync(out).size };
}

/** A workspace whose one conversation is the 200 MB log, with `extra` events appended. */
function printWorkspace(name, extra = []) {
  const root = path.join(DATA_DIR, name);
  const dir = path.join(root, ".jp/conversations/17000000000-print");
  const log = path.join(dir, "events.jsonl");
  if (!fs.existsSync(log)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(syntheticLog("print-200mb", 200 * 1024 * 1024), log);
    for (const e of extra) fs.appendFileSync(log, `${JSON.stringify(e)}\n`);
    fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-01-01T00:00:00Z" }));
  }
  return { root, log };
}

export function printBench() {
  const plain = printWorkspace("ws-print-200mb");
  const compacted = printWorkspace("ws-print-200mb-compacted", [
    {
      type: "compaction",
      timestamp: "2027-01-01T00:00:00Z",
      id: "kbench01",
      from_turn: 0,
      to_turn: 7000,
      reasoning: "strip",
      tool_calls: { policy: "strip", request: true, response: true },
      source: "user",
    },
  ]);
  const result = (name, ws, args) => {
    const { peak, ms, output } = peakOfPrint(ws.root, args);
    const size = fs.statSync(ws.log).size;
    return {
      name,
      ratio: peak / size,
      limit: 2,
      detail: `peak memory ${(peak / 2 ** 20).toFixed(0)} MB printing a ${(size / 2 ** 20).toFixed(0)} MB log (${(output / 2 ** 20).toFixed(0)} MB of output in ${(ms / 1000).toFixed(1)} s)`,
    };
  };
  return [result("print", plain, []), result("print -c", compacted, ["--compacted"])];
}
