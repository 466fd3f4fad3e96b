// A workspace configured the way JP's users write it (dcdpr/jp's own
// .jp/config.toml): extends with globs, config_load_paths for -c NAME,
// model aliases and one file per MCP tool, read as JP reads them.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import type { Config } from "../../src/config/schema.js";
import { runCli, tempDir } from "../support/workspace.js";

const FILES: Record<string, string> = {
  ".jp/config.toml": `
extends = ["config/personas/default.toml", "mcp/tools/**/*.toml"]
config_load_paths = [".jp/config", ".jp/config/personas"]

[providers.mcp.bookworm]
type = "stdio"
command = "just"
arguments = ["serve-bookworm"]
variables = ["RUST_LOG"]
optional = true
startup_timeout_secs = 60

[providers.llm.aliases]
sonnet = "anthropic/claude-sonnet-5"
haiku = "anthropic/claude-haiku-4-5"

[conversation.tools.'*']
run = "ask"
`,
  ".jp/config/personas/default.toml": `[assistant.model]\nid = "sonnet"\n`,
  ".jp/config/personas/dev.toml": `[assistant]\nsystem_prompt = "You are a developer."\n[assistant.model]\nid = "haiku"\n`,
  ".jp/config/skill/rust.toml": `[conversation.tools.cargo_check]\nenable = true\n`,
  ".jp/mcp/tools/rust/crates_search.toml": `[conversation.tools.crates_search]\nsource = "mcp.bookworm"\nrun = "unattended"\n`,
  ".jp/mcp/tools/rust/crate_readme.toml": `[conversation.tools.rust_crate_readme]\nsource = "mcp.bookworm.crate_readme"\nsummary = "Get a crate's README as markdown."\n`,
  ".jp/mcp/tools/cargo/check.toml": `[conversation.tools.cargo_check]\nsource = "local"\ncommand = ["cargo", "check"]\nenable = false\nrun = "unattended"\ncompaction = "strip"\n`,
};

let root = "";
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

async function configShow(...args: string[]) {
  root = tempDir();
  for (const [name, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  fs.mkdirSync(path.join(root, ".jp/conversations"));
  const result = await runCli([...args, "config", "show", "--origin", "--json"], {
    cwd: root,
    env: { HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg") },
  });
  expect(result.stderr).toBe("");
  return JSON.parse(result.stdout) as { config: Config; origins: Record<string, string> };
}

const EXTENDED = (file: string) => `workspace (.jp/${file}, extended by .jp/config.toml)`;

describe("a JP-style workspace configuration", () => {
  it("reads extends with globs, aliases and MCP tool files, naming the file of each value", async () => {
    const { config, origins } = await configShow();
    expect(config.assistant?.model?.id).toBe("anthropic/claude-sonnet-5");
    expect(origins["assistant.model.id"]).toBe(EXTENDED("config/personas/default.toml"));
    expect(config.conversation?.tools?.crates_search).toEqual({ source: "mcp.bookworm", run: "unattended" });
    expect(origins["conversation.tools.crates_search.run"]).toBe(
      EXTENDED("mcp/tools/rust/crates_search.toml"),
    );
    expect(origins["conversation.tools.rust_crate_readme.source"]).toBe(
      EXTENDED("mcp/tools/rust/crate_readme.toml"),
    );
    expect(origins["conversation.tools.cargo_check.compaction"]).toBe(EXTENDED("mcp/tools/cargo/check.toml"));
    expect(config.providers?.mcp?.bookworm).toEqual({
      type: "stdio",
      command: "just",
      arguments: ["serve-bookworm"],
      variables: ["RUST_LOG"],
      optional: true,
      startup_timeout_secs: 60,
    });
    expect(origins["providers.mcp.bookworm.command"]).toBe("workspace (.jp/config.toml)");
    // The file's own values win over what it extends: run = "ask" for '*' is the workspace's.
    expect(origins["conversation.tools.*.run"]).toBe("workspace (.jp/config.toml)");
  });

  it("finds -c NAME in config_load_paths", async () => {
    const persona = await configShow("-c", "dev");
    expect(persona.config.assistant?.model?.id).toBe("anthropic/claude-haiku-4-5");
    expect(persona.origins["assistant.model.id"]).toBe("-c dev (.jp/config/personas/dev.toml)");
    expect(persona.config.assistant?.system_prompt).toBe("You are a developer.");
    fs.rmSync(root, { recursive: true, force: true });

    const skill = await configShow("-c", "skill/rust");
    expect(skill.config.conversation?.tools?.cargo_check?.enable).toBe(true);
    expect(skill.origins["conversation.tools.cargo_check.enable"]).toBe(
      "-c skill/rust (.jp/config/skill/rust.toml)",
    );
  });

  it("reads -m ALIAS as the model it names", async () => {
    await configShow();
    const { config, origins } = await loadConfig({
      cwd: root,
      env: { HOME: root },
      workspaceDir: path.join(root, ".jp"),
      flags: { assistant: { model: { id: "haiku" } } },
    });
    expect(config.assistant?.model?.id).toBe("anthropic/claude-haiku-4-5");
    expect(origins.get("assistant.model.id")).toBe("command flags");
  });
});
