// Which parts of the bundle a command loads: `jp conversation ls` must not pay
// for the tokenizer, zod or any other heavy package, `jp --help` not even for
// the commands; and how a chunk reaches another's functions. The bundle's metafile says which
// chunk holds which package; a preloaded hook records which chunks loaded.
import { execa } from "execa";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mcpCacheDir } from "../../src/mcp/offer.js";
import { startMockLlm, type MockLlm } from "../support/mock-llm.js";
import { REPO_ROOT, tempDir } from "../support/workspace.js";
import { arrayContaining, objectContaining } from "../support/matchers.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const BUNDLE = path.join(REPO_ROOT, "dist/cli.bundle");
const HEAVY = {
  // Types only at run time: no chunk may hold their code.
  "the Anthropic SDK": "node_modules/@anthropic-ai/sdk/",
  "the OpenAI SDK": "node_modules/openai/",
  "the tokenizer": "node_modules/gpt-tokenizer/",
  zod: "node_modules/zod/",
  execa: "node_modules/execa/",
  "the prompt library": "node_modules/@inquirer/core/",
  "the conversation picker": "node_modules/@inquirer/select/",
  "the markdown renderer": "node_modules/marked-terminal/",
  "the MCP SDK": "node_modules/@modelcontextprotocol/sdk/",
  "jp's commands": "src/cli/runtime.ts",
};

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** The heavy packages held by the bundle chunks that `args` loads. */
const temps: string[] = [];
// The workspaces these runs trust are recorded in a state folder of their own, not the user's.
process.env.XDG_STATE_HOME = tempDir("jp-state-");
temps.push(process.env.XDG_STATE_HOME);

async function heavyPackagesLoaded(args: string[], cwd: string, env: Record<string, string> = {}) {
  const dir = tempDir();
  temps.push(dir);
  const trace = path.join(dir, "imports.txt");
  await execa(
    process.execPath,
    ["--import", path.join(REPO_ROOT, "test/support/trace-imports.mjs"), JP, ...args],
    {
      cwd,
      env: { NO_COLOR: "1", JP_TRACE_IMPORTS: trace, ...env },
      stdin: "ignore",
    },
  );
  const loaded = new Set(
    fs
      .readFileSync(trace, "utf8")
      .split("\n")
      .filter((url) => url.startsWith("file:"))
      .map((url) => path.relative(REPO_ROOT, new URL(url).pathname)),
  );
  const meta = JSON.parse(fs.readFileSync(path.join(BUNDLE, "meta.json"), "utf8")) as Metafile;
  const chunks = Object.entries(meta.outputs).filter(([file]) => loaded.has(file));
  expect(chunks.length, "the trace names bundle chunks").toBeGreaterThan(1);
  return Object.entries(HEAVY)
    .filter(([, prefix]) =>
      chunks.some(([, output]) => Object.keys(output.inputs).some((i) => i.startsWith(prefix))),
    )
    .map(([name]) => name);
}

describe("start-up loads only what the command uses", () => {
  let mock: MockLlm;
  let cwd: string;
  beforeAll(async () => {
    mock = await startMockLlm([], () => ({ text: "ok" }));
    cwd = tempDir();
    temps.push(cwd);
    await execa(JP, ["init"], { cwd });
    fs.writeFileSync(
      path.join(cwd, ".jp/config.toml"),
      `[assistant.model]\nid = "anthropic/claude-mock"\n[providers.anthropic]\nbase_url = "${mock.url}"\napi_key_env = "MOCK_API_KEY"\n`,
    );
    await execa(JP, ["workspace", "trust"], { cwd });
    await execa(JP, ["c", "new"], { cwd });
  });
  afterAll(async () => {
    await mock.close();
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("jp conversation ls loads no heavy package (no tokenizer, zod or SDK code) and not the other commands", async () => {
    expect(await heavyPackagesLoaded(["conversation", "ls"], cwd)).toEqual([]);
  });

  it("a Tab (jp __complete) for conversation ids, or past a model id's provider, loads none of them, nor the configuration", async () => {
    expect(await heavyPackagesLoaded(["__complete", "conversation"], cwd)).toEqual([]);
    // Aliases (no slash) are the configuration's; after `anthropic/` only the model table is read.
    expect(await heavyPackagesLoaded(["__complete", "model", "--", "anthropic/"], cwd)).toEqual([]);
  });

  it("jp --help loads none of them, not even the commands", async () => {
    expect(await heavyPackagesLoaded(["--help"], cwd)).toEqual([]);
  });

  it("jp q loads no SDK code and no zod; the tokenizer only to keep a budget (the check can see a load)", async () => {
    // Tool lists are cached in the user's cache folder: this run's own.
    const env = { MOCK_API_KEY: "sk-mock", XDG_CACHE_HOME: tempDir() };
    expect(await heavyPackagesLoaded(["q", "hello"], cwd, env)).toEqual(["jp's commands"]);
    const budget = [
      "-c",
      "conversation.compaction.auto.enabled=true",
      "-c",
      "conversation.compaction.auto.max_tokens=50000",
    ];
    expect(await heavyPackagesLoaded([...budget, "q", "again"], cwd, env)).toEqual([
      "the tokenizer",
      "jp's commands",
    ]);
  });

  it("jp q offering a cached MCP server's tools loads no MCP SDK until one is called (jp mcp ls does load it, and zod with it)", async () => {
    const env = { MOCK_API_KEY: "sk-mock" };
    const server = path.join(REPO_ROOT, "test/support/mcp-server.mjs");
    const mcp = `[providers.mcp.bookworm]\ntype = "stdio"\ncommand = "node"\narguments = [${JSON.stringify(server)}]\nall_tools = true\n`;
    fs.appendFileSync(path.join(cwd, ".jp/config.toml"), mcp);
    await execa(JP, ["workspace", "trust"], { cwd });
    try {
      expect(await heavyPackagesLoaded(["mcp", "ls"], cwd, env)).toEqual([
        "zod",
        "the MCP SDK",
        "jp's commands",
      ]);
      expect(fs.existsSync(path.join(mcpCacheDir(env, cwd), "bookworm.json"))).toBe(true);
      expect(await heavyPackagesLoaded(["q", "hello"], cwd, env)).toEqual(["jp's commands"]);
      expect(mock.requests.at(-1)?.body.tools).toEqual(
        arrayContaining([objectContaining({ name: "crates_search" })]),
      );
    } finally {
      const config = path.join(cwd, ".jp/config.toml");
      fs.writeFileSync(config, fs.readFileSync(config, "utf8").replace(mcp, ""));
    }
  });
});

describe("the bundle's chunks", () => {
  it("look another chunk's function up once: its getter gives way to the function itself", () => {
    // main.js's exports, as bin/jp requires them: a copy of the chunk's exports, a getter per name.
    const exports: unknown = createRequire(import.meta.url)(path.join(BUNDLE, "main.js"));
    expect(typeof Object.getOwnPropertyDescriptor(exports, "main")?.get).toBe("function");
    const main: unknown = Reflect.get(exports as object, "main");
    expect(typeof main).toBe("function");
    const settled = Object.getOwnPropertyDescriptor(exports, "main");
    expect(settled && "get" in settled).toBe(false);
    expect(settled).toMatchObject({ value: main, enumerable: true, writable: false });
  });
});
