// `jp completion SHELL`: the bash script, run by bash itself, completes commands, subcommands and options;
// `jp __complete KIND`, which the scripts call, offers the workspace's values.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { McpToolCache } from "../../../src/mcp/cache.js";
import { mcpCacheDir } from "../../../src/mcp/offer.js";
import { REPO_ROOT, runCli, tempDir } from "../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

/** What bash offers after `words` (the last one being completed), with jp's script loaded. */
async function offered(...words: string[]): Promise<string[]> {
  const script = [
    `eval "$('${JP}' completion bash)"`,
    `COMP_WORDS=(jp ${words.map((w) => `'${w}'`).join(" ")})`,
    `COMP_CWORD=${words.length}`,
    "_jp_complete",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const { stdout } = await execa("bash", ["-c", script]);
  return stdout.split("\n").filter(Boolean);
}

it("completes commands, the subcommands of conversation (and its alias c), and each command's options", async () => {
  expect(await offered("")).toEqual(
    expect.arrayContaining(["q", "init", "conversation", "c", "config", "model", "mcp", "completion"]),
  );
  expect(await offered("conversation", "gr")).toEqual(["grep"]);
  expect(await offered("c", "compact", "--dr")).toEqual(["--dry-run"]);
  expect(await offered("q", "--hide")).toEqual(["--hide-reasoning", "--hide-tool-calls"]);
  expect(await offered("conversation", "ls", "--")).toEqual(
    expect.arrayContaining(["--label", "--archived", "--json"]),
  );
});

it("keeps __complete, which scripts call, out of the commands offered and jp --help", async () => {
  expect(await offered("")).not.toContain("__complete");
  expect((await runCli(["--help"], { cwd: REPO_ROOT })).stdout).not.toContain("__complete");
});

it("__complete says which kinds it knows, and offers nothing outside a workspace where values are the workspace's", async () => {
  const wrong = await runCli(["__complete", "colour"], { cwd: REPO_ROOT });
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("nothing completes 'colour'");
  const outside = await runCli(["__complete", "conversation"], { cwd: "/" });
  expect(outside).toMatchObject({ code: 0, stdout: "", stderr: "" });
  const keys = await runCli(["__complete", "config-key", "--", "assistant.model."], { cwd: "/" });
  expect(keys.stdout.split("\n")).toContain("assistant.model.id=\tstring");
});

it("prints zsh and fish scripts, and names the shells it knows otherwise", async () => {
  const zsh = await runCli(["completion", "zsh"], { cwd: REPO_ROOT });
  expect(zsh.stdout).toContain("compdef _jp jp");
  expect(zsh.stdout).toContain('"q --id") kind=conversation');
  const fish = await runCli(["completion", "fish"], { cwd: REPO_ROOT });
  expect(fish.stdout).toContain(
    "complete -c jp -f -n '__fish_use_subcommand' -a 'q query init conversation c",
  );
  expect(fish.stdout).toContain("-l hide-reasoning");
  // A value option asks jp for its values.
  expect(fish.stdout).toContain("-s m -x -a '(command jp __complete model -- (commandline -ct))'");
  const other = await runCli(["completion", "tcsh"], { cwd: REPO_ROOT });
  expect(other.code).toBe(2);
  expect(other.stderr).toContain("no completion for 'tcsh'");
});

describe("__complete in a workspace", () => {
  let ws: string;
  let env: NodeJS.ProcessEnv;
  const complete = async (...args: string[]) => {
    const result = await runCli(["__complete", ...args], { cwd: ws, env });
    expect(result.stderr).toBe("");
    return result.stdout.split("\n").filter(Boolean);
  };
  beforeAll(async () => {
    ws = tempDir();
    env = { XDG_CACHE_HOME: tempDir(), XDG_CONFIG_HOME: tempDir() };
    expect((await runCli(["init"], { cwd: ws, env })).code).toBe(0);
    fs.mkdirSync(path.join(ws, ".jp/config.d"));
    fs.writeFileSync(path.join(ws, ".jp/config.d/reviewer.toml"), 'assistant.name = "Reviewer"\n');
    fs.mkdirSync(path.join(ws, "personas/skill"), { recursive: true });
    fs.writeFileSync(path.join(ws, "personas/dev.toml"), "");
    fs.writeFileSync(path.join(ws, "personas/skill/web.toml"), "");
    // A file of the same name in a later folder is not the one -c reads: offered once, as the first.
    fs.writeFileSync(path.join(ws, "personas/reviewer.toml"), "");
    const mcp = { type: "stdio" as const, command: "node", arguments: ["server.mjs"], all_tools: true };
    fs.appendFileSync(
      path.join(ws, ".jp/config.toml"),
      [
        'config_load_paths = ["personas"]',
        "[providers.llm.aliases]",
        'sonnet = "anthropic/claude-sonnet-5"',
        "[providers.mcp.books]",
        `type = "stdio"\ncommand = "node"\narguments = ["server.mjs"]\nall_tools = true`,
        // Said once on stderr, by the first command that reads the configuration and says what it found.
        "[assistant.request]\nmax_retries = 99",
        "",
      ].join("\n"),
    );
    // The tools a server had when a turn last listed them, kept where jp keeps them: Tab starts no server.
    const tool = { name: "crates_search", description: "Search crates.io", input_schema: { type: "object" } };
    new McpToolCache(mcpCacheDir(env, ws)).write("books", mcp, [tool], new Date());
  });

  it("offers what -c NAME reads (JP's personas, a file one folder down), each beside its file, before the config keys", async () => {
    expect(await complete("persona")).toEqual([
      `reviewer\t${path.join(".jp", "config.d", "reviewer.toml")}`,
      "dev\tpersonas/dev.toml",
      "skill/web\tpersonas/skill/web.toml",
    ]);
    const cfg = await complete("cfg", "--", "");
    expect(cfg.slice(0, 3).map((line) => line.split("\t")[0])).toEqual(["reviewer", "dev", "skill/web"]);
    expect(cfg).toContain("assistant.model.id=\tstring");
    expect(await complete("cfg", "--", "d")).toEqual(["dev\tpersonas/dev.toml"]);
  });

  it("offers the configuration's model aliases with the model each names, and an all_tools server's cached tools with the built-in ones", async () => {
    expect(await complete("model", "--", "so")).toEqual(["sonnet\talias of anthropic/claude-sonnet-5"]);
    expect(await complete("tool")).toEqual([
      "crates_search\tMCP server books: Search crates.io",
      "compact\tbuilt-in: the assistant compacts this conversation",
      "recall\tbuilt-in: the assistant reads back what compaction took from its view",
    ]);
  });

  it("says nothing of the configuration, so that the line a command says once is still said by the next command", async () => {
    await complete("tool");
    const shown = await runCli(["config", "show"], { cwd: ws, env });
    expect(shown.stderr).toContain("max_retries");
  });
});

it("__complete still offers the built-in models and config keys where the configuration has a problem", async () => {
  const ws = tempDir();
  expect((await runCli(["init"], { cwd: ws })).code).toBe(0);
  fs.appendFileSync(path.join(ws, ".jp/config.toml"), "\n[assistant\n");
  const models = await runCli(["__complete", "model", "--", "anthropic/claude-sonnet-5-5"], { cwd: ws });
  expect(models).toMatchObject({ code: 0, stderr: "" });
  expect(models.stdout).toMatch(/^anthropic\/claude-sonnet-5-5\t/);
  const keys = await runCli(["__complete", "cfg", "--", "assistant.model.i"], { cwd: ws });
  expect(keys.stdout).toBe("assistant.model.id=\tstring\n");
});
