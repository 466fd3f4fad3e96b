// A JP user's afternoon in dcdpr/jp's own workspace (fixtures/jp-workspace, its
// configuration at 4c1c39f1, with recorded conversations from
// fixtures/jp-conversations), in a git repository holding it: JP's words mean
// what they mean in JP, a server no offered tool needs is never started, an
// optional one that fails does not block a turn, and no command leaves a file
// of jp's where JP's repository sees it.
import { execaSync } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../support/mock-llm.js";
import { REPO_ROOT, runCli, tempDir } from "../support/workspace.js";

const CONVERSATION = "17665556205";
let root = "";
let mock: MockLlm;
let env: Record<string, string>;
/** Where the fake `just` records each recipe it was asked to run. */
let justLog = "";

const git = (...args: string[]) => execaSync("git", args, { cwd: root }).stdout;

beforeAll(async () => {
  root = tempDir("jp-afternoon-");
  fs.cpSync(path.join(REPO_ROOT, "fixtures/jp-workspace/.jp"), path.join(root, ".jp"), { recursive: true });
  for (const folder of fs.readdirSync(path.join(REPO_ROOT, "fixtures/jp-conversations")))
    if (/^\d/.test(folder))
      fs.cpSync(
        path.join(REPO_ROOT, "fixtures/jp-conversations", folder),
        path.join(root, ".jp/conversations", folder),
        { recursive: true },
      );
  // JP's `just serve-bookworm` builds the server first; here the build fails, as it did that afternoon.
  const bin = path.join(root, "bin");
  justLog = path.join(root, "just.log");
  fs.mkdirSync(bin);
  fs.writeFileSync(
    path.join(bin, "just"),
    `#!/bin/sh\necho "$@" >> ${JSON.stringify(justLog)}\necho "error[E0432]: unresolved import \\\`wrm_core\\\`" >&2\necho "error: could not compile \\\`wrm-mcp\\\`" >&2\nexit 101\n`,
    { mode: 0o755 },
  );
  git("init", "-q");
  fs.writeFileSync(path.join(root, ".gitignore"), "bin/\njust.log\nhome/\n");
  git("add", "-A");
  git("-c", "user.email=jp@example.com", "-c", "user.name=jp", "commit", "-qm", "JP's workspace");
  mock = await startMockLlm([]);
  mock.models.set("claude-sonnet-5", {
    type: "model",
    id: "claude-sonnet-5",
    display_name: "Claude Sonnet 5",
    created_at: "2026-01-01T00:00:00Z",
  });
  const home = path.join(root, "home");
  env = {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, ".config"),
    XDG_CACHE_HOME: path.join(home, ".cache"),
    XDG_DATA_HOME: path.join(home, ".local/share"),
    PATH: `${bin}:${process.env.PATH ?? ""}`,
    ANTHROPIC_API_KEY: "sk-ant-mock",
  };
  // The user's own config, written for JP as JP documents it: where the provider is, and the server made optional.
  fs.mkdirSync(path.join(env.XDG_CONFIG_HOME!, "jp"), { recursive: true });
  fs.writeFileSync(
    path.join(env.XDG_CONFIG_HOME!, "jp/config.toml"),
    `[providers.llm.anthropic]\nbase_url = ${JSON.stringify(mock.url)}\n\n[providers.mcp.bookworm]\noptional = true\n`,
  );
  // The user's own repository: they trust its workspace, as they would at the first prompt.
  const trusted = await jp("workspace", "trust");
  expect(trusted.code, trusted.stderr).toBe(0);
});

