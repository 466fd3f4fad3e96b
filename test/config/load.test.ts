import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { loadConfig } from "../../src/config/load.js";
import { runCli, tempDir } from "../support/workspace.js";

function setup(files: Record<string, string>) {
  const root = tempDir();
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
  const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg") };
  const load = (
    extra: {
      cfg?: string[];
      deltas?: Record<string, unknown>[];
      env?: Record<string, string>;
      flags?: Parameters<typeof loadConfig>[0]["flags"];
    } = {},
  ) =>
    loadConfig({
      cwd: root,
      env: { ...env, ...extra.env },
      workspaceDir: path.join(root, ".jp"),
      cfg: extra.cfg,
      deltas: extra.deltas,
      flags: extra.flags,
    });
  const error = async (extra: Parameters<typeof load>[0] = {}) => {
    try {
      await load(extra);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return e as ConfigError;
    }
    throw new Error("expected a config error");
  };
  return { root, load, error };
}

describe("config layers", () => {
  it("gives flags that depend on the configuration what the other layers make, and keeps it as beforeFlags", async () => {
    const { load } = setup({
      ".jp/config.toml": `[assistant.model]\nid = "workspace/model"\n[assistant.reasoning]\neffort = "none"\n`,
    });
    const seen: unknown[] = [];
    const resolved = await load({
      cfg: ["assistant.model.id=cfg/model"],
      flags: (before) => {
        seen.push(before.assistant?.model?.id, before.assistant?.reasoning?.effort);
        return { assistant: { model: { id: "flag/model" }, reasoning: { effort: "medium" } } };
      },
    });
    expect(seen).toEqual(["cfg/model", "none"]);
    expect(resolved.config.assistant?.model?.id).toBe("flag/model");
    expect(resolved.config.assistant?.reasoning?.effort).toBe("medium");
    expect(resolved.origins.get("assistant.reasoning.effort")).toBe("command flags");
    expect(resolved.beforeFlags.assistant?.model?.id).toBe("cfg/model");
    // No flags: the configuration is what it was before them.
    const plain = await load({ flags: () => undefined });
    expect(plain.beforeFlags).toBe(plain.config);
    expect(plain.origins.get("assistant.model.id")).not.toBe("command flags");
  });

  it("applies layers lowest first: default, user, workspace, environment, deltas, -c, flags", async () => {
    const { load } = setup({
      "xdg/jp/config.toml": `[assistant.model]\nid = "user/model"\ncontext_window = 1000\n`,
      ".jp/config.toml": `[assistant.model]\nid = "workspace/model"\n`,
      ".jp/config.d/fast.toml": `[assistant.model]\nid = "cfg/model"\n`,
    });
    expect((await load()).config.assistant?.model).toEqual({ id: "workspace/model", context_window: 1000 });
    expect((await load({ env: { JP_ASSISTANT_MODEL_ID: "env/model" } })).config.assistant?.model?.id).toBe(
      "env/model",
    );
    expect(
      (
        await load({
          env: { JP_ASSISTANT_MODEL_ID: "env/model" },
          deltas: [{ assistant: { model: { id: "delta/model" } } }],
        })
      ).config.assistant?.model?.id,
    ).toBe("delta/model");
    expect(
      (await load({ deltas: [{ assistant: { model: { id: "delta/model" } } }], cfg: ["fast"] })).config
        .assistant?.model?.id,
    ).toBe("cfg/model");
    expect(
      (await load({ cfg: ["fast"], flags: { assistant: { model: { id: "flag/model" } } } })).config.assistant
        ?.model?.id,
    ).toBe("flag/model");
    const origins = (await load({ env: { JP_ASSISTANT_MODEL_CONTEXT_WINDOW: "5000" } })).origins;
    expect(origins.get("assistant.model.id")).toBe("workspace (.jp/config.toml)");
    expect(origins.get("assistant.model.context_window")).toBe(
      "environment (JP_ASSISTANT_MODEL_CONTEXT_WINDOW)",
    );
  });

  it("keeps the built-in default rule only while no layer defines rules; later layers append; replace replaces", async () => {
    const { load } = setup({
      ".jp/config.toml": `[[conversation.compaction.rules]]\nkeep_last = 3\nreasoning = "strip"\n`,
      ".jp/config.d/more.toml": `[[conversation.compaction.rules]]\ntool_calls = "omit"\n`,
      ".jp/config.d/only.toml": `[conversation.compaction]\nrules = { strategy = "replace", value = [{ tool_calls = "strip-responses" }] }\n`,
    });
    expect((await load()).config.conversation?.compaction?.rules).toEqual([
      { keep_last: 3, reasoning: "strip" },
    ]);
    expect((await load({ cfg: ["more"] })).config.conversation?.compaction?.rules).toEqual([
      { keep_last: 3, reasoning: "strip" },
      { tool_calls: "omit" },
    ]);
    expect((await load({ cfg: ["more", "only"] })).config.conversation?.compaction?.rules).toEqual([
      { tool_calls: "strip-responses" },
    ]);
    const bare = setup({});
    expect((await bare.load()).config.conversation?.compaction?.rules).toEqual([
      { keep_first: 1, keep_last: 1, reasoning: "strip", tool_calls: "strip" },
    ]);
  });

  it("takes -c as key=value, a file path, or a name in .jp/config.d/", async () => {
    const { load, root } = setup({
      "extra.toml": `[conversation.tools.search]\ncompaction = "strip-responses"\n`,
    });
    const config = (
      await load({
        cfg: [
          "extra.toml",
          "conversation.tools.write.compaction=strip-requests",
          "assistant.model.context_window=4096",
        ],
      })
    ).config;
    expect(config.conversation?.tools).toMatchObject({
      search: { compaction: "strip-responses" },
      write: { compaction: "strip-requests" },
    });
    expect(config.assistant?.model?.context_window).toBe(4096);
    expect(fs.existsSync(path.join(root, "extra.toml"))).toBe(true);
  });

  it("lets -c change one field of an MCP server another layer defines, and asks for a type when none does", async () => {
    const { load } = setup({
      ".jp/config.toml": `[providers.mcp.files]\ntype = "stdio"\ncommand = "mcp-files"\n`,
    });
    const config = (await load({ cfg: ["providers.mcp.files.optional=true"] })).config;
    expect(config.providers?.mcp?.files).toEqual({ type: "stdio", command: "mcp-files", optional: true });
    await expect(load({ cfg: ["providers.mcp.nosuch.optional=true"] })).rejects.toThrow(
      "providers.mcp.nosuch.type must be",
    );
    await expect(load({ cfg: ["providers.mcp.files.optional=maybe"] })).rejects.toThrow(
      "providers.mcp.files.optional must be",
    );
  });

  it("drops what this version does not know from config deltas (JP's own keys)", async () => {
    const { load } = setup({});
    const config = (
      await load({
        deltas: [
          {
            inherit: true,
            style: { code: {} },
            assistant: { model: { id: { provider: "anthropic", name: "claude-x" }, parameters: {} } },
          },
        ],
      })
    ).config;
    expect(config.assistant?.model?.id).toBe("anthropic/claude-x");
  });
});

