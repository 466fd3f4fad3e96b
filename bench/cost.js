// bench/cost: what long sessions cost, read from the bill rather than the token count.
//
// Against the mock LLM server, which applies the providers' prompt-caching rules
// and reports usage in Anthropic's own fields, real `jp q` processes run:
// (a) one agent turn of 40 steps, each calling a tool that returns 5 KB, with
//     automatic compaction at 20,000 tokens (keep_tail 6,000, tool calls stripped);
// (b) 30 user turns of 3 tool calls each, with `jp conversation compact` after turn 15.
// Scenario (a) runs again on a model with preserved thinking (each step thinks,
// and its thinking goes back): there automatic compaction of tool output is the
// provider's context editing, asked for in bulk (every result older than
// keep_tail once the budget is passed, clear_at_least = min_saving), and the
// server lists any thinking it had to drop. The local server reads the cache
// over the request as context editing left it: the docs say clearing tool
// results invalidates the cached prefix.
// For each policy it reports requests, compactions, the share of input tokens
// read from the cache, and billed-equivalent input tokens (fresh 1.0, cache
// write 1.25, cache read 0.1), all from the usage jp recorded in the log.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, startBenchMock } from "./lib.js";

const JP = path.join(path.dirname(fileURLToPath(import.meta.url)), "../bin/jp");
const BUDGET = 20_000;
/** A model whose thinking is bound to the prefix and kept: Anthropic's preserved thinking. */
const PRESERVED_MODEL = "anthropic/claude-opus-5-5";

function run(args, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(JP, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(stderr) : reject(new Error(`jp ${args.join(" ")} exited ${code}: ${stderr}`)),
    );
  });
}

/**
 * A fresh workspace with a `chunk` tool that prints files of `chunkBytes`
 * each; `policy.auto` holds extra keys of the auto table (auto compaction is
 * off without it), `policy.cache` turns prompt caching off when false.
 */
function workspace(name, mockUrl, chunkBytes, policy) {
  const root = path.join(DATA_DIR, "cost", name);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(path.join(root, ".jp"), { recursive: true });
  fs.mkdirSync(path.join(root, "chunks"));
  for (let i = 0; i < 120; i++) {
    const line = `chunk ${i}: the parser state machine reads a quoted field and its delimiter.\n`;
    fs.writeFileSync(
      path.join(root, "chunks", `${i}.txt`),
      line.repeat(Math.ceil(chunkBytes / line.length)).slice(0, chunkBytes),
    );
  }
  fs.writeFileSync(
    path.join(root, ".jp/config.toml"),
    [
      `[assistant]\nsystem_prompt = "You are a careful coding agent."\ncache = ${policy.cache ?? true}\n`,
      `[assistant.model]\nid = "${policy.model ?? "anthropic/claude-bench"}"\n`,
      `[assistant.tokens]\nestimate = "chars"\n`,
      `[providers.anthropic]\nbase_url = "${mockUrl}"\napi_key_env = "BENCH_API_KEY"\n`,
      `[conversation.tools.chunk]\nsource = "local"\nsummary = "Print chunk N of the data."\n` +
        `command = ["cat", "chunks/{{n}}.txt"]\nrun = "unattended"\n` +
        `[conversation.tools.chunk.parameters.n]\ntype = "integer"\nrequired = true\n`,
      policy.auto === undefined
        ? ""
        : `[conversation.compaction.auto]\nenabled = true\nmax_tokens = ${BUDGET}\nkeep_tail = 6000\n${policy.auto}\n` +
          `[conversation.compaction.auto.rule]\ntool_calls = "strip"\n`,
    ].join("\n"),
  );
  return root;
}

