// bench/cli: real commands of bin/jp, each against a baseline measured in the same run.
//
// - `jp q` on a 2-turn conversation, against the mock LLM server answering at once, vs `node -e 0`;
// - the same `jp q` offering the tools of an MCP server whose tool list is cached (the official
//   SDK's server in test/support), vs that `jp q` without MCP tools;
// - `jp conversation ls` on 1,000 conversations (jp's own, and JP's read in place), the conversation
//   ids completion offers among them, and `jp --help`, vs `node -e 0`; where NODE_EXTRA_CA_CERTS is
//   set (Node 20 reads its file as it starts; jp, through bin/jp, at its first TLS connection),
//   `node -e 0` without it is measured too and given beside the ratios;
// - `jp q` on a 100 MB conversation (auto compaction off) vs its floor: a bare node process reading
//   the log and serialising it as a request (bench/floor.js);
// - `jp conversation print --compacted` of a 20 MB conversation to a file vs its floor: a bare node
//   process reading and parsing the log.
// Every figure is a median of at least 7 runs (21 for the short commands, whose figures a burst of
// machine noise moves most); the runs of a command and its baseline alternate. The two large
// figures also report the warm in-process measures they were once compared with.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { project } from "../dist/compaction/index.js";
import { readLog } from "../dist/store/log.js";
import { perWorkspaceDir } from "../dist/user-cache.js";
import { bareRead } from "./read.js";
import { DATA_DIR, median, startBenchMock, syntheticLog } from "./lib.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JP = path.join(HERE, "../bin/jp");
const FLOOR = path.join(HERE, "floor.js");
const CONVERSATION_ID = "17000000000";
const MCP_SERVER = path.join(HERE, "../test/support/mcp-server.mjs");
/** Every tool of a stdio server written with the official SDK. */
const MCP_CONFIG = `[providers.mcp.bench]
type = "stdio"
command = ${JSON.stringify(process.execPath)}
arguments = [${JSON.stringify(MCP_SERVER)}]
all_tools = true
`;

