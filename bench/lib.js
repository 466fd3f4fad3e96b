// Shared helpers for the benchmarks: synthetic conversations and timing.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

export const DATA_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), ".data");

/** A deterministic pseudo-random generator, so every run measures the same data. */
export function rng(seed = 42) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS =
  "the parser state machine quoted field delimiter test helper trims line tool result compaction summary turn request response reasoning token budget context window".split(
    " ",
  );

function text(random, words) {
  let out = "";
  for (let i = 0; i < words; i++)
    out += WORDS[Math.floor(random() * WORDS.length)] + (i % 17 === 16 ? ".\n" : " ");
  return out;
}

/**
 * Events of a synthetic agent conversation: turns with a request, reasoning,
 * several tool calls with results of mixed sizes, and a final message.
 */
export function* syntheticTurns(random) {
  let t = Date.UTC(2026, 0, 1);
  const ts = () => new Date((t += 1000)).toISOString();
  for (let turn = 0; ; turn++) {
    const events = [{ type: "turn_start", timestamp: ts() }];
    events.push({
      type: "chat_request",
      timestamp: ts(),
      content: text(random, 20 + Math.floor(random() * 80)),
    });
    events.push({
      type: "chat_response",
      timestamp: ts(),
      reasoning: text(random, 40 + Math.floor(random() * 120)),
      metadata: { signature: "sig" + turn },
    });
    const calls = 1 + Math.floor(random() * 6);
    for (let c = 0; c < calls; c++) {
      const id = `call_${turn}_${c}`;
      const name = ["read_file", "grep", "run_tests", "write_file"][c % 4];
      events.push({
        type: "tool_call_request",
        timestamp: ts(),
        id,
        name,
        arguments: { path: `src/file_${c}.ts`, query: text(random, 3) },
      });
      events.push({
        type: "tool_call_response",
        timestamp: ts(),
        id,
        is_error: random() < 0.1,
        content: text(random, 50 + Math.floor(random() * 900)),
      });
    }
    events.push({
      type: "chat_response",
      timestamp: ts(),
      message: text(random, 30 + Math.floor(random() * 200)),
    });
    yield { turn, events };
  }
}

/** Write a synthetic log of about `bytes` bytes (cached across runs); returns its path. */
export function syntheticLog(name, bytes, { extra } = {}) {
  fs.mkdirSync(DATA_DIR, { recursive: true });
  const file = path.join(DATA_DIR, `${name}.jsonl`);
  if (fs.existsSync(file) && fs.statSync(file).size >= bytes) return file;
  const random = rng(7);
  const fd = fs.openSync(file, "w");
  let written = 0;
  let buffered = [];
  for (const { turn, events } of syntheticTurns(random)) {
    const all = extra ? [...events, ...extra(turn)] : events;
    for (const e of all) {
      const line = JSON.stringify(e) + "\n";
      buffered.push(line);
      written += Buffer.byteLength(line);
    }
    if (buffered.length > 2000) {
      fs.writeSync(fd, buffered.join(""));
      buffered = [];
    }
    if (written >= bytes) break;
  }
  fs.writeSync(fd, buffered.join(""));
  fs.closeSync(fd);
  return file;
}

/** `count` characters of a pseudo-random hex digit each: one long token, as a dump or a digest holds. */
function hex(count) {
  const random = rng(3);
  let out = "";
  for (let i = 0; i < count; i++) out += "0123456789abcdef"[Math.floor(random() * 16)];
  return out;
}

/** `unit` repeated to `count` characters. */
const repeat = (unit, count) => unit.repeat(Math.ceil(count / unit.length)).slice(0, count);

/**
 * Texts of a given size for bench/linear: ordinary words, and the shapes a pass over text is
 * weakest on. One long token (hex, one character, dashed or dotted runs), one long line, many
 * short lines, deep nesting (quotes, lists, brackets), and runs of the characters that open a
 * pattern and never close it (slashes, dots, underscores, stars, backticks, spaces).
 */
export const shapes = {
  words: (count) => text(rng(5), Math.ceil(count / 5)).slice(0, count),
  hex,
  "one character": (count) => "a".repeat(count),
  "one long line": (count) =>
    text(rng(5), Math.ceil(count / 5))
      .replace(/\n/g, " ")
      .slice(0, count),
  "short lines": (count) => repeat("ab\n", count),
  "short list items": (count) => repeat("- a\n", count),
  "short code lines": (count) => repeat("`a`\n", count),
  "blank lines": (count) => "\n".repeat(count),
  spaces: (count) => " ".repeat(count),
  "nested quotes": (count) => repeat("> ", count),
  "nested lists": (count) => repeat("- ", count),
  "nested brackets": (count) => "[".repeat(count / 2) + "]".repeat(count / 2),
  "quote levels": (count) =>
    Array.from({ length: Math.ceil(count / 40) }, (_, i) => `${"> ".repeat(i % 16)}x`)
      .join("\n")
      .slice(0, count),
  "dashed run": (count) => repeat("a-", count),
  "slashed run": (count) => repeat("-/", count),
  "run of dots": (count) => `a${".".repeat(count - 2)}b`,
  "dotted names": (count) => repeat("ab.", count),
  camelCase: (count) => `${repeat("aA", count - 1)}_`,
  snake_case: (count) => `${repeat("a_", count - 1)}A`,
  stars: (count) => repeat("*a", count),
  underscores: (count) => repeat("_a", count),
  backticks: (count) => "`".repeat(count),
  "link openers": (count) => repeat("[a](", count),
  "angle brackets": (count) => repeat("<a", count),
  "version run": (count) => repeat("1.", count),
  "path with dots": (count) => `a/b${".".repeat(count - 4)}a`,
  "URL with dots": (count) => `http://x/${".".repeat(count - 10)}a`,
  base64: (count) =>
    Buffer.alloc(Math.ceil((count * 3) / 4))
      .toString("base64")
      .slice(0, count),
  CJK: (count) => "中".repeat(count),
};

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Median wall time in ms of `fn` over `runs`, interleaving nothing else. */
export function time(fn, runs) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

/** Time two functions alternately, so machine noise hits both alike. */
export function compare(a, b, runs) {
  const sa = [];
  const sb = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    a();
    sa.push(performance.now() - start);
    start = performance.now();
    b();
    sb.push(performance.now() - start);
  }
  return { a: median(sa), b: median(sb) };
}

/**
 * The tests' mock LLM server (test/support/mock-llm.ts, built here with
 * esbuild). By default it answers every request at once with a short message
 * and keeps no request bodies; `options` are the mock's own.
 */
export async function startBenchMock(route = () => ({ text: "ok" }), options = { record: false }) {
  const { build } = await import("esbuild");
  const outfile = path.join(DATA_DIR, "mock-llm.js");
  fs.mkdirSync(DATA_DIR, { recursive: true });
  if (!builtMock) {
    await build({
      entryPoints: [path.join(path.dirname(fileURLToPath(import.meta.url)), "../test/support/mock-llm.ts")],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      logLevel: "warning",
    });
    builtMock = true;
  }
  const { startMockLlm } = await import(outfile);
  return startMockLlm([], route, options);
}
let builtMock = false;
