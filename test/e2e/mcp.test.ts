// Tools from real MCP servers, written with the official SDK
// (test/support/mcp-server.mjs), through `jp q` against the mock LLM: each
// result kind recorded and sent back, approval, servers that fail, time out
// or are optional, Ctrl-C during a slow call, the cached tool list, an HTTP
// server with a bearer token, and no server process left behind.
import { execa } from "execa";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkProviderView, describeViewProblem, project } from "../../src/compaction/index.js";
import { programPath } from "../../src/mcp/checksum.js";
import { mcpCacheDir } from "../../src/mcp/offer.js";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { alive, descendants, PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT, trustAsItIs } from "../support/workspace.js";
import { screenRows } from "../support/screen.js";
import { startConnectProxy } from "../support/connect-proxy.js";
import { anything, arrayContaining, objectContaining, stringContaining } from "../support/matchers.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const SERVER = path.join(REPO_ROOT, "test/support/mcp-server.mjs");

let w: QWorkspace | undefined;
let record = "";
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  // No test leaves a server behind: every pid a server recorded has ended, and none started
  // by jp in this process (one killed before it could record its pid) runs.
  if (record) {
    const dir = record;
    await until(() => lines("pids").every((pid) => !alive(Number(pid))), 5000);
    await until(() => descendants(process.pid, (cmd) => cmd.includes(dir)).length === 0, 5000);
  }
  record = "";
  await w?.close();
  if (w) fs.rmSync(w.root, { recursive: true, force: true });
  w = undefined;
});

const lines = (file: string): string[] =>
  fs.existsSync(path.join(record, file))
    ? fs.readFileSync(path.join(record, file), "utf8").trim().split("\n").filter(Boolean)
    : [];

/** Every server process these tests started has ended. */
function expectNoServerLeft(): void {
  const pids = lines("pids").map(Number);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) expect(alive(pid), `server ${pid} outlived jp`).toBe(false);
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 20));
  }
}

const call = (name: string, args: Record<string, unknown> = {}): ScriptedResponse => ({
  tool_calls: [{ id: `toolu_${name}`, name, arguments: args }],
});

