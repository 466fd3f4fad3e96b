// bench/linear: every pass jp makes over a user's text, fed the shapes that make a pass read
// the same text again and again (one long token, one long line, many short lines, deep
// nesting, and the runs each pass's patterns are weakest on), against ordinary text of the
// same size. A row's ratio is its worst shape's time over the ordinary text's; a pass that
// reads some shape quadratically is hundreds of times over (300 KB of hex took `compact
// --dry-run` past 120 s, against 0.9 s for words).
//
// - loss: the loss report (the facts at risk) of a compaction of a 300 KB first question;
// - record: the record of the work a summary's projection builds from a turn's question, a tool
//   call's arguments and its output, 300 KB each;
// - count: jp's token count of 1 MB (the tokenizer's byte-pair merging is quadratic in one piece);
// - recall: recall's search of what a compaction took from view, 1 MB;
// - markdown: an answer of 300 KB drawn on a terminal as it streams, in pieces of 16 characters;
// - grep: `jp conversation grep` of a conversation holding 3 MB (a real process);
// - compact: `jp conversation compact --turn 1 --summary … --dry-run` of a conversation whose
//   first question is 300 KB (a real process: planning, the loss report, token counts, the preview).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { DATA_DIR, median, shapes } from "./lib.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const JP = path.join(HERE, "../bin/jp");
const ID = "17000000000";
/** How long each timed run of an in-process pass lasts at least (see worstShape). */
const IN_PROCESS_MS = 25;

/**
 * The worst ratio of `measure(text)` (ms) over the shapes of `size` characters,
 * each timed alternately with the ordinary text (median of `runs`). A run of an
 * in-process pass repeats it until `minMs` have passed and takes the mean: a pass
 * of two milliseconds is otherwise one collection of garbage away from twice that.
 */
function worstShape(size, runs, measure, minMs = 0) {
  const ordinary = shapes.words(size);
  const timedRun = (text) => {
    let total = 0;
    let count = 0;
    do {
      total += measure(text);
      count += 1;
    } while (total < minMs);
    return total / count;
  };
  measure(ordinary);
  let worst = { ratio: 0 };
  for (const [name, make] of Object.entries(shapes)) {
    if (name === "words") continue;
    const text = make(size);
    const a = [];
    const b = [];
    for (let i = 0; i < runs; i++) {
      a.push(timedRun(text));
      b.push(timedRun(ordinary));
    }
    const ratio = median(a) / median(b);
    if (ratio > worst.ratio) worst = { name, ratio, ms: median(a), base: median(b) };
  }
  return worst;
}

const timed = (fn) => {
  const start = performance.now();
  fn();
  return performance.now() - start;
};

const row = (name, limit, what, worst) => ({
  name,
  ratio: worst.ratio,
  limit,
  detail: `${what}; worst: ${worst.name} ${worst.ms.toFixed(0)} ms vs ordinary text ${worst.base.toFixed(0)} ms`,
});

/** A conversation of three turns whose first question is `first`. */
function conversation(first) {
  const at = (s) => new Date(Date.UTC(2026, 10, 1) + s * 1000).toISOString();
  const events = [];
  for (let t = 0, s = 0; t < 3; t++) {
    events.push({ type: "turn_start", timestamp: at(s++) });
    events.push({ type: "chat_request", timestamp: at(s++), content: t === 0 ? first : `question ${t}` });
    events.push({
      type: "chat_response",
      timestamp: at(s++),
      message: `answer ${t}: it splits lines on commas.`,
    });
  }
  return events;
}

/** `events` with a tool call in the first turn whose arguments and output are `text`. */
function withToolCall(events, text) {
  const at = "2026-11-01T00:00:02.500Z";
  const call = {
    type: "tool_call_request",
    timestamp: at,
    id: "call_1",
    name: "run_command",
    arguments: { command: text },
  };
  const result = { type: "tool_call_response", timestamp: at, id: "call_1", is_error: true, content: text };
  return [...events.slice(0, 2), call, result, ...events.slice(2)];
}

