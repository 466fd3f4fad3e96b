// bench/project: read + parse + project of a 100 MB conversation with 20 stacked
// compactions of mixed kinds, versus read + parse alone, in the same run.
import * as fs from "node:fs";
import { project } from "../dist/compaction/index.js";
import { readLog } from "../dist/store/log.js";
import { compare, rng, syntheticLog } from "./lib.js";

function compactions(turnCount) {
  const random = rng(3);
  const kinds = [
    (c) => ({ ...c, summary: { text: "summary ".repeat(50), source: "derived" } }),
    (c) => ({ ...c, reasoning: "strip" }),
    (c) => ({ ...c, tool_calls: { policy: "strip", request: true, response: true } }),
    (c) => ({ ...c, tool_calls: { policy: "omit" } }),
    (c) => ({
      ...c,
      tool_calls: { policy: "strip", request: false, response: true },
      tool_overrides: {
        grep: { policy: "omit" },
        read_file: { policy: "strip", request: false, response: false },
      },
    }),
    (c) => ({ ...c, reasoning: "strip", deferred_until_turn: turnCount + 5 }),
  ];
  const out = [];
  for (let i = 0; i < 20; i++) {
    const from = Math.floor(random() * turnCount * 0.9);
    const to = Math.min(turnCount - 1, from + Math.floor(random() * turnCount * 0.3));
    const base = {
      type: "compaction",
      timestamp: new Date(Date.UTC(2027, 0, 1, 0, 0, i)).toISOString(),
      id: `b${i}`,
      from_turn: from,
      to_turn: to,
      source: "user",
    };
    out.push(kinds[i % kinds.length](base));
  }
  out.push({
    type: "compaction_reset",
    timestamp: new Date(Date.UTC(2027, 0, 2)).toISOString(),
    ids: ["b7"],
  });
  return out;
}

export function projectBench() {
  const file = syntheticLog("project-100mb", 100 * 1024 * 1024);
  const withOverlays = file.replace(/\.jsonl$/, "-compacted.jsonl");
  if (!fs.existsSync(withOverlays)) {
    const turnCount = readLog(file).events.filter((e) => e.type === "turn_start").length;
    fs.copyFileSync(file, withOverlays);
    fs.appendFileSync(
      withOverlays,
      compactions(turnCount)
        .map((c) => JSON.stringify(c) + "\n")
        .join(""),
    );
  }
  let projected = 0;
  const { a, b } = compare(
    () => (projected = project(readLog(withOverlays).events).events.length),
    () => readLog(withOverlays),
    7,
  );
  return {
    name: "project",
    ratio: a / b,
    limit: 1.5,
    detail: `read+parse+project ${a.toFixed(0)} ms vs read+parse ${b.toFixed(0)} ms (${projected} projected events)`,
  };
}
