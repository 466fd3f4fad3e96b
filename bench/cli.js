// bench/cli: whole commands against `node -e 0` in the same run — start-up and the big views.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, median, syntheticLog } from "./lib.js";

const JP = path.join(path.dirname(fileURLToPath(import.meta.url)), "../bin/jp");

function timeCommand(file, args, cwd, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    execFileSync(file, args, {
      cwd,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    samples.push(performance.now() - start);
  }
  return median(samples);
}

function manyConversations(count) {
  const root = path.join(DATA_DIR, `ws-${count}`);
  const dir = path.join(root, ".jp/conversations");
  if (fs.existsSync(path.join(root, ".ready"))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const small =
    fs
      .readFileSync(syntheticLog("append-100kb", 100 * 1024), "utf8")
      .split("\n")
      .slice(0, 40)
      .join("\n") + "\n";
  for (let i = 0; i < count; i++) {
    const conversation = path.join(dir, `${17000000000 + i}-conversation-${i}`);
    fs.mkdirSync(conversation);
    fs.writeFileSync(path.join(conversation, "events.jsonl"), small);
    fs.writeFileSync(
      path.join(conversation, "metadata.json"),
      JSON.stringify({ title: `conversation ${i}`, created_at: "2026-01-01T00:00:00Z" }),
    );
  }
  fs.writeFileSync(path.join(root, ".ready"), "");
  return root;
}

function bigConversation() {
  const root = path.join(DATA_DIR, "ws-big");
  const dir = path.join(root, ".jp/conversations/17000000000-big");
  if (!fs.existsSync(path.join(dir, "events.jsonl"))) {
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(syntheticLog("print-20mb", 20 * 1024 * 1024), path.join(dir, "events.jsonl"));
    fs.appendFileSync(
      path.join(dir, "events.jsonl"),
      JSON.stringify({
        type: "compaction",
        timestamp: "2027-01-01T00:00:00Z",
        id: "b1",
        from_turn: 1,
        to_turn: 1500,
        reasoning: "strip",
        tool_calls: { policy: "strip", request: true, response: true },
        source: "user",
      }) + "\n",
    );
    fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-01-01T00:00:00Z" }));
  }
  return root;
}

export function cliBench() {
  const cwd = manyConversations(1000);
  const big = bigConversation();
  // Warm the caches the way a user's second run would find them.
  execFileSync(JP, ["conversation", "ls"], { cwd, stdio: "ignore" });
  const node = timeCommand(process.execPath, ["-e", "0"], cwd, 15);
  const version = timeCommand(JP, ["--version"], cwd, 15);
  const help = timeCommand(JP, ["--help"], cwd, 9);
  const ls = timeCommand(JP, ["conversation", "ls"], cwd, 9);
  const print = timeCommand(JP, ["conversation", "print", "17000000000", "--compacted"], big, 5);
  const ratio = version / node;
  return {
    name: "cli",
    ratio,
    limit: 1.5,
    detail:
      `node -e 0 ${node.toFixed(0)} ms; jp --version ${version.toFixed(0)} ms (${ratio.toFixed(2)}x); ` +
      `jp --help ${help.toFixed(0)} ms (${(help / node).toFixed(1)}x); ` +
      `ls of 1,000 conversations ${ls.toFixed(0)} ms (${(ls / node).toFixed(1)}x); ` +
      `print --compacted of 20 MB ${print.toFixed(0)} ms (${(print / node).toFixed(1)}x)`,
  };
}