/** What the log's recorded usage says about a session. */
function bill(root) {
  const dir = path.join(root, ".jp/conversations");
  const folder = fs.readdirSync(dir).find((f) => /^\d/.test(f));
  const events = fs
    .readFileSync(path.join(dir, folder, "events.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const totals = { requests: 0, input: 0, read: 0, write: 0, max: 0, compactions: 0 };
  for (const e of events) {
    if (e.type === "compaction") totals.compactions++;
    const u = e.metadata?.usage;
    if (!u) continue;
    totals.requests++;
    totals.input += u.input_tokens ?? 0;
    totals.read += u.cache_read_tokens ?? 0;
    totals.write += u.cache_write_tokens ?? 0;
    totals.max = Math.max(totals.max, u.input_tokens ?? 0);
  }
  const fresh = totals.input - totals.read - totals.write;
  return {
    ...totals,
    cached: totals.read / totals.input,
    billed: fresh + 1.25 * totals.write + 0.1 * totals.read,
  };
}

const call = (id, n) => ({ text: "Next chunk.", tool_calls: [{ id, name: "chunk", arguments: { n } }] });

/** A step that thinks first, as every step of a model with preserved thinking does. */
const thinkingCall = (id, n) => ({
  ...call(id, n),
  reasoning: `Chunk ${n - 1} agreed with the others; read chunk ${n}.`,
});

async function agentTurn(name, policy) {
  const mock = await startBenchMock(() => undefined, { record: true });
  const step = policy.model ? thinkingCall : call;
  try {
    for (let i = 0; i < 40; i++) mock.push(step(`toolu_${i}`, i));
    mock.push({ text: "All 40 chunks read." });
    const root = await trusted(workspace(name, mock.url, 5 * 1024, policy));
    await run(["q", "-n", "Read chunks 0 to 39, one at a time."], root, env());
    // Each change of what the server cleared is a clearing: the cached prefix is written again from there.
    const cleared = mock.contextEdits.map((edits) => edits[0]?.cleared_tool_uses ?? 0);
    const clearings = cleared.filter((n, i) => n !== (cleared[i - 1] ?? 0)).length;
    return { ...bill(root), droppedThinking: mock.dropped.length, clearings };
  } finally {
    await mock.close();
  }
}

async function userTurns(name, policy, compactAfter) {
  const mock = await startBenchMock(() => undefined, { record: true });
  try {
    const root = await trusted(workspace(name, mock.url, 2 * 1024, policy));
    for (let t = 0; t < 30; t++) {
      for (let c = 0; c < 3; c++) mock.push(call(`toolu_${t}_${c}`, t * 3 + c));
      mock.push({ text: `Turn ${t + 1}: the three chunks agree.` });
      await run(["q", ...(t === 0 ? ["-n"] : []), `Check chunks ${t * 3} to ${t * 3 + 2}.`], root, env());
      if (compactAfter && t + 1 === compactAfter) await run(["conversation", "compact"], root, env());
    }
    return bill(root);
  } finally {
    await mock.close();
  }
}

// The user's state (the workspaces they trust) is the bench's own.
const env = () => ({
  ...process.env,
  NO_COLOR: "1",
  BENCH_API_KEY: "sk-bench",
  XDG_STATE_HOME: path.join(DATA_DIR, "cost-state"),
});

/** A workspace of the bench's, trusted as the one who made it would (`jp init` records it). */
async function trusted(root) {
  await run(["workspace", "trust"], root, env());
  return root;
}

function table(rows) {
  const head = [
    "policy",
    "requests",
    "compactions",
    "from cache",
    "billed-equivalent input",
    "largest request",
  ];
  const lines = rows.map(([policy, b]) => [
    policy,
    String(b.requests),
    String(b.compactions),
    `${(b.cached * 100).toFixed(1)} %`,
    Math.round(b.billed).toLocaleString("en-US"),
    b.max.toLocaleString("en-US"),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  return [head, ...lines].map((l) => "  " + l.map((c, i) => c.padEnd(widths[i])).join("  ")).join("\n");
}

export async function costBench() {
  const a = [
    ["no compaction", await agentTurn("a-none", {})],
    [
      "strip just under budget",
      await agentTurn("a-old", { auto: 'relief = "just_under_budget"\nmin_saving = 0' }),
    ],
    ["jp (hysteresis)", await agentTurn("a-jp", { auto: "" })],
    ["jp, caching off", await agentTurn("a-nocache", { auto: "", cache: false })],
    ["jp, preserved thinking", await agentTurn("a-thinking", { auto: "", model: PRESERVED_MODEL })],
  ];
  const b = [
    ["no compaction", await userTurns("b-none", {}, undefined)],
    ["compact after turn 15", await userTurns("b-jp", {}, 15)],
    ["compact after turn 15, caching off", await userTurns("b-nocache", { cache: false }, 15)],
  ];
  console.log(
    `(a) one agent turn, 40 steps of 5 KB, auto compaction at ${BUDGET.toLocaleString("en-US")} tokens\n${table(a)}\n` +
      `  (jp, preserved thinking: ${PRESERVED_MODEL}; the server cleared tool results ${a[4][1].clearings} times, ` +
      `and dropped ${a[4][1].droppedThinking} thinking blocks)`,
  );
  console.log(`(b) 30 user turns of 3 tool calls, jp conversation compact after turn 15\n${table(b)}`);
  const jp = a[2][1];
  const uncached = a[3][1];
  const compacted = b[1][1];
  const thinking = a[4][1];
  return [
    {
      name: "cost a",
      ratio: 1 - jp.cached,
      limit: 0.15,
      detail: `share of input not read from cache (target: at least 85 % from cache; ${(jp.cached * 100).toFixed(1)} %)`,
    },
    { name: "cost a", ratio: jp.compactions, limit: 4, detail: "auto compactions in the 40-step turn" },
    {
      name: "cost a pt",
      ratio: 1 - thinking.cached,
      limit: 0.15,
      detail: `preserved thinking (${PRESERVED_MODEL}): share of input not read from cache (target: at least 85 %; ${(thinking.cached * 100).toFixed(1)} %)`,
    },
    {
      name: "cost a pt",
      ratio: thinking.droppedThinking,
      limit: 0,
      detail: "thinking blocks the server dropped in the 40-step turn (the docs let every one be kept)",
    },
    {
      name: "cost a",
      ratio: jp.max / BUDGET,
      limit: 1,
      detail: `largest request ${jp.max} tokens vs the budget of ${BUDGET}`,
    },
    {
      name: "cost a",
      ratio: jp.billed / uncached.billed,
      limit: 0.5,
      detail: "billed-equivalent input vs the same run without caching",
    },
    {
      name: "cost b",
      ratio: 1 - compacted.cached,
      limit: 0.1,
      detail: `share of input not read from cache (target: at least 90 % from cache; ${(compacted.cached * 100).toFixed(1)} %)`,
    },
  ];
}
