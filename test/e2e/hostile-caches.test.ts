// A repository can commit anything under .jp/: caches and state that are links
// to /dev/zero, FIFOs or huge files. jp, as a real process, finishes each
// command in seconds and answers, reading none of them through.
import { execa } from "execa";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { REPO_ROOT } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("state, listing, counts, model and MCP caches as links to /dev/zero, FIFOs and a 100 MB file: every command answers", async () => {
  w = await qWorkspace({ script: [{ text: "first" }, { text: "second" }] });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const jpDir = path.join(w.root, ".jp");
  const cache = path.join(jpDir, "cache");
  const folder = path.basename(w.folder());
  const replace = (file: string, as: "zero" | "fifo" | "huge") => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.rmSync(file, { force: true });
    if (as === "zero") fs.symlinkSync("/dev/zero", file);
    else if (as === "fifo") execFileSync("mkfifo", [file]);
    else {
      const fd = fs.openSync(file, "w");
      fs.ftruncateSync(fd, 100 * 1024 * 1024);
      fs.closeSync(fd);
    }
  };
  replace(path.join(jpDir, "state.json"), "fifo");
  replace(path.join(cache, "listing.json"), "zero");
  replace(path.join(cache, "stats", `${folder}.json`), "huge");
  replace(path.join(cache, "models", "anthropic.json"), "fifo");
  replace(path.join(cache, "mcp", "server.json"), "zero");
  const run = (...args: string[]) =>
    execa(JP, args, { cwd: w!.root, env: w!.env, reject: false, stdin: "ignore", timeout: 20_000 });
  const listed = await run("conversation", "ls");
  expect(listed.exitCode, listed.stderr).toBe(0);
  expect(listed.stdout).toContain("one");
  const shown = await run("conversation", "show", folder.split("-")[0]!);
  expect(shown.exitCode, shown.stderr).toBe(0);
  const model = await run("model", "show", "anthropic/claude-mock");
  expect(model.exitCode, model.stderr).toBe(0);
  const asked = await run("q", "--id", folder.split("-")[0]!, "two");
  expect(asked.exitCode, asked.stderr).toBe(0);
  expect(asked.stdout).toContain("second");
});

it("a models cache a repository commits is not read, and a broken one in the user's cache changes no request", async () => {
  w = await qWorkspace({ script: [{ text: "one" }, { text: "two" }] });
  // A repository's .jp/cache says the model is retired: jp does not read models from the workspace.
  const planted = path.join(w.root, ".jp", "cache", "models");
  fs.mkdirSync(planted, { recursive: true });
  const entry = (facts: object) => ({
    base_url: w!.mock.url,
    models: { "claude-mock": { fetched_at: new Date().toISOString(), facts } },
  });
  fs.writeFileSync(path.join(planted, "anthropic.json"), JSON.stringify(entry({ lifecycle: "retired" })));
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  // The user's own cache, broken by hand: wrong types and ranges are unknown, not sent.
  const own = path.join(w.root, ".cache", "jp", "models");
  const [file] = fs.readdirSync(own).filter((f) => f.startsWith("anthropic-"));
  fs.writeFileSync(
    path.join(own, file!),
    JSON.stringify(
      entry({ maxOutputTokens: 77.7, contextWindow: -5, lifecycle: "deprecated", replacement: "x\u001b[2J" }),
    ),
  );
  const asked = await w.jp("q", "two");
  expect(asked.code, asked.stderr).toBe(0);
  // A deprecated model is still warned of, its replacement (an escape sequence) left out as unknown.
  expect(asked.stderr).toContain("is deprecated");
  expect(asked.stderr).not.toContain("\u001b[2J");
  expect(Number.isInteger(w.mock.requests[1]!.body.max_tokens)).toBe(true);
});

it("a counts cache keyed by the log's size a repository knows: absurd or mistyped counts are counted again from the log", async () => {
  w = await qWorkspace({ script: [{ text: "one", usage: { input: 10, output: 5 } }] });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const folder = w.folder();
  const id = path.basename(folder).split("-")[0]!;
  const statsFile = path.join(w.root, ".jp", "cache", "stats", `${path.basename(folder)}.json`);
  expect((await w.jp("conversation", "show", id, "--json")).code).toBe(0);
  const kept = JSON.parse(fs.readFileSync(statsFile, "utf8")) as {
    usage: Record<string, Record<string, number>>;
  };
  const model = Object.keys(kept.usage)[0]!;
  for (const forged of [1e16, "12", -3]) {
    fs.writeFileSync(
      statsFile,
      JSON.stringify({ ...kept, usage: { [model]: { ...kept.usage[model], input_tokens: forged } } }),
    );
    const shown = await w.jp("conversation", "show", id, "--json");
    expect(shown.code, shown.stderr).toBe(0);
    const usage = (JSON.parse(shown.stdout) as { usage: { input_tokens: number } }).usage;
    expect(usage.input_tokens).toBe(10);
  }
});

