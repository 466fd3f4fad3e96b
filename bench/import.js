// bench/import: `jp conversation import` of a 250 MB JP conversation (events.json) into a fresh
// workspace, against a bare node process reading and parsing the same file and writing its events
// as synced JSON lines (bench/floor.js's way of measuring: both pay a process start). Progress is shown on a terminal; here stderr is not one.
// And `print jp`: printing a 100 MB JP conversation read in place, against printing it from jp's own log.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, median } from "./lib.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JP = path.join(HERE, "../bin/jp");
const FLOOR = path.join(HERE, "floor.js");
const SIZE = 250 * 1024 * 1024;

/** A JP conversation folder whose events.json is about `size` bytes of turns with reasoning and tool calls. */
function jpConversation(size = SIZE, name = "jp-import-250mb") {
  const dir = path.join(DATA_DIR, name, "17000000000-big-import");
  const file = path.join(dir, "events.json");
  if (fs.existsSync(file)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const fd = fs.openSync(file, "w");
  const words = "the parser splits each line on commas and quotes the fields it keeps ".repeat(12);
  let written = 0;
  let second = 0;
  const ts = () => {
    const d = new Date(Date.UTC(2025, 0, 1) + 1000 * second++);
    return d.toISOString().replace("T", " ").replace("Z", "000");
  };
  fs.writeSync(fd, "[\n");
  for (let turn = 0; written < size; turn++) {
    const events = [
      { timestamp: ts(), type: "turn_start" },
      { timestamp: ts(), type: "chat_request", content: `question ${turn}: ${words}` },
      { timestamp: ts(), type: "chat_response", reasoning: `thinking ${turn}: ${words}` },
      {
        timestamp: ts(),
        type: "tool_call_request",
        id: `call_${turn}`,
        name: "fs_read_file",
        arguments: { path: `src/f${turn}.rs` },
      },
      {
        timestamp: ts(),
        type: "tool_call_response",
        id: `call_${turn}`,
        content: `${words}${words}`,
        is_error: false,
      },
      { timestamp: ts(), type: "chat_response", message: `answer ${turn}: ${words}` },
    ];
    const text = `${turn === 0 ? "" : ",\n"}${events.map((e) => JSON.stringify(e)).join(",\n")}`;
    written += fs.writeSync(fd, text);
  }
  fs.writeSync(fd, "\n]\n");
  fs.closeSync(fd);
  fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ title: "a big conversation" }));
  return dir;
}

function timeRun(file, args, cwd, stdout = "ignore") {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(file, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1" },
      stdio: ["ignore", stdout, "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${path.basename(file)} ${args.join(" ")} exited ${code}: ${stderr}`));
      else resolve(performance.now() - start);
    });
  });
}

/**
 * `jp conversation print` of a 100 MB JP conversation read in place (a JP
 * workspace: .jp/.id, events.json) against printing the same conversation
 * from jp's own log (imported), each to a file, in the same run.
 */
async function printJpBench() {
  const source = jpConversation(100 * 1024 * 1024, "jp-print-100mb");
  const inPlace = path.join(DATA_DIR, "ws-print-jp-in-place");
  const own = path.join(DATA_DIR, "ws-print-jp-own");
  if (!fs.existsSync(path.join(inPlace, ".jp/.id"))) {
    fs.mkdirSync(path.join(inPlace, ".jp/conversations"), { recursive: true });
    fs.cpSync(source, path.join(inPlace, ".jp/conversations", path.basename(source)), { recursive: true });
    fs.writeFileSync(path.join(inPlace, ".jp/.id"), "bench");
    fs.writeFileSync(path.join(inPlace, ".jp/config.toml"), "");
  }
  if (!fs.existsSync(path.join(own, ".jp/conversations"))) {
    fs.mkdirSync(path.join(own, ".jp/conversations"), { recursive: true });
    await timeRun(JP, ["conversation", "import", source], own);
  }
  const out = fs.openSync(path.join(DATA_DIR, "print-jp.out"), "w");
  const print = (cwd) => timeRun(JP, ["conversation", "print", "17000000000"], cwd, out);
  const inPlaceRuns = [];
  const ownRuns = [];
  // Each once first, so both read from a warm page cache.
  await print(inPlace);
  await print(own);
  for (let i = 0; i < 3; i++) {
    inPlaceRuns.push(await print(inPlace));
    ownRuns.push(await print(own));
  }
  fs.closeSync(out);
  const jp = median(inPlaceRuns);
  const base = median(ownRuns);
  return {
    name: "print jp",
    ratio: jp / base,
    limit: 2,
    detail: `jp conversation print of a ${(fs.statSync(path.join(source, "events.json")).size / 2 ** 20).toFixed(0)} MB JP conversation read in place: ${(jp / 1000).toFixed(1)} s vs the same from jp's own log: ${(base / 1000).toFixed(1)} s`,
  };
}

export async function importBench() {
  return [await importOnly(), await printJpBench()];
}

/**
 * `jp conversation import` of a 250 MB JP conversation against its floor: a
 * bare node process reading and parsing the same events.json and writing its
 * events as JSON lines, synced to disk (bench/floor.js import). A floor of
 * reading and parsing alone left out the half of an import that writes.
 */
async function importOnly() {
  const source = jpConversation();
  const events = path.join(source, "events.json");
  const workspace = path.join(DATA_DIR, "ws-import");
  const floorOut = path.join(DATA_DIR, "import-floor.jsonl");
  const imports = [];
  const floors = [];
  for (let i = 0; i < 3; i++) {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.mkdirSync(path.join(workspace, ".jp/conversations"), { recursive: true });
    floors.push(await timeRun(process.execPath, [FLOOR, "import", events, floorOut], workspace));
    fs.rmSync(floorOut, { force: true });
    imports.push(await timeRun(JP, ["conversation", "import", source], workspace));
  }
  const jp = median(imports);
  const floor = median(floors);
  return {
    name: "import",
    ratio: jp / floor,
    limit: 1.5,
    detail: `jp conversation import of a ${(fs.statSync(events).size / 2 ** 20).toFixed(0)} MB JP conversation: ${(jp / 1000).toFixed(1)} s vs a bare node process reading and parsing it and writing its events as synced JSON lines: ${(floor / 1000).toFixed(1)} s`,
  };
}