describe("config errors name the file, line and column, or key path", () => {
  it("reports a TOML syntax error with file:line:column", async () => {
    const { error } = setup({ ".jp/config.toml": `[assistant.model]\nid = "x"\nbroken = \n` });
    expect((await error()).message).toMatch(/^\.jp\/config\.toml:3:\d+: /);
  });

  it("reports a bad value with the key path and the accepted values", async () => {
    const { error } = setup({ ".jp/config.toml": `[conversation.tools.search]\ncompaction = "bogus"\n` });
    expect((await error()).message).toBe(
      '.jp/config.toml: conversation.tools.search.compaction must be one of keep, strip, strip-requests, strip-responses, omit; got "bogus"',
    );
  });

  it("reports an unknown key with a did-you-mean", async () => {
    const { error } = setup({ ".jp/config.toml": `[conversation.compaction]\nrulez = []\n` });
    const e = await error();
    expect(e.message).toBe(
      ".jp/config.toml: unknown key conversation.compaction.rulez; did you mean conversation.compaction.rules?",
    );
    const without = await setup({ ".jp/config.toml": `[conversation.compaction]\nxyzzy = 1\n` }).error();
    expect(without.message).toBe(
      ".jp/config.toml: unknown key conversation.compaction.xyzzy (keys accepted here: rules, auto, provider_summaries)",
    );
  });

  it("lists every problem at once, each with a message right for its type and range", async () => {
    const { error } = setup({
      ".jp/config.toml": [
        "[conversation.compaction.auto]",
        "max_tokens = -5",
        'trigger_ratio = "high"',
        "[[conversation.compaction.rules]]",
        'keep_first = "soon"',
        "[assistant]",
        'cache_ttl = "2h"',
        "[assistant.request]",
        "max_retries = 1.5",
        "",
      ].join("\n"),
    });
    expect((await error()).message).toBe(
      [
        "the configuration has 5 problems:",
        '  - .jp/config.toml: assistant.cache_ttl must be one of 5m, 1h; got "2h"',
        "  - .jp/config.toml: assistant.request.max_retries must be a whole number; got 1.5",
        "  - .jp/config.toml: conversation.compaction.rules[0].keep_first: 'soon' is not a bound",
        "  - .jp/config.toml: conversation.compaction.auto.max_tokens must be a whole number above 0; got -5",
        '  - .jp/config.toml: conversation.compaction.auto.trigger_ratio must be a number; got "high"',
      ].join("\n"),
    );
  });

  it("takes keep_last = -3 as the position its message describes, and names what an env var held", async () => {
    const { load, error } = setup({
      ".jp/config.toml": `[[conversation.compaction.rules]]\nkeep_last = -3\nreasoning = "strip"\n`,
    });
    expect((await load()).config.conversation?.compaction?.rules).toEqual([
      { keep_last: -3, reasoning: "strip" },
    ]);
    expect((await error({ env: { JP_ASSISTANT_REQUEST_MAX_RETRIES: "x" } })).message).toBe(
      'environment (JP_ASSISTANT_REQUEST_MAX_RETRIES): assistant.request.max_retries must be a whole number; got "x"',
    );
    expect((await error({ env: { JP_ASSISTANT_CACHE: "maybe" } })).message).toBe(
      'environment (JP_ASSISTANT_CACHE): assistant.cache must be true or false; got "maybe"',
    );
  });

  it("reports a bad value in a rule by its index", async () => {
    const { error } = setup({
      ".jp/config.toml": `[[conversation.compaction.rules]]\ntool_calls = "shred"\n`,
    });
    expect((await error()).message).toContain(
      ".jp/config.toml: conversation.compaction.rules[0].tool_calls must be",
    );
  });

  it("names the -c file and the environment in their errors", async () => {
    const { error } = setup({ ".jp/config.d/bad.toml": `[assistant]\nmodle = 1\n` });
    expect((await error({ cfg: ["bad"] })).message).toBe(
      ".jp/config.d/bad.toml: unknown key assistant.modle; did you mean assistant.model?",
    );
    expect((await error({ env: { JP_ASSISTANT_MODEL_CONTEXT_WINDOW: "lots" } })).message).toContain(
      "environment (JP_ASSISTANT_MODEL_CONTEXT_WINDOW): assistant.model.context_window",
    );
    expect((await error({ cfg: ["missing"] })).message).toBe(
      "-c missing: no such file, and no missing.toml in .jp/config.d/",
    );
  });

  it("loads automatic compaction for a model whose window is unknown: jp q says so, the config is not wrong", async () => {
    const { load } = setup({ ".jp/config.toml": `[conversation.compaction.auto]\nenabled = true\n` });
    const loaded = await load({ env: { JP_ASSISTANT_MODEL_ID: "ollama/qwen3" } });
    expect(loaded.config.conversation?.compaction?.auto?.enabled).toBe(true);
    expect(loaded.config.assistant?.model?.id).toBe("ollama/qwen3");
  });
});