it("counts a repository committed, of its size and well formed, are not this log's: counted again, and not kept", async () => {
  w = await qWorkspace({ script: [{ text: "one", usage: { input: 10, output: 5 } }, { text: "two" }] });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const folder = w.folder();
  const id = path.basename(folder).split("-")[0]!;
  const statsFile = path.join(w.root, ".jp", "cache", "stats", `${path.basename(folder)}.json`);
  expect((await w.jp("conversation", "ls")).code).toBe(0);
  const kept = JSON.parse(fs.readFileSync(statsFile, "utf8")) as Record<string, unknown> & {
    usage: Record<string, Record<string, number>>;
  };
  const model = Object.keys(kept.usage)[0]!;
  // What a clone brings: the right size, plausible figures, another machine's file.
  fs.writeFileSync(
    statsFile,
    JSON.stringify({
      ...kept,
      turns: 999,
      usage: { [model]: { ...kept.usage[model], input_tokens: 4_000_000_000_000 } },
      log_file: "1:2",
    }),
  );
  const listed = await w.jp("conversation", "ls", "--json");
  expect(listed.stdout).not.toContain("999");
  const shown = JSON.parse((await w.jp("conversation", "show", id, "--json")).stdout) as {
    usage: { input_tokens: number };
  };
  expect(shown.usage.input_tokens).toBe(10);
  expect((await w.jp("q", "two")).code).toBe(0);
  expect(fs.readFileSync(statsFile, "utf8")).not.toContain("4000000000000");
});

type Hostility = "zero" | "fifo" | "tty" | "huge" | "types" | "escapes" | "proto";

const ESCAPES = "\u001b]52;c;ZXZpbA==\u0007\u001b[2J";

/** `value` with every leaf of another type: strings as fractions, numbers as strings, and so on. */
function mistyped(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map(mistyped) : { length: 3 };
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mistyped(v)]));
  if (typeof value === "string") return 77.7;
  if (typeof value === "number") return "12";
  return { yes: true };
}

/** `value` with an escape sequence before every string, keys included. */
function escaped(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(escaped);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).flatMap(([k, v]) => [
        [k, escaped(v)],
        [ESCAPES + k, escaped(v)],
      ]),
    );
  return typeof value === "string" ? ESCAPES + value : value;
}

/** `value` with a `__proto__` key of its own in every object, as JSON.parse makes it from a file. */
function withProto(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withProto);
  if (value === null || typeof value !== "object") return value;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, withProto(v)]),
  );
  Object.defineProperty(copy, "__proto__", {
    value: { polluted: "yes", turns: 1e12, title: ESCAPES, active: "x", key: "k" },
    enumerable: true,
  });
  return copy;
}

