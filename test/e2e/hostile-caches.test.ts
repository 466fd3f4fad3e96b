// A repository can commit anything under .jp/: caches and state that are links
// to /dev/zero, FIFOs or huge files. jp, as a real process, finishes each
// command in seconds and answers, reading none of them through.
import { execa } from "execa";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
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