describe("jp config show", () => {
  it("shows values and, with --origin, the layer that set each", async () => {
    const { root } = setup({ ".jp/config.toml": `[assistant.model]\nid = "openai/gpt-4.1"\n` });
    const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg") };
    const shown = await runCli(["config", "show", "--origin", "--json"], { cwd: root, env });
    const { config, origins } = JSON.parse(shown.stdout) as {
      config: { assistant: { model: { id: string } } };
      origins: Record<string, string>;
    };
    expect(config.assistant.model.id).toBe("openai/gpt-4.1");
    expect(origins["assistant.model.id"]).toBe("workspace (.jp/config.toml)");
    expect(origins["conversation.compaction.rules[0]"]).toBe("default (built in)");
    const text = await runCli(["-c", "assistant.model.id=x/y", "config", "show", "--origin"], {
      cwd: root,
      env,
    });
    expect(text.stdout).toMatch(/^assistant\.model\.id += "x\/y" +# -c assistant\.model\.id=x\/y$/m);
    const bad = await runCli(["-c", "assistant.nope=1", "config", "show"], { cwd: root, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("jp: error: -c assistant.nope=1: unknown key assistant.nope");
  });
});

describe("shipped example configs", () => {
  it("every file in config/examples/ loads as a -c layer", async () => {
    const { REPO_ROOT } = await import("../support/workspace.js");
    const dir = path.join(REPO_ROOT, "config/examples");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".toml"));
    expect(files.length).toBeGreaterThanOrEqual(2);
    const { load } = setup({});
    for (const file of files) {
      const config = (await load({ cfg: [path.join(dir, file)] })).config;
      expect(Object.keys(config.conversation?.tools ?? {}).length).toBeGreaterThan(1);
    }
  });
});

describe("an untrusted workspace's servers", () => {
  it("drops the user's tuning of a server only the withheld workspace defines, keeping the user's own", async () => {
    const root = tempDir();
    fs.mkdirSync(path.join(root, ".jp"), { recursive: true });
    fs.writeFileSync(
      path.join(root, ".jp/config.toml"),
      '[providers.mcp.repo]\ntype = "stdio"\ncommand = "sh"\narguments = ["-c", "id"]\n',
    );
    fs.mkdirSync(path.join(root, "xdg/jp"), { recursive: true });
    fs.writeFileSync(
      path.join(root, "xdg/jp/config.toml"),
      '[providers.mcp.repo]\noptional = true\n\n[providers.mcp.mine]\ntype = "stdio"\ncommand = "my-server"\n',
    );
    const load = (trusted: boolean) =>
      loadConfig({
        cwd: root,
        env: { HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg") },
        workspaceDir: path.join(root, ".jp"),
        trusted: () => trusted,
      });
    const untrusted = await load(false);
    expect(untrusted.trust.trusted).toBe(false);
    expect(Object.keys(untrusted.config.providers?.mcp ?? {})).toEqual(["mine"]);
    const trusted = await load(true);
    expect(trusted.config.providers?.mcp?.repo).toMatchObject({ command: "sh", optional: true });
  });
});
