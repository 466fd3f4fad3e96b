// Owns the tools of a conversation: local tools from config and built-ins in
// one registry, and which of them a request offers (`-t`, `-T`, `-u`).
import { mcpServers } from "../config/providers.js";
import type { Config, ToolConfig } from "../config/schema.js";
import { JpError, UsageError } from "../errors.js";
import { createLocalTool, type ToolEnvironment } from "./local.js";
import { acceptsToggle, resolveEnable, type Enable } from "../config/enable.js";
import type { Tool } from "./types.js";

export type ToolSelection = { enable: boolean; name?: string };

/** A tool of the config that an MCP server serves (`source = "mcp.SERVER"` or `"mcp.SERVER.TOOL"`), made a Tool once its server's list is known. */
export interface McpToolSpec {
  /** The name the model calls it by. */
  name: string;
  server: string;
  /** The server's name for it. */
  remote: string;
  config: ToolConfig;
  enable: Enable;
  source: "mcp";
  /** Offered because its server listed it (`all_tools`), not named by the config. */
  listed?: true;
}

/** What the registry holds: tools ready to run, and MCP tools still to be described by their server. */
export type RegistryEntry = Tool | McpToolSpec;

/** The server and tool a `source` names; the tool defaults to the config's own name. */
export function parseMcpSource(source: string, name: string): { server: string; remote: string } | undefined {
  const match = /^mcp\.([^.]+)(?:\.(.+))?$/.exec(source);
  if (!match) return undefined;
  return { server: match[1]!, remote: match[2] ?? name };
}

/** Whether the config offers any MCP tool: only then is anything of MCP loaded or started. */
export function usesMcp(config: Config, registry: ReadonlyMap<string, RegistryEntry>): boolean {
  return (
    [...registry.values()].some((e) => e.source === "mcp") ||
    Object.values(mcpServers(config)).some((s) => s.all_tools === true)
  );
}

export const isMcpToolSpec = (entry: RegistryEntry): entry is McpToolSpec => "remote" in entry;

export async function buildRegistry(
  config: Config,
  builtins: readonly Tool[] = [],
  // Its `secrets`, the provider keys, never reach a tool, whatever the tool's `env` lists.
  environment: ToolEnvironment,
): Promise<Map<string, RegistryEntry>> {
  const registry = new Map<string, RegistryEntry>();
  const tools = config.conversation?.tools ?? {};
  const defaults = tools["*"] ?? {};
  for (const builtin of builtins) {
    const overrides = tools[builtin.name];
    registry.set(builtin.name, {
      ...builtin,
      run: overrides?.run ?? builtin.run,
      enable: overrides?.enable === undefined ? builtin.enable : resolveEnable(overrides.enable),
    });
  }
  for (const [name, tool] of Object.entries(tools)) {
    if (name === "*" || registry.has(name)) continue;
    if (tool.source === "builtin") {
      throw new JpError(
        "tools.unknown_builtin",
        `conversation.tools.${name} names a built-in tool that does not exist`,
        {
          hint: `built-in tools: ${builtins.map((b) => b.name).join(", ") || "none"}`,
          exitCode: 2,
        },
      );
    }
    const mcp = tool.source === undefined ? undefined : parseMcpSource(tool.source, name);
    if (mcp) {
      const merged = { ...defaults, ...tool };
      registry.set(name, {
        name,
        ...mcp,
        config: merged,
        enable: resolveEnable(tool.enable, defaults.enable),
        source: "mcp",
      });
      continue;
    }
    // Entries with only a compaction hint describe a tool jp does not run itself.
    if (tool.command === undefined && tool.source !== "local") continue;
    registry.set(name, await createLocalTool(name, tool, defaults, environment));
  }
  return registry;
}

/**
 * Apply `-t/--tool[=NAME]` and `-T/--no-tool[=NAME]` left to right over the
 * tools enabled by config, as JP does: a bare `-t`/`-T` flips only the tools
 * any directive may flip (`allow_toggle = "any"`), one that names a tool flips
 * it unless it is locked (`"never"`), which is an error.
 */
export function selectTools<T extends { name: string; enable: Enable }>(
  registry: ReadonlyMap<string, T>,
  selections: readonly ToolSelection[],
): T[] {
  const on = new Set([...registry.values()].filter((t) => t.enable.state).map((t) => t.name));
  const flip = (name: string, enable: boolean) => {
    if (enable) on.add(name);
    else on.delete(name);
  };
  for (const s of selections) {
    if (s.name === undefined) {
      for (const t of registry.values()) if (acceptsToggle(t.enable, false)) flip(t.name, s.enable);
      continue;
    }
    const tool = registry.get(s.name);
    if (!tool) {
      throw new UsageError(
        `no tool named '${s.name}'`,
        `tools: ${[...registry.keys()].join(", ") || "none configured"} (configure one under [conversation.tools.NAME])`,
      );
    }
    if (on.has(s.name) === s.enable) continue;
    if (!acceptsToggle(tool.enable, true)) {
      throw new UsageError(
        `cannot ${s.enable ? "enable" : "disable"} ${s.name}: it is configured as locked ${tool.enable.state ? "on" : "off"}`,
        `conversation.tools.${s.name}.enable has allow_toggle = "never"; change it there to choose per question`,
      );
    }
    flip(s.name, s.enable);
  }
  return [...registry.values()].filter((t) => on.has(t.name));
}