/** A workspace whose config has a `bookworm` stdio server (extra lines in its table) and `tools`. */
async function mcpWorkspace(options: {
  script: ScriptedResponse[];
  /** More lines of the server's table. */
  server?: string;
  /** More arguments of the server. */
  args?: string[];
  tools?: string;
  provider?: "anthropic" | "openai";
}): Promise<QWorkspace> {
  const q = await qWorkspace({
    script: options.script,
    ...(options.provider ? { provider: options.provider } : {}),
    extraConfig: "",
  });
  record = path.join(q.root, "record");
  fs.mkdirSync(record);
  fs.appendFileSync(
    path.join(q.root, ".jp/config.toml"),
    [
      "[providers.mcp.bookworm]",
      'type = "stdio"',
      'command = "node"',
      `arguments = ${JSON.stringify([SERVER, "--record", record, ...(options.args ?? [])])}`,
      options.server ?? "",
      "",
      options.tools ?? '[conversation.tools.crates_search]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    ].join("\n"),
  );
  trustAsItIs(q.root, q.env);
  return q;
}

/** A `jp q` whose model called the server's slow_build, caught while the call runs. */
async function slowBuildRunning(args: string[] = []) {
  w = await mcpWorkspace({
    script: [call("slow_build"), { text: "after" }],
    args,
    tools: '[conversation.tools.slow_build]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
  });
  const q = w;
  const child = execa(JP, ["q", "-n", "build it"], {
    cwd: q.root,
    env: q.env,
    reject: false,
    stdin: "ignore",
  });
  await until(() => q.events().some((e) => e.type === "tool_call_request") && lines("pids").length > 0);
  return { q, child };
}

type Block = { type: string; content?: unknown; is_error?: boolean; tool_use_id?: string };
type Message = { role: string; content: string | Block[] };

/** The last tool_result block a request (by default the second) sent back. */
function sentResult(q: QWorkspace, request = 1): Block {
  const messages = q.mock.requests[request]!.body.messages as Message[];
  const blocks = messages.flatMap((m) => (typeof m.content === "string" ? [] : m.content));
  const result = blocks.findLast((b) => b.type === "tool_result");
  if (!result) throw new Error("no tool_result in the second request");
  return result;
}

describe("MCP tools in jp q", () => {
  it("offers a server's tool as the server describes it, runs it, records the result and sends it back", async () => {
    w = await mcpWorkspace({
      script: [call("crates_search", { query: "serde" }), { text: "serde-core it is." }],
    });
    const result = await w.jp("q", "-n", "find serde");
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    const tools = w.mock.requests[0]!.body.tools as {
      name: string;
      description: string;
      input_schema: unknown;
    }[];
    const offered = tools.find((t) => t.name === "crates_search");
    expect(offered?.description).toBe("Search crates.io for crates matching a query.");
    expect(offered?.input_schema).toMatchObject({
      type: "object",
      properties: { query: { type: "string", description: "what to look for" } },
      required: ["query"],
    });
    const response = w.events().find((e) => e.type === "tool_call_response");
    expect(response).toMatchObject({ content: "found: serde-core, serde-derive", is_error: false });
    expect(sentResult(w)).toMatchObject({ content: "found: serde-core, serde-derive", is_error: false });
    expectNoServerLeft();
  });

  it.each([
    [
      "crate_versions",
      { crate_name: "anyhow" },
      '{\n  "versions": [\n    "anyhow@1.0.0",\n    "anyhow@1.1.0"\n  ]\n}',
      false,
    ],
    [
      "crate_resource",
      { crate_name: "anyhow" },
      '[resource link: README.md <crate://anyhow/README.md> (text/markdown)]\n[resource <crate://anyhow/Cargo.toml> (text/x-toml)]\n[package]\nname = "anyhow"',
      false,
    ],
    ["delete_index", {}, "the index is locked by another process", true],
  ])("maps a %s result faithfully", async (tool, args, content, isError) => {
    w = await mcpWorkspace({
      script: [call(tool, args), { text: "ok" }],
      tools: `[conversation.tools.${tool}]\nsource = "mcp.bookworm"\nrun = "unattended"\n`,
    });
    expect((await w.jp("q", "-n", "go")).code).toBe(0);
    expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      content,
      is_error: isError,
    });
    expect(sentResult(w)).toMatchObject({ content, is_error: isError });
  });

  it("sends an image result to Anthropic as an image block, and to OpenAI as a note", async () => {
    w = await mcpWorkspace({
      script: [call("screenshot"), { text: "red" }],
      tools: '[conversation.tools.screenshot]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "-n", "look")).code).toBe(0);
    const content = sentResult(w).content as { type: string; source?: { media_type: string } }[];
    expect(content.map((b) => b.type)).toEqual(["text", "image"]);
    expect(content[1]!.source?.media_type).toBe("image/png");
    const response = w.events().find((e) => e.type === "tool_call_response");
    expect(response).toMatchObject({ content: "the screen:\n[image: image/png, 70 bytes]" });
    expect(JSON.stringify(response)).toContain('"tool_images"');
    await w.close();
    fs.rmSync(w.root, { recursive: true, force: true });

    w = await mcpWorkspace({
      provider: "openai",
      script: [call("screenshot"), { text: "red" }],
      tools: '[conversation.tools.screenshot]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "-n", "look")).code).toBe(0);
    const messages = w.mock.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(messages.find((m) => m.role === "tool")?.content).toBe(
      "the screen:\n[image: image/png, 70 bytes]",
    );
  });

  it("gives a stdio server only the basics and its listed variables, never a provider key", async () => {
    w = await mcpWorkspace({
      script: [call("show_env"), { text: "ok" }],
      server: 'variables = ["LISTED_SETTING", "MOCK_API_KEY"]',
      tools: '[conversation.tools.show_env]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    w.env.LISTED_SETTING = "yes";
    w.env.UNLISTED_SETTING = "no";
    expect((await w.jp("q", "-n", "env?")).code).toBe(0);
    const names = String(sentResult(w).content).split(" ");
    expect(names).toContain("LISTED_SETTING");
    expect(names).toContain("PATH");
    expect(names).not.toContain("UNLISTED_SETTING");
    // Listed or not, the provider key never reaches a server.
    expect(names).not.toContain("MOCK_API_KEY");
  });

  it("asks before a call as for local tools: with no one to ask, it is declined and the server never runs it", async () => {
    w = await mcpWorkspace({
      script: [call("delete_index"), { text: "fine" }],
      tools: '[conversation.tools.delete_index]\nsource = "mcp.bookworm"\n',
    });
    expect((await w.jp("q", "-n", "clean up")).code).toBe(0);
    expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      content: "delete_index needs the user's approval and no one was there to give it",
      is_error: true,
    });
  });

  it("stops with the server's name and its stderr when a server cannot start, before anything is sent", async () => {
    w = await mcpWorkspace({ script: [{ text: "never" }] });
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.broken]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(SERVER)}, "--crash"]\n[conversation.tools.broken_search]\nsource = "mcp.broken.crates_search"\n`,
    );
    const result = await w.jp("q", "-n", "hello");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("MCP server broken could not be started");
    expect(result.stderr).toContain("bookworm: cannot open index at /nowhere: no such file");
    expect(result.stderr).toContain("optional = true");
    expect(w.mock.requests).toHaveLength(0);
    // Nothing is lost: the question is recorded, failed, and --retry asks it once the server is fixed.
    expect(result.stderr).toContain("`jp q --retry` asks it again");
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
    const config = path.join(w.root, ".jp/config.toml");
    fs.writeFileSync(config, fs.readFileSync(config, "utf8").replace(', "--crash"]', "]"));
    const retried = await w.jp("q", "--retry");
    expect(retried.code, retried.stderr).toBe(0);
    expect(JSON.stringify(w.mock.requests[0]!.body)).toContain("hello");
  });

  it("keeps the question for --retry when a server's program is missing", async () => {
    w = await mcpWorkspace({ script: [{ text: "never" }] });
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      '\n[providers.mcp.absent]\ntype = "stdio"\ncommand = "jp-test-no-such-program"\n[conversation.tools.absent_search]\nsource = "mcp.absent.crates_search"\n',
    );
    const result = await w.jp("q", "-n", "what is in the index?");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("MCP server absent could not be started");
    expect(w.mock.requests).toHaveLength(0);
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
    expect(w.events()[1]).toMatchObject({ content: "what is in the index?" });
  });

  it("starts a server whose program matches its checksum (JP's), and refuses one that does not, keeping the question", async () => {
    const node = programPath("node", process.env.PATH ?? "", process.cwd())!;
    const digest = crypto.createHash("sha256").update(fs.readFileSync(node)).digest("hex");
    w = await mcpWorkspace({
      script: [call("crates_search", { query: "serde" }), { text: "ok" }],
      server: `checksum = { algorithm = "sha256", value = "${digest.toUpperCase()}" }`,
    });
    const matched = await w.jp("q", "-n", "find serde");
    expect(matched.code, matched.stderr).toBe(0);
    expect(sentResult(w)).toMatchObject({ content: "found: serde-core, serde-derive" });
    await w.close();
    w = await mcpWorkspace({
      script: [call("crates_search", { query: "serde" }), { text: "never" }],
      server: `checksum = { algorithm = "sha256", value = "${"0".repeat(64)}" }`,
    });
    const refused = await w.jp("q", "-n", "find serde");
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      `MCP server bookworm was not started: ${node} does not match its sha256 checksum (expected ${"0".repeat(64)}, got ${digest})`,
    );
    expect(w.mock.requests).toHaveLength(0);
    expect(lines("pids")).toEqual([]);
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
  });

  it("stops when a server does not start within startup_timeout_secs, and ends it", async () => {
    w = await mcpWorkspace({
      script: [{ text: "never" }],
      server: "startup_timeout_secs = 0.5",
      args: ["--start-delay", "20000"],
    });
    const result = await w.jp("q", "-n", "hello");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(
      "MCP server bookworm did not finish starting within 0.5s (startup_timeout_secs)",
    );
    expect(w.mock.requests).toHaveLength(0);
    // Ended at once (under load it may not have got as far as recording its pid): afterEach checks.
  });

  it("holds startup_timeout_secs when a server never answers tools/list: its name, not an internal error", async () => {
    w = await mcpWorkspace({
      script: [{ text: "never" }],
      server: "startup_timeout_secs = 1",
      args: ["--never-list"],
    });
    const started = Date.now();
    const result = await w.jp("q", "-n", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "MCP server bookworm did not finish starting within 1s (startup_timeout_secs)",
    );
    expect(result.stderr).not.toContain("internal error");
    // Well short of the SDK's own 60 s request timeout.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(w.mock.requests).toHaveLength(0);
  });

  it("leaves out a tool whose input schema is not an object schema, with a warning, and offers the rest", async () => {
    w = await mcpWorkspace({
      script: [{ text: "fine" }],
      args: ["--malformed-tool"],
      server: "all_tools = true",
    });
    const result = await w.jp("q", "-n", "hello");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      'MCP server bookworm lists bad_schema with an input schema of type "string", not "object"; left out',
    );
    const tools = (w.mock.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toContain("crates_search");
    expect(tools).not.toContain("bad_schema");
  });

  it("leaves an optional server's tools out with a warning when it cannot start", async () => {
    w = await mcpWorkspace({ script: [{ text: "hi" }] });
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.flaky]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(SERVER)}, "--crash"]\noptional = true\n[conversation.tools.flaky_search]\nsource = "mcp.flaky.crates_search"\n`,
    );
    const result = await w.jp("q", "-n", "hello");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("MCP server flaky could not be started");
    expect(result.stderr).toContain(
      "; optional, so its tools are left out, and jp tries it again in an hour",
    );
    const tools = (w.mock.requests[0]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(tools).toContain("crates_search");
    expect(tools).not.toContain("flaky_search");
  });

  it("sends the first request from the cached tool list before a slow server is up, and waits for it only at the call", async () => {
    w = await mcpWorkspace({
      script: [],
      server: 'variables = ["MCP_TEST_START_DELAY"]',
    });
    const q = w;
    q.mock.push({ text: "listed" });
    // The first run starts the server and caches its list.
    expect((await q.jp("q", "-n", "one")).code).toBe(0);
    expect(fs.existsSync(path.join(mcpCacheDir(q.env, q.root), "bookworm.json"))).toBe(true);
    const readyBefore = lines("ready").length;
    const requestsBefore = q.mock.requests.length;
    // The second, with the same config and a server that takes 2 s to start, asks at once.
    q.mock.push(call("crates_search", { query: "rand" }), { text: "rand-core" });
    const slow = execa(JP, ["q", "two"], {
      cwd: q.root,
      env: { ...q.env, MCP_TEST_START_DELAY: "2000" },
      reject: false,
      stdin: "ignore",
    });
    await until(() => q.mock.requests.length > requestsBefore);
    const readyAtFirstRequest = lines("ready").length > readyBefore;
    const done = await slow;
    expect(done.exitCode).toBe(0);
    expect(readyAtFirstRequest).toBe(false);
    expect((q.mock.requests[requestsBefore]!.body.tools as { name: string }[]).map((t) => t.name)).toContain(
      "crates_search",
    );
    // The call waited for the server, and got its answer.
    expect(lines("ready").length).toBe(readyBefore + 1);
    expect(sentResult(q, requestsBefore + 1)).toMatchObject({ content: "found: rand-core, rand-derive" });
    await until(() => lines("pids").every((pid) => !alive(Number(pid))));
  });

  it("never believes a tool list a repository committed under .jp/: a forged tool is not offered", async () => {
    w = await mcpWorkspace({
      script: [{ text: "listed" }, { text: "again" }],
      server: "all_tools = true",
      tools: '[conversation.tools."*"]\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "-n", "one")).code).toBe(0);
    // The list jp kept, with a tool the server does not have, committed where a repository can put it.
    const own = mcpCacheDir(w.env, w.root);
    const kept = JSON.parse(fs.readFileSync(path.join(own, "bookworm.json"), "utf8")) as {
      tools: { name: string }[];
    };
    const forged = { ...kept, tools: [...kept.tools, { ...kept.tools[0]!, name: "deploy_prod" }] };
    fs.mkdirSync(path.join(w.root, ".jp/cache/mcp"), { recursive: true });
    fs.writeFileSync(path.join(w.root, ".jp/cache/mcp/bookworm.json"), JSON.stringify(forged));
    fs.rmSync(own, { recursive: true, force: true });
    expect((await w.jp("q", "two")).code).toBe(0);
    const offered = (w.mock.requests.at(-1)!.body.tools as { name: string }[]).map((t) => t.name);
    expect(offered).toContain("crates_search");
    expect(offered).not.toContain("deploy_prod");
  });

  it.skipIf(!PTY_AVAILABLE)(
    "runs nothing a forged tool list offers that the server lacks, and prompts with the server's own hints",
    async () => {
      w = await mcpWorkspace({
        script: [{ text: "listed" }],
        server: "all_tools = true",
        tools:
          '[conversation.tools."*"]\nrun = "unattended"\n[conversation.tools.delete_index]\nsource = "mcp.bookworm"\nrun = "ask"\n',
      });
      expect((await w.jp("q", "-n", "one")).code).toBe(0);
      // The user's own cache, forged: a tool the server lacks, and its destructive tool called read-only.
      const file = path.join(mcpCacheDir(w.env, w.root), "bookworm.json");
      type Listed = { name: string; annotations?: Record<string, unknown> };
      const kept = JSON.parse(fs.readFileSync(file, "utf8")) as { tools: Listed[] };
      const tools = kept.tools.map((t) =>
        t.name === "delete_index" ? { ...t, annotations: { readOnlyHint: true } } : t,
      );
      fs.writeFileSync(
        file,
        JSON.stringify({ ...kept, tools: [...tools, { ...kept.tools[0]!, name: "deploy_prod" }] }),
      );
      w.mock.push(call("deploy_prod"), call("delete_index"), { text: "done" });
      const session = runInPty([JP, "q", "deploy"], { cwd: w.root, env: w.env });
      await session.waitFor("Run tool delete_index (");
      // What the prompt says of the tool is what the running server says, not the cache.
      await session.waitFor("? [");
      const prompt = session.output().split("Run tool delete_index (")[1]!.split(")?")[0];
      expect(prompt).toBe("MCP server bookworm, destructive");
      session.type("n");
      expect(await session.exit).toBe(0);
      const answers = w.events().filter((e) => e.type === "tool_call_response");
      expect(answers[0]).toMatchObject({
        id: "toolu_deploy_prod",
        content: "MCP server bookworm has no tool deploy_prod now; it was not run",
        is_error: true,
      });
      expect(answers[1]).toMatchObject({ id: "toolu_delete_index", is_error: true });
    },
  );

  it("follows the server when the cached tool list is out of date", async () => {
    w = await mcpWorkspace({
      script: [{ text: "listed" }],
      server: "all_tools = true",
      tools: '[conversation.tools."*"]\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "-n", "one")).code).toBe(0);
    const cacheFile = path.join(mcpCacheDir(w.env, w.root), "bookworm.json");
    type Cache = { tools: { name: string }[] };
    const editCache = (edit: (tools: Cache["tools"]) => Cache["tools"]) => {
      const cache = JSON.parse(fs.readFileSync(cacheFile, "utf8")) as Cache;
      fs.writeFileSync(cacheFile, JSON.stringify({ ...cache, tools: edit(cache.tools) }));
    };
    const offered = (n: number) => (w!.mock.requests[n]!.body.tools as { name: string }[]).map((t) => t.name);

    // Since it was cached, the server lost a tool: the cache still offers it, until a call starts the server,
    // which lists its tools again; the next jp no longer offers it.
    editCache((tools) => [...tools, { ...tools[0]!, name: "gone_tool" }]);
    w.mock.push(call("crates_search", { query: "rand" }), { text: "rand-core" });
    expect((await w.jp("q", "two")).code).toBe(0);
    expect(offered(1)).toContain("gone_tool");
    w.mock.push({ text: "three" });
    expect((await w.jp("q", "three")).code).toBe(0);
    expect(offered(3)).not.toContain("gone_tool");

    // It gained one the cache lacks: a tool the config names is asked of the server, not refused.
    editCache((tools) => tools.filter((t) => t.name !== "crate_versions"));
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      '\n[conversation.tools.versions]\nsource = "mcp.bookworm.crate_versions"\nrun = "unattended"\n',
    );
    w.mock.push({ text: "four" });
    const four = await w.jp("q", "four");
    expect(four.stderr, four.stderr).not.toContain("has no tool");
    expect(four.code).toBe(0);
    expect(offered(4)).toContain("versions");
  });

  it("starts no server in a turn that calls none of its (cached) tools", async () => {
    w = await mcpWorkspace({ script: [{ text: "listed" }, { text: "plain answer" }] });
    expect((await w.jp("q", "-n", "one")).code).toBe(0);
    const started = lines("pids").length;
    expect((await w.jp("q", "two")).code).toBe(0);
    expect(lines("pids").length).toBe(started);
    expect((w.mock.requests[1]!.body.tools as { name: string }[]).map((t) => t.name)).toContain(
      "crates_search",
    );
  });

  it("cancels a running call on Ctrl-C, keeps the conversation valid, and the next jp q works", async () => {
    w = await mcpWorkspace({
      script: [call("slow_build"), { text: "after" }],
      tools: '[conversation.tools.slow_build]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    const q = w;
    let stderr = "";
    const child = execa(JP, ["q", "-n", "build it"], {
      cwd: q.root,
      env: q.env,
      reject: false,
      stdin: "ignore",
    });
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // The server reports progress; jp shows it.
    await until(() => stderr.includes("compiling 1"));
    child.kill("SIGINT");
    const ended = await child;
    expect(ended.exitCode).toBe(130);
    expect(lines("cancelled")).toHaveLength(1);
    expect(JSON.parse(lines("cancelled")[0]!)).toMatchObject({ requestId: anything });
    expect(q.events().find((e) => e.type === "tool_call_response")).toMatchObject({
      content: "interrupted",
      is_error: true,
    });
    expect(
      checkProviderView(project(q.events()).events, { lastTurnFinished: true }).map(describeViewProblem),
    ).toEqual([]);
    await until(() => lines("pids").every((pid) => !alive(Number(pid))));
    // The next turn goes on from there.
    const next = await q.jp("q", "and now?");
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("after");
    expectNoServerLeft();
  });

  it("ends every server when jp is stopped with SIGTERM or SIGHUP mid-call", async () => {
    for (const signal of ["SIGTERM", "SIGHUP"] as const) {
      const { q, child } = await slowBuildRunning();
      child.kill(signal);
      await child;
      await until(() => lines("pids").every((pid) => !alive(Number(pid))));
      expect(
        checkProviderView(project(q.events()).events, { lastTurnFinished: true }).map(describeViewProblem),
      ).toEqual([]);
      await q.close();
      fs.rmSync(q.root, { recursive: true, force: true });
      w = undefined;
    }
  });

  it("holds a startup_timeout_secs past a timer's range to a day, said in one line, and starts the server", async () => {
    w = await mcpWorkspace({ script: [], server: "startup_timeout_secs = 3000000000" });
    const listed = await w.jp("mcp", "ls");
    expect(listed.code, listed.stdout + listed.stderr).toBe(0);
    expect(listed.stderr).toContain(
      "providers.mcp.bookworm.startup_timeout_secs = 3000000000 is more than jp allows; using 86400",
    );
  });

  it("ends a server that ignores SIGTERM when jp is killed mid-call: the watchdog sends SIGKILL after its grace", async () => {
    const { child } = await slowBuildRunning(["--ignore-term"]);
    child.kill("SIGKILL");
    await child;
    // It was asked to end first, and ignored it; it is gone all the same.
    await until(() => lines("term").length > 0);
    await until(() => lines("pids").every((pid) => !alive(Number(pid))));
  });

  it("sends a result that is both text and structured content once, as its text", async () => {
    w = await mcpWorkspace({
      script: [call("read_text_file", { path: "notes.txt" }), { text: "read" }],
      tools: '[conversation.tools.read_text_file]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    expect((await w.jp("q", "-n", "read notes.txt")).code).toBe(0);
    const text = "contents of notes.txt\nsecond line\n";
    expect(w.events().find((e) => e.type === "tool_call_response")).toMatchObject({ content: text });
    expect(sentResult(w)).toMatchObject({ content: text });
    expect(JSON.stringify(w.mock.requests[1]!.body).split("second line").length - 1).toBe(1);
  });

  it("keeps 12 MiB of a server's output cut at the recorded limit, and answers a message past what it reads as an error, never a crash", async () => {
    w = await mcpWorkspace({
      script: [call("huge_log", { mib: 12 }), call("huge_log", { mib: 20 }), { text: "both seen" }],
      tools: '[conversation.tools.huge_log]\nsource = "mcp.bookworm"\nrun = "unattended"\n',
    });
    const result = await w.jp("q", "-n", "read the logs");
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const [twelve, twenty] = w.events().filter((e) => e.type === "tool_call_response");
    // 12 MiB: kept up to the 10 MiB the log keeps, the cut noted.
    expect(twelve).toMatchObject({ is_error: false });
    expect((twelve as { content: string }).content).toMatch(/^L{1000}[\s\S]*\[… 2097152 more bytes cut\]$/);
    // 20 MiB: more than jp reads from a server; the call is an error saying so, and the turn goes on.
    expect(twenty).toMatchObject({ is_error: true });
    expect((twenty as { content: string }).content).toContain("more than jp reads");
    expect(result.stdout).toContain("both seen");
  });

  it("a jp q refused by the turn lock starts no server and exits at once", async () => {
    // A fresh workspace: neither process has a cached tool list, so each would start the server to ask it.
    w = await mcpWorkspace({ script: [{ text: "first", delay_first_byte_ms: 3000 }, { text: "second" }] });
    await w.jp("c", "new");
    const run = (q: string) =>
      execa(JP, ["q", q], { cwd: w!.root, env: w!.env, reject: false, stdin: "ignore", timeout: 30_000 });
    const [a, b] = await Promise.all([run("one"), run("two")]);
    const [won, lost] = a.exitCode === 0 ? [a, b] : [b, a];
    expect(won.exitCode).toBe(0);
    expect(lost.timedOut).toBe(false);
    expect(lost.exitCode).not.toBe(0);
    expect(lost.stderr).toContain("jp q");
    // Only the turn that ran started a server, and it ended it.
    expect(lines("pids")).toHaveLength(1);
    await until(() => lines("pids").every((pid) => !alive(Number(pid))));
  });

  it("lists the servers and their tools with jp mcp ls and jp mcp tools, also as JSON", async () => {
    w = await mcpWorkspace({ script: [], server: "optional = true" });
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.broken]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(SERVER)}, "--crash"]\n`,
    );
    const ls = await w.jp("mcp", "ls", "--json");
    // One server failed: the listing is whole, and the exit code says so.
    expect(ls.code).toBe(1);
    const { servers } = JSON.parse(ls.stdout) as { servers: Record<string, unknown>[] };
    expect(servers).toEqual([
      objectContaining({
        name: "bookworm",
        type: "stdio",
        optional: true,
        state: "running",
        tools: 12,
      }),
      objectContaining({
        name: "broken",
        state: "failed",
        tools: null,
        error: stringContaining("bookworm: cannot open index at /nowhere"),
      }),
    ]);
    const text = await w.jp("mcp", "ls");
    expect(text.stdout).toMatch(
      /^bookworm {2}stdio {2}node .*mcp-server\.mjs .* {2}running, 12 tools {2}\(optional\)$/m,
    );
    expect(text.stdout).toMatch(/^broken {2}stdio .* {2}failed$/m);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain("1 of 2 MCP servers failed to start: broken");

    const tools = await w.jp("mcp", "tools", "bookworm", "--json");
    const listed = JSON.parse(tools.stdout) as {
      server: string;
      tools: { name: string; offered_as: string[] }[];
    };
    expect(listed.server).toBe("bookworm");
    expect(listed.tools.find((t) => t.name === "crates_search")).toMatchObject({
      offered_as: ["crates_search"],
      annotations: { readOnlyHint: true, openWorldHint: true },
      input_schema: { type: "object" },
    });
    expect(listed.tools.find((t) => t.name === "slow_build")?.offered_as).toEqual([]);
    const shown = await w.jp("mcp", "tools", "bookworm");
    expect(shown.stdout).toContain(
      "crates_search [readOnly, openWorld]  offered as crates_search\n  Search crates.io",
    );
    const unknown = await w.jp("mcp", "tools", "nope");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("no MCP server named 'nope'");
  });

  it("shows and records no header value a server echoes in its error", async () => {
    w = await mcpWorkspace({
      script: [{ text: "never" }],
      tools: '[conversation.tools.crates_search]\nsource = "mcp.web"\nrun = "unattended"\n',
    });
    const server = execa("node", [SERVER, "--http", "--record", record, "--echo-token"], { reject: false });
    stops.push(() => server.kill());
    await until(() => lines("port").length > 0);
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.web]\ntype = "http"\nurl = "http://127.0.0.1:${lines("port")[0]}/mcp"\nheaders = { X-Team-Token = "literal-team-5678" }\n`,
    );
    const listed = await w.jp("mcp", "ls", "--json");
    expect(listed.stdout).toContain("bad team token ***");
    const asked = await w.jp("q", "-n", "find tokio");
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain("bad team token ***");
    for (const text of [listed.stdout, listed.stderr, asked.stderr, JSON.stringify(w.events())])
      expect(text).not.toContain("literal-team-5678");
  });

  it("reaches a Streamable HTTP server with a bearer token from the environment", async () => {
    w = await mcpWorkspace({
      script: [call("crates_search", { query: "tokio" }), { text: "ok" }, { text: "went on without it" }],
      tools: '[conversation.tools.crates_search]\nsource = "mcp.web"\nrun = "unattended"\n',
    });
    const server = execa("node", [SERVER, "--http", "--record", record], { reject: false });
    stops.push(() => server.kill());
    await until(() => lines("port").length > 0);
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.web]\ntype = "http"\nurl = "http://127.0.0.1:${lines("port")[0]}/mcp"\nheaders = { Authorization = "Bearer \${MCP_TOKEN}" }\n`,
    );
    w.env.MCP_TOKEN = "secret-token";
    const result = await w.jp("q", "-n", "find tokio");
    expect(result.stderr).not.toContain("error");
    expect(result.code).toBe(0);
    expect(sentResult(w)).toMatchObject({ content: "found: tokio-core, tokio-derive" });
    // Every request carried the token, taken from jp's environment.
    expect(lines("authorization").length).toBeGreaterThan(1);
    expect(new Set(lines("authorization"))).toEqual(new Set(["Bearer secret-token"]));

    // Without the variable, nothing is sent with an empty token: one error names it and the server.
    delete w.env.MCP_TOKEN;
    const before = lines("authorization").length;
    const unset = await w.jp("mcp", "ls");
    expect(unset.code).toBe(1);
    expect(unset.stdout).toContain(
      "MCP server web has a header Authorization naming ${MCP_TOKEN}, which is not set",
    );
    expect(lines("authorization")).toHaveLength(before);

    // An optional server is left out with the same line, as a warning, and the question goes on without it.
    fs.appendFileSync(path.join(w.root, ".jp/config.toml"), "optional = true\n");
    const optional = await w.jp("q", "go on");
    expect(optional.code).toBe(0);
    expect(optional.stderr).toContain(
      "MCP server web has a header Authorization naming ${MCP_TOKEN}, which is not set",
    );
    expect(optional.stderr).toContain(
      "; optional, so its tools are left out, and jp tries it again in an hour",
    );
    expect(w.mock.requests.at(-1)!.body.tools ?? []).not.toContainEqual(
      expect.objectContaining({ name: "crates_search" }),
    );
    expect(lines("authorization")).toHaveLength(before);
  });
});

describe("MCP over HTTP behind a proxy", () => {
  it("reaches a Streamable HTTP server through HTTP_PROXY, and straight past it for a host in NO_PROXY", async () => {
    const proxy = await startConnectProxy();
    stops.push(() => void proxy.close());
    w = await mcpWorkspace({ script: [], tools: "" });
    const server = execa("node", [SERVER, "--http", "--record", record], { reject: false });
    stops.push(() => server.kill());
    await until(() => lines("port").length > 0);
    const host = `127.0.0.1:${lines("port")[0]}`;
    fs.appendFileSync(
      path.join(w.root, ".jp/config.toml"),
      `\n[providers.mcp.web]\ntype = "http"\nurl = "http://${host}/mcp"\n`,
    );
    w.env.HTTP_PROXY = proxy.url;
    const through = await w.jp("mcp", "ls");
    expect(through.stdout).toMatch(/web\s.*12 tools/);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([host]));
    const tunnels = proxy.tunnels.length;
    w.env.NO_PROXY = "127.0.0.1";
    expect((await w.jp("mcp", "ls")).stdout).toMatch(/web\s.*12 tools/);
    expect(proxy.tunnels).toHaveLength(tunnels);
  });
});

const RECORDED = path.join(
  REPO_ROOT,
  "fixtures/jp-conversations/17671120783-investigating-segfault-in-iter-mut-change-tracking",
);

describe.skipIf(!PTY_AVAILABLE)("a recorded JP conversation whose tools come from an MCP server", () => {
  it("continues with those tools when the workspace defines a stand-in server of that name", async () => {
    // The conversation names JP's bookworm server's tools; the workspace defines no tool, only the server.
    w = await mcpWorkspace({
      script: [call("crates_search", { query: "serde" }), { text: "serde-core it is." }],
      tools: "",
    });
    const imported = await w.jp("conversation", "import", RECORDED);
    expect(imported.code).toBe(0);
    const session = runInPty(
      [JP, "q", "--id", "17671120783", "-m", "anthropic/claude-mock", "which crate?"],
      { cwd: w.root, env: w.env },
    );
    // Named by the conversation, not by the user's files: asked for, with the server and its hints shown.
    await session.waitFor("Run tool crates_search (MCP server bookworm, read-only, open world)? [");
    session.type("y");
    expect(await session.exit).toBe(0);
    const output = session.output();
    // Its other MCP tools come from kagi, which the workspace does not define: those alone are left out.
    expect(output).toContain(
      "web_search (mcp.kagi.kagi_search_fetch: your config has no [providers.mcp.kagi])",
    );
    expect(output).not.toMatch(/left out[^\n]*crates_search/);
    const offered = (w.mock.requests[0]!.body.tools as { name: string; description: string }[]).map(
      (t) => t.name,
    );
    expect(offered).toEqual(
      arrayContaining([
        "crates_search",
        "crate_readme",
        "crate_resource",
        "crate_versions",
        "crate_search_items",
      ]),
    );
    expect(sentResult(w)).toMatchObject({ content: "found: serde-core, serde-derive", is_error: false });
    expectNoServerLeft();
  });
});

describe.skipIf(!PTY_AVAILABLE)("tool names from a hostile server (all_tools = true)", () => {
  it("leaves out names no provider takes and names already held, each said once and made visible", async () => {
    w = await mcpWorkspace({
      script: [{ text: "hello" }],
      args: ["--hostile-names"],
      server: "all_tools = true",
      // A name of the user's own is checked too.
      tools: '[conversation.tools."find crates"]\nsource = "mcp.bookworm.crates_search"\n',
    });
    const session = runInPty([JP, "q", "-n", "hi"], { cwd: w.root, env: w.env });
    expect(await session.exit).toBe(0);
    const output = session.output();
    // Nothing the server named reaches the terminal as an escape sequence: no clipboard write, no title.
    expect(output).not.toContain("\u001b]52");
    expect(output).not.toContain("\u001b]0;owned");
    expect(output).toContain("left out MCP server bookworm's tool 'safe^[]52;c;ZXZpbA==^G^[]0;owned^G'");
    expect(output).toContain("left out MCP server bookworm's tool '*': providers take only letters");
    expect(output).toMatch(/left out MCP server bookworm's tool 'n{39}…': the name is 300 characters long/);
    expect(output).toContain(
      "MCP server bookworm's tool count_words is not offered: a local tool has that name",
    );
    expect(output.match(/tool '\*'/g)).toHaveLength(1);
    expect(output).toContain("left out tool 'find crates': providers take only letters, digits, _ and -");
    const offered = (w.mock.requests[0]!.body.tools as { name: string; description: string }[]).map((t) => t);
    expect(offered.map((t) => t.name)).toContain("crates_search");
    for (const t of offered) expect(t.name).toMatch(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/);
    // The local count_words kept its own definition.
    expect(offered.find((t) => t.name === "count_words")?.description).not.toBe("hostile");
  });
});

describe.skipIf(!PTY_AVAILABLE)("a server that asks the person (elicitation)", () => {
  const dropIndex = '[conversation.tools.drop_index]\nsource = "mcp.bookworm"\nrun = "unattended"\n';

  it("shows its form alone until it is filled in, and the answers reach the server", async () => {
    w = await mcpWorkspace({ script: [call("drop_index"), { text: "dropped" }], tools: dropIndex });
    const size = { columns: 100, rows: 30 };
    const session = runInPty([JP, "q", "-n", "drop it"], { cwd: w.root, env: w.env, size });
    const shown = await session.waitFor("answer (a), decline (d) or cancel (c)?");
    expect(session.output().slice(shown - 80, shown)).toContain(
      "MCP server bookworm asks: Drop the index of 3 crates?",
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const rows = await screenRows([{ data: session.output(), ...size }]);
    expect(rows.slice(-2)).toEqual([
      "MCP server bookworm asks: Drop the index of 3 crates?",
      "answer (a), decline (d) or cancel (c)?",
    ]);
    session.type("a");
    await session.waitFor("Really drop it [y/N]");
    session.type("y");
    await session.waitFor("Why (Enter: stale):");
    session.type("\r");
    expect(await session.exit).toBe(0);
    expect(sentResult(w)).toMatchObject({
      content: 'elicited: {"action":"accept","content":{"confirm":true,"reason":"stale"}}',
      is_error: false,
    });
  });

  it("tells the server the person declined", async () => {
    w = await mcpWorkspace({ script: [call("drop_index"), { text: "kept" }], tools: dropIndex });
    const session = runInPty([JP, "q", "-n", "drop it"], { cwd: w.root, env: w.env });
    await session.waitFor("decline (d)");
    session.type("d");
    expect(await session.exit).toBe(0);
    expect(sentResult(w)).toMatchObject({ content: 'elicited: {"action":"decline"}' });
  });

  it("cancels the form where no one can answer it", async () => {
    w = await mcpWorkspace({ script: [call("drop_index"), { text: "kept" }], tools: dropIndex });
    expect((await w.jp("q", "-n", "drop it")).code).toBe(0);
    expect(sentResult(w)).toMatchObject({ content: 'elicited: {"action":"cancel"}' });
  });
});