/** A workspace holding `conversation(first)`, for bin/jp. */
function workspace(name, first) {
  const root = path.join(DATA_DIR, `linear-${name}`);
  const dir = path.join(root, `.jp/conversations/${ID}-linear`);
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const lines = conversation(first).map((e) => `${JSON.stringify(e)}\n`);
  fs.writeFileSync(path.join(dir, "events.jsonl"), lines.join(""));
  fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ created_at: "2026-11-01T00:00:00Z" }));
  fs.writeFileSync(path.join(root, ".jp/state.json"), JSON.stringify({ active: ID }));
  return root;
}

/** The ms `bin/jp args` takes in `cwd`; it must exit with one of `codes`. */
function runJp(cwd, args, codes = [0]) {
  const start = performance.now();
  const done = spawnSync(JP, args, {
    cwd,
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const ms = performance.now() - start;
  if (!codes.includes(done.status))
    throw new Error(`jp ${args.join(" ")} exited ${done.status}: ${done.stderr}`);
  return ms;
}

async function inProcess() {
  const { factsAtRisk, project, recall } = await import("../dist/compaction/index.js");
  const { createTokenCounter } = await import("../dist/tokens/count.js");
  const { createMarkdownStream } = await import("../dist/render/markdown.js");
  const summary = {
    type: "compaction",
    timestamp: "2026-11-02T00:00:00Z",
    id: "c1",
    from_turn: 0,
    to_turn: 0,
    summary: { text: "A long first question.", source: "supplied", author: "user" },
    source: "user",
  };
  const loss = worstShape(
    300_000,
    3,
    (text) => {
      const raw = conversation(text);
      const before = project(raw).events;
      const after = project([...raw, summary]).events;
      return timed(() => factsAtRisk(before, after));
    },
    IN_PROCESS_MS,
  );
  const counter = await createTokenCounter("openai/gpt-4.1");
  const count = worstShape(1 << 20, 3, (text) => timed(() => counter.text(text)), IN_PROCESS_MS);
  const found = worstShape(
    1 << 20,
    3,
    (text) => {
      const raw = [...conversation(text), summary];
      // Words no shape holds: every text is read to its end.
      return timed(() => recall(raw, { query: "zebra quartz" }));
    },
    IN_PROCESS_MS,
  );
  const record = worstShape(
    300_000,
    3,
    (text) => {
      // The record reads the question, the tool call's arguments and its output.
      const raw = [...withToolCall(conversation(text), text), summary];
      return timed(() => project(raw));
    },
    IN_PROCESS_MS,
  );
  const sink = { write: () => true };
  const markdown = worstShape(
    300_000,
    3,
    (text) =>
      timed(() => {
        const stream = createMarkdownStream(sink, 100, true);
        for (let i = 0; i < text.length; i += 16) stream.write(text.slice(i, i + 16));
        stream.end();
      }),
    IN_PROCESS_MS,
  );
  return [
    row("loss", 3, "the facts at risk when a 300 KB first question is summarised", loss),
    row(
      "work rec",
      3,
      "the record of the work of a turn whose question, call and output are 300 KB each, projected",
      record,
    ),
    row("count", 3, "jp's token count of 1 MB", count),
    row("recall", 3, "recall's search of a 1 MB question a summary took from view", found),
    row("markdown", 3, "a 300 KB answer drawn as markdown as it streams, 16 characters at a time", markdown),
  ];
}

function processes() {
  const compact = worstShape(300_000, 3, (text) =>
    runJp(workspace("compact", text), [
      "conversation",
      "compact",
      "--turn",
      "1",
      "--summary",
      "A dump.",
      "--dry-run",
    ]),
  );
  // grep exits 1 when no line matches, as grep does.
  const grep = worstShape(3 << 20, 3, (text) =>
    runJp(workspace("grep", text), ["conversation", "grep", "parser|0x"], [0, 1]),
  );
  return [
    row(
      "compact",
      3,
      "jp conversation compact --turn 1 --summary … --dry-run, the first question 300 KB (planning, loss report, token counts, preview)",
      compact,
    ),
    row("grep", 3, "jp conversation grep of a conversation holding 3 MB", grep),
  ];
}

export async function linearBench() {
  return [...(await inProcess()), ...processes()];
}
