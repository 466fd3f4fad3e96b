// bench/print: `jp conversation print` of a 200 MB conversation to a file — peak memory against the log's size.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, syntheticLog } from "./lib.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JP = path.join(HERE, "../bin/jp");

export function printBench() {
  const root = path.join(DATA_DIR, "ws-print-200mb");
  const dir = path.join(root, ".jp/conversations/17000000000-print");
  const log = path.join(dir, "events.jsonl");
  if (!fs.existsSync(log)) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(syntheticLog("print-200mb", 200 * 1024 * 1024), log);
    fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-01-01T00:00:00Z" }));
  }
  const rssFile = path.join(DATA_DIR, "print.rss");
  const out = path.join(DATA_DIR, "print-200mb.out");
  const fd = fs.openSync(out, "w");
  const start = performance.now();
  const run = spawnSync(
    process.execPath,
    ["--import", path.join(HERE, "peak-rss.mjs"), JP, "conversation", "print", "17000000000"],
    {
      cwd: root,
      env: { ...process.env, NO_COLOR: "1", JP_PEAK_RSS_FILE: rssFile },
      stdio: ["ignore", fd, "inherit"],
    },
  );
  const ms = performance.now() - start;
  fs.closeSync(fd);
  if (run.status !== 0) throw new Error(`jp conversation print exited ${run.status}`);
  const peak = Number(fs.readFileSync(rssFile, "utf8"));
  const size = fs.statSync(log).size;
  return {
    name: "print",
    ratio: peak / size,
    limit: 2,
    detail: `peak memory ${(peak / 2 ** 20).toFixed(0)} MB printing a ${(size / 2 ** 20).toFixed(0)} MB log (${(fs.statSync(out).size / 2 ** 20).toFixed(0)} MB of output in ${(ms / 1000).toFixed(1)} s)`,
  };
}