describe("every cache file jp reads, made hostile", () => {
  const SERVER = path.join(REPO_ROOT, "test/support/mcp-server.mjs");
  const PEAK = path.join(REPO_ROOT, "test/support/peak-rss.mjs");

  /** A workspace whose caches all exist: state, listing, counts, model facts and an MCP tool list. */
  async function cachedWorkspace() {
    const q = await qWorkspace({
      script: [{ text: "first" }],
      extraConfig: [
        "[providers.mcp.bookworm]",
        'type = "stdio"',
        'command = "node"',
        `arguments = [${JSON.stringify(SERVER)}]`,
        "[conversation.tools.crates_search]",
        'source = "mcp.bookworm"',
        "",
      ].join("\n"),
    });
    expect((await q.jp("q", "-n", "one")).code).toBe(0);
    const folder = path.basename(q.folder());
    const id = folder.split("-")[0]!;
    // A listing keeps only rows of folders settled for a while.
    const minuteAgo = new Date(Date.now() - 60_000);
    fs.utimesSync(q.folder(), minuteAgo, minuteAgo);
    expect((await q.jp("conversation", "ls")).code).toBe(0);
    expect((await q.jp("conversation", "show", id)).code).toBe(0);
    const own = path.join(q.root, ".cache", "jp");
    const inside = (dir: string) => fs.readdirSync(dir).map((f) => path.join(dir, f));
    const mcpDirs = inside(path.join(own, "mcp"));
    const files = [
      path.join(q.root, ".jp", "state.json"),
      path.join(q.root, ".jp", "cache", "listing.json"),
      path.join(q.root, ".jp", "cache", "stats", `${folder}.json`),
      ...inside(path.join(own, "models")),
      ...mcpDirs.flatMap(inside),
    ];
    for (const file of files) expect(fs.existsSync(file), file).toBe(true);
    const originals = new Map(files.map((f) => [f, fs.readFileSync(f, "utf8")]));
    return { q, id, files, originals };
  }

  function plant(file: string, original: string, as: Hostility): void {
    fs.rmSync(file, { force: true });
    const json = JSON.parse(original) as unknown;
    if (as === "zero") fs.symlinkSync("/dev/zero", file);
    else if (as === "tty") fs.symlinkSync("/dev/tty", file);
    else if (as === "fifo") execFileSync("mkfifo", [file]);
    else if (as === "huge") {
      const fd = fs.openSync(file, "w");
      fs.ftruncateSync(fd, 100 * 1024 * 1024);
      fs.closeSync(fd);
    } else
      fs.writeFileSync(
        file,
        JSON.stringify(as === "types" ? mistyped(json) : as === "escapes" ? escaped(json) : withProto(json)),
      );
  }

  it.each<Hostility>(["zero", "fifo", "tty", "huge", "types", "escapes", "proto"])(
    "as %s: ls, show and q finish in seconds, within 300 MB, print no escape, and say at most one line per file",
    async (as) => {
      const { q, id, files, originals } = await cachedWorkspace();
      w = q;
      for (const file of files) plant(file, originals.get(file)!, as);
      q.mock.push({ text: "second" });
      const peaks = fs.mkdtempSync(path.join(q.root, "peaks-"));
      const run = (...args: string[]) =>
        execa(JP, args, {
          cwd: q.root,
          env: { ...q.env, NODE_OPTIONS: `--import=${PEAK}`, JP_PEAK_RSS_DIR: peaks },
          reject: false,
          stdin: "ignore",
          timeout: 20_000,
        });
      const results = [
        await run("conversation", "ls"),
        await run("conversation", "show", id),
        await run("q", "--id", id, "-t=crates_search", "two"),
      ];
      for (const result of results) {
        expect(result.timedOut, result.command).toBe(false);
        expect(result.exitCode, `${result.command}: ${result.stderr}`).toBe(0);
        const said = result.stdout + result.stderr;
        expect(said).not.toContain("\u001b]52");
        expect(said).not.toContain("\u001b[2J");
        for (const file of files) {
          const about = result.stderr.split("\n").filter((l) => l.includes(path.basename(file)));
          expect(about.length, `${result.command} on ${file}`).toBeLessThanOrEqual(1);
        }
      }
      expect(results[0]!.stdout).toContain("one");
      expect(results[2]!.stdout).toContain("second");
      const peak = Math.max(
        ...fs.readdirSync(peaks).map((f) => Number(fs.readFileSync(path.join(peaks, f), "utf8"))),
      );
      expect(peak).toBeLessThan(300 * 1024 * 1024);
      expect(q.mock.requests.at(-1)!.body.tools).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: "crates_search" })]),
      );
    },
  );

  it.skipIf(!PTY_AVAILABLE)("as links to the terminal itself: ls reads nothing the user types", async () => {
    const { q, files, originals } = await cachedWorkspace();
    w = q;
    for (const file of files) plant(file, originals.get(file)!, "tty");
    const session = runInPty([JP, "conversation", "ls"], { cwd: q.root, env: q.env });
    expect(await session.exit).toBe(0);
    expect(session.output()).toContain("one");
  });
});

it("a conversation's metadata.json and events.pending as FIFOs, and .jp/.id linked to /dev/zero: every command answers", async () => {
  w = await qWorkspace({ script: [{ text: "first" }] });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const folder = w.folder();
  for (const name of ["metadata.json", "events.pending"]) {
    fs.rmSync(path.join(folder, name), { force: true });
    execFileSync("mkfifo", [path.join(folder, name)]);
  }
  // A JP workspace's id: read by every tool call, and never through a device. (The configuration
  // moves to the user's file: the workspace's would now be read as JP's.)
  fs.mkdirSync(path.join(w.env.XDG_CONFIG_HOME!, "jp"), { recursive: true });
  fs.renameSync(path.join(w.root, ".jp/config.toml"), path.join(w.env.XDG_CONFIG_HOME!, "jp/config.toml"));
  fs.symlinkSync("/dev/zero", path.join(w.root, ".jp/.id"));
  const run = (...args: string[]) =>
    execa(JP, args, { cwd: w!.root, env: w!.env, reject: false, stdin: "ignore", timeout: 20_000 });
  for (const args of [["c", "ls"], ["c", "show"], ["c", "print"], ["c", "grep", "one"], ["doctor"]]) {
    const result = await run(...args);
    expect(result.timedOut, args.join(" ")).toBe(false);
    expect(result.exitCode, `${args.join(" ")}: ${result.stderr}`).toBeLessThan(2);
  }
  w.mock.push(
    { tool_calls: [{ id: "toolu_1", name: "count_words", arguments: { path: "notes.txt" } }] },
    { text: "second" },
  );
  const asked = await run("q", "count");
  expect(asked.timedOut).toBe(false);
  expect(asked.exitCode, asked.stderr).toBe(0);
});