afterAll(async () => {
  await mock.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const jp = (...args: string[]) => runCli(args, { cwd: root, env });

/** A command of the afternoon: it works, and leaves JP's repository as it was. */
async function clean(...args: string[]) {
  const result = await jp(...args);
  expect(git("status", "--porcelain", "--untracked-files=all"), `after jp ${args.join(" ")}`).toBe("");
  return result;
}

/** What the fake `just` was asked to run, one recipe a line. */
/** The servers `just` was asked to start (the persona's `cmd://just` attachments run too, and are not servers). */
const recipes = () =>
  (fs.existsSync(justLog) ? fs.readFileSync(justLog, "utf8").trim().split("\n") : []).filter((line) =>
    line.startsWith("serve-"),
  );

describe("a JP user's afternoon in dcdpr/jp's workspace", () => {
  it("a turn whose offered tools need no MCP server starts none", async () => {
    mock.push({ text: "hello from the mock" }, { text: "A title" });
    const asked = await clean("q", "-n", "hello");
    expect(asked.code, asked.stderr).toBe(0);
    expect(recipes()).toEqual([]);
    // JP's default persona says reasoning.effort = "auto": Sonnet 5 thinks, so it is asked to.
    const body = mock.requests[0]!.body as {
      thinking?: { type: string };
      output_config?: { effort?: string };
    };
    expect(body.thinking?.type).toBe("adaptive");
    expect(body.output_config?.effort).toBe("medium");
  });

  it("takes JP's label forms: c l, add, a, set, r, rm with no keys", async () => {
    const labels = async (...args: string[]) => {
      const done = await clean("c", "l", ...args, "--id", CONVERSATION, "--json");
      expect(done.code, done.stderr).toBe(0);
      return (JSON.parse(done.stdout) as { labels: string[] }).labels;
    };
    expect(await labels("add", "review")).toEqual(["review"]);
    expect(await labels("a", "later")).toEqual(["review", "later"]);
    expect(await labels("set", "prio=high")).toEqual(["review", "later", "prio=high"]);
    expect(await labels("r", "review")).toEqual(["later", "prio=high"]);
    expect(await labels("rm", "prio")).toEqual(["later"]);
    expect(await labels("add", "x", "y")).toEqual(["later", "x", "y"]);
    expect(await labels("rm")).toEqual([]);
  });

  it("attaches a command's output and a folder as JP takes them, saying how much", async () => {
    mock.push({ text: "seen" }, { text: "Attachments" }, { text: "again" });
    const asked = await clean(
      "q",
      "-a",
      "cmd://date?arg=%2B%25Y",
      "-a",
      "cmd://env",
      "-a",
      ".jp/config/personas",
      "what do you see?",
    );
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stderr).toMatch(/^attached 15 attachments \(≈[\d,]+ tokens\)$/m);
    const sent = JSON.stringify(mock.requests.at(-1)!.body.messages);
    expect(sent).toContain(`<stdout>${new Date().getFullYear()}`);
    // The command runs with a tool's environment: the provider key stays with jp.
    expect(sent).toContain("PATH=");
    expect(sent).not.toContain("sk-ant-mock");
    expect(sent).toContain(".jp/config/personas/dev.toml");
    const folder = await clean("q", "-a", ".jp/config/personas", "again");
    expect(folder.stderr).toMatch(/^attached 13 files \(≈[\d,]+ tokens\)$/m);
  });

  it("leaves JP's repository clean after each of the afternoon's other commands", async () => {
    const commands = [
      ["init"],
      ["c", "ls"],
      ["c", "use", CONVERSATION],
      ["c", "s", "."],
      ["c", "p", CONVERSATION],
      ["c", "g", "merge", CONVERSATION],
      ["c", "e", CONVERSATION, "--title", "Vec merging"],
      ["c", "a", CONVERSATION],
      ["c", "ua", CONVERSATION],
      ["c", "fork", CONVERSATION],
      ["c", "compact", CONVERSATION, "--dry-run"],
      ["cfg", "show"],
    ];
    for (const command of commands) {
      const result = await clean(...command);
      expect(result.code, `jp ${command.join(" ")}: ${result.stderr}`).toBe(0);
    }
  });

  it("refuses an effort it does not know, naming the efforts, and sends nothing", async () => {
    const sent = mock.requests.length;
    const refused = await clean("q", "-r", "ultra", "bad effort?");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("-r ultra is not an effort");
    expect(refused.stderr).toContain("none, off, minimal, xlow, low, medium, high, xhigh, max, auto");
    expect(mock.requests).toHaveLength(sent);
  });

  it("refuses a mistyped alias, naming JP's alias nearest it, and sends nothing", async () => {
    const sent = mock.requests.length;
    const refused = await clean("q", "-m", "opsu", "which model?");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("model id 'opsu' is not provider/name; did you mean opus?");
    expect(mock.requests).toHaveLength(sent);
  });

  it("an optional server (the user's JP config says so) that fails does not block a turn, and is said once", async () => {
    // -t offers a tool of bookworm's: the server is needed, and cannot be built.
    mock.push({ text: "first" }, { text: "A title" });
    const first = await clean("q", "-n", "-t", "rust_crates_search", "what does serde do?");
    expect(first.code, first.stderr).toBe(0);
    expect(recipes()).toEqual(["serve-bookworm"]);
    const said = first.stderr.split("\n").filter((l) => l.includes("bookworm"));
    expect(said).toEqual([
      "jp: warning: MCP server bookworm could not be started (error: could not compile `wrm-mcp`); optional, so its tools are left out, and jp tries it again in an hour or when its config changes (`jp mcp ls` shows it)",
    ]);
    const offered = (mock.requests.at(-2)!.body.tools as { name: string }[]).map((t) => t.name);
    expect(offered.some((name) => name.startsWith("rust_"))).toBe(false);
    // The next turn neither starts it again nor says so again.
    mock.push({ text: "second" });
    const second = await clean("q", "-t", "rust_crates_search", "and tokio?");
    expect(second.code, second.stderr).toBe(0);
    expect(recipes()).toEqual(["serve-bookworm"]);
    expect(second.stderr).not.toContain("bookworm");
  });
});