/** Wall time of one run of `file args` in ms; stdin is empty, output goes to `stdout` (a path) or nowhere. */
function timeRun(file, args, { cwd, env, stdout }) {
  return new Promise((resolve, reject) => {
    const out = stdout ? fs.openSync(stdout, "w") : "ignore";
    const start = performance.now();
    const child = spawn(file, args, { cwd, env, stdio: ["ignore", out, "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => {
      const elapsed = performance.now() - start;
      if (typeof out === "number") fs.closeSync(out);
      if (code !== 0) reject(new Error(`${path.basename(file)} ${args.join(" ")} exited ${code}: ${stderr}`));
      else resolve(elapsed);
    });
  });
}

/**
 * Median times of several measures, run round-robin so that machine noise hits
 * all of them alike. Each measure is `{ name, run: async () => ms, before?: () => void }`.
 */
async function roundRobin(measures, runs) {
  const samples = Object.fromEntries(measures.map((m) => [m.name, []]));
  for (let i = 0; i < runs; i++) {
    for (const m of measures) {
      m.before?.();
      samples[m.name].push(await m.run());
    }
  }
  return Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
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

/**
 * A JP workspace of `count` JP conversations (a recorded one of dcdpr/jp's,
 * copied under new ids), listed in place: jp counts each once and keeps the
 * counts under .jp/cache, keyed by events.json's size and time.
 */
function manyJpConversations(count) {
  const root = path.join(DATA_DIR, `ws-jp-${count}`);
  const dir = path.join(root, ".jp/conversations");
  if (fs.existsSync(path.join(root, ".ready"))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, ".jp/.id"), "bench");
  const recorded = path.join(
    HERE,
    "../fixtures/jp-conversations/17665556205-vec-merging-strategy-design-considerations",
  );
  for (let i = 0; i < count; i++)
    fs.cpSync(recorded, path.join(dir, `${17000000000 + i}-jp-conversation-${i}`), { recursive: true });
  fs.writeFileSync(path.join(root, ".ready"), "");
  return root;
}

function bigConversation() {
  const root = path.join(DATA_DIR, "ws-big");
  const dir = path.join(root, `.jp/conversations/${CONVERSATION_ID}-big`);
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

/** Two finished turns: the conversation `jp q "again"` continues. */
function twoTurns() {
  const ts = (s) => `2026-11-01T10:00:${String(s).padStart(2, "0")}Z`;
  const turn = (n, base) => [
    { type: "turn_start", timestamp: ts(base) },
    { type: "chat_request", timestamp: ts(base + 1), content: `question ${n}: what does the parser do?` },
    { type: "chat_response", timestamp: ts(base + 2), message: `answer ${n}: it splits lines on commas.` },
  ];
  return [...turn(1, 0), ...turn(2, 10)];
}

/**
 * A workspace wired to the mock whose single conversation is restored from
 * `log` before each run, so every run continues the same conversation.
 */
function qWorkspace(name, mockUrl, log, extraConfig = "") {
  const root = path.join(DATA_DIR, name);
  const dir = path.join(root, `.jp/conversations/${CONVERSATION_ID}-bench`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(root, ".jp/config.toml"),
    [
      `[assistant.model]\nid = "anthropic/claude-bench"\n`,
      `[providers.anthropic]\nbase_url = "${mockUrl}"\napi_key_env = "BENCH_API_KEY"\n`,
      `[conversation.compaction.auto]\nenabled = false\n`,
      extraConfig,
    ].join("\n"),
  );
  fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-11-01T10:00:00Z" }));
  fs.writeFileSync(path.join(root, ".jp/state.json"), JSON.stringify({ active: CONVERSATION_ID }));
  const events = path.join(dir, "events.jsonl");
  // Copied and flushed to disk once; each run's appends are then cut off again. A fresh copy
  // per run would leave the whole log as dirty pages, and jp's fsync of its append would pay
  // for writing the benchmark's copy, which a user's log on disk never asks of it.
  fs.copyFileSync(log, events);
  const fd = fs.openSync(events, "r+");
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  const size = fs.statSync(events).size;
  return { root, restore: () => fs.truncateSync(events, size), events };
}

const result = (name, value, baseline, limit, what) => ({
  name,
  ratio: value / baseline,
  limit,
  detail: `${what}: ${value.toFixed(0)} ms vs ${baseline.toFixed(0)} ms`,
});

/** The workspaces and logs the runs use, made once. */
function fixtures(mockUrl) {
  const twoTurnLog = path.join(DATA_DIR, "two-turns.jsonl");
  fs.mkdirSync(DATA_DIR, { recursive: true });
  fs.writeFileSync(
    twoTurnLog,
    twoTurns()
      .map((e) => JSON.stringify(e) + "\n")
      .join(""),
  );
  const bigLog = syntheticLog("read-100mb", 100 * 1024 * 1024);
  const printWs = bigConversation();
  return {
    small: qWorkspace("ws-q2", mockUrl, twoTurnLog),
    withMcp: qWorkspace("ws-q2-mcp", mockUrl, twoTurnLog, MCP_CONFIG),
    bigLog,
    big: qWorkspace("ws-q100", mockUrl, bigLog),
    // The same conversation to a model that binds reasoning to its prefix: every request digests its history.
    bound: qWorkspace(
      "ws-q100-bound",
      mockUrl,
      bigLog,
      '[models."anthropic/claude-bench"]\npreserved_thinking = true\n',
    ),
    many: manyConversations(1000),
    manyJp: manyJpConversations(1000),
    printWs,
    printLog: path.join(printWs, `.jp/conversations/${CONVERSATION_ID}-big/events.jsonl`),
    printOut: path.join(DATA_DIR, "print.out"),
  };
}

/** Warm the caches the way a user's second run would find them. */
async function warm(f, env) {
  // The user made these workspaces: trusted, as `jp init` would have recorded them.
  for (const ws of [f.small, f.withMcp, f.big, f.bound])
    await timeRun(JP, ["workspace", "trust"], { cwd: ws.root, env });
  f.small.restore();
  await timeRun(JP, ["q", "again"], { cwd: f.small.root, env });
  // The first run with the MCP server starts it and caches its tool list, as a user's first would.
  f.withMcp.restore();
  await timeRun(JP, ["q", "again"], { cwd: f.withMcp.root, env });
  // Both caches are the user's (XDG_CACHE_HOME): tool lists a folder per workspace, model answers per provider and API.
  const toolLists = perWorkspaceDir(path.join(env.XDG_CACHE_HOME, "jp/mcp"), f.withMcp.root);
  if (!fs.existsSync(path.join(toolLists, "bench.json")))
    throw new Error("the MCP server's tool list was not cached");
  // The provider's answer about the model is cached by the first run, as a user's first would, for every workspace.
  const models = path.join(env.XDG_CACHE_HOME, "jp/models");
  if (!fs.existsSync(models) || !fs.readdirSync(models).some((n) => n.startsWith("anthropic-")))
    throw new Error("the provider's answer about the model was not cached");
  await timeRun(JP, ["conversation", "ls"], { cwd: f.many, env });
  await timeRun(JP, ["conversation", "ls"], { cwd: f.manyJp, env });
}

export async function cliBench() {
  // The user's cache folder is the bench's own, warmed as a user's would be.
  const cache = path.join(DATA_DIR, "user-cache");
  fs.rmSync(cache, { recursive: true, force: true });
  fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
  // So is the state folder, where the workspaces the user trusts are recorded.
  const state = path.join(DATA_DIR, "user-state");
  fs.rmSync(state, { recursive: true, force: true });
  // The price data is not fetched: a measured run does not start a refresh.
  const env = {
    ...process.env,
    NO_COLOR: "1",
    BENCH_API_KEY: "sk-bench",
    XDG_CACHE_HOME: cache,
    XDG_STATE_HOME: state,
    JP_PRICE_DATA_URL: "off",
  };
  const mock = await startBenchMock();
  try {
    const f = fixtures(mock.url);
    const node = { name: "node", run: () => timeRun(process.execPath, ["-e", "0"], { env }) };
    // Node 20 reads NODE_EXTRA_CA_CERTS as it starts, jp (through bin/jp) at its first TLS
    // connection: node -e 0 without it is measured too, and reported beside the ratios.
    const { NODE_EXTRA_CA_CERTS: extraCa, ...envWithoutCa } = env;
    const bareNode = {
      name: "bareNode",
      run: () => timeRun(process.execPath, ["-e", "0"], { env: envWithoutCa }),
    };
    const jp = (name, args, cwd, extra = {}) => ({
      name,
      run: () => timeRun(JP, args, { cwd, env, ...extra.opts }),
      ...extra,
    });
    await warm(f, env);
    const asked = mock.modelRequests.length;
    const startup = await roundRobin(
      [
        node,
        ...(extraCa ? [bareNode] : []),
        jp("q", ["q", "again"], f.small.root, { before: f.small.restore }),
        jp("qmcp", ["q", "again"], f.withMcp.root, { before: f.withMcp.restore }),
        jp("ls", ["conversation", "ls"], f.many),
        jp("lsjp", ["conversation", "ls"], f.manyJp),
        jp("help", ["--help"], f.many),
        jp("complete", ["__complete", "conversation", "--", "17"], f.many),
      ],
      21,
    );
    const floor = (what, log) => timeRun(process.execPath, [FLOOR, what, log], { env });
    const large = await roundRobin(
      [
        { name: "read", run: async () => time(() => bareRead(f.bigLog)) },
        { name: "sendFloor", run: () => floor("send", f.bigLog) },
        { name: "readFloor", run: () => floor("read", f.printLog) },
        jp("q100", ["q", "again"], f.big.root, { before: f.big.restore }),
        jp("q100bound", ["q", "again"], f.bound.root, { before: f.bound.restore }),
        { name: "project", run: async () => time(() => project(readLog(f.printLog).events)) },
        jp("print", ["conversation", "print", CONVERSATION_ID, "--compacted"], f.printWs, {
          opts: { stdout: f.printOut },
        }),
      ],
      7,
    );
    // With the answer cached, no measured run asks the Models API again.
    if (mock.modelRequests.length !== asked)
      throw new Error(
        `jp q asked the Models API ${mock.modelRequests.length - asked} more times with its answer cached`,
      );
    return results(startup, large);
  } finally {
    await mock.close();
  }
}

function results(startup, large) {
  const ca =
    startup.bareNode === undefined
      ? ""
      : ` (NODE_EXTRA_CA_CERTS is set, which node -e 0 reads as it starts and jp at its first TLS connection; node -e 0 without it: ${startup.bareNode.toFixed(0)} ms)`;
  return [
    result("cli q", startup.q, startup.node, 1.5, `jp q on a 2-turn conversation vs node -e 0${ca}`),
    result(
      "cli qmcp",
      startup.qmcp,
      startup.q,
      1.2,
      "jp q offering a cached MCP server's 8 tools vs the same jp q without MCP tools",
    ),
    result("cli ls", startup.ls, startup.node, 1.5, "jp conversation ls of 1,000 vs node -e 0"),
    result(
      "cli ls jp",
      startup.lsjp,
      startup.node,
      1.5,
      "jp conversation ls of 1,000 JP conversations read in place (counts cached) vs node -e 0",
    ),
    result("cli help", startup.help, startup.node, 1.5, "jp --help vs node -e 0"),
    result(
      "cli complete",
      startup.complete,
      startup.node,
      1.5,
      `the conversation ids Tab offers among 1,000 (jp __complete, as the scripts call it; ${startup.complete.toFixed(0)} ms) vs node -e 0`,
    ),
    // The two large inputs against their cold-process floors (bench/floor.js): a bare node
    // process doing only the reading (and for q the serialising) of the same log.
    result(
      "cli q100",
      large.q100,
      large.sendFloor,
      1.3,
      `jp q on a 100 MB conversation vs a bare node process reading the log and serialising it as a request (${large.sendFloor.toFixed(0)} ms); the warm in-process read+parse + the 2-turn jp q: ${(large.read + startup.q).toFixed(0)} ms`,
    ),
    result(
      "cli q100b",
      large.q100bound,
      large.q100,
      1.3,
      "jp q on the 100 MB conversation to a model with preserved thinking (its history digested, every reasoning block checked) vs the same jp q to one without",
    ),
    result(
      "cli print",
      large.print,
      large.readFloor,
      2.0,
      `print --compacted of 20 MB to a file vs a bare node process reading and parsing the log (${large.readFloor.toFixed(0)} ms); the warm in-process read+parse+project: ${large.project.toFixed(0)} ms`,
    ),
  ];
}

function time(fn) {
  const start = performance.now();
  fn();
  return performance.now() - start;
}
