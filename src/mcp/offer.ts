// Owns turning the config's MCP tools into tools a request offers: the
// servers of the config, every tool of an `all_tools` server, and each
// selected MCP tool described by its server (from the cache when it can be).
import * as path from "node:path";
import { perWorkspaceDir, userCacheDir } from "../user-cache.js";
import { mcpServers } from "../config/providers.js";
import { resolveEnable } from "../config/enable.js";
import { providerKeyEnvs } from "../llm/create-provider.js";
import type { Config } from "../config/schema.js";
import { UsageError } from "../errors.js";
import { quotedName } from "../render/visible.js";
import { toolNameProblem } from "../tools/names.js";
import { isMcpToolSpec, type McpToolSpec, type RegistryEntry } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";
import { McpToolCache } from "./cache.js";
import { McpServers } from "./servers.js";
import { createMcpTool } from "./tool.js";

export interface McpSetup {
  env: NodeJS.ProcessEnv;
  /** The workspace root, when there is one: its tool lists are cached by it, and stdio servers start there. */
  workspaceRoot: string | undefined;
  cwd: string;
  version: string;
  now: () => Date;
  warn: (line: string) => void;
}

/**
 * Where tool lists are cached: the user's cache folder, a folder per
 * workspace (by its real path). Never the workspace's `.jp/`: a list a cloned
 * repository committed there would be believed as if its server had said it.
 */
export function mcpCacheDir(env: NodeJS.ProcessEnv, workspaceRoot: string | undefined): string {
  return perWorkspaceDir(path.join(userCacheDir(env), "mcp"), workspaceRoot);
}

/** The servers the config defines, none started yet. */
export function createMcpServers(config: Config, setup: McpSetup): McpServers {
  return new McpServers({
    servers: mcpServers(config),
    environment: {
      env: setup.env,
      workspace: setup.workspaceRoot ?? setup.cwd,
      // Provider keys never reach a server, whatever its `variables` list.
      secrets: providerKeyEnvs(config),
      version: setup.version,
      warn: setup.warn,
    },
    cache: new McpToolCache(mcpCacheDir(setup.env, setup.workspaceRoot)),
    now: setup.now,
    warn: setup.warn,
  });
}

/** Who holds a tool name in the registry, as a warning says it. */
function holderOf(entry: RegistryEntry): string {
  if (isMcpToolSpec(entry)) return `MCP server ${entry.server}'s tool ${entry.remote}`;
  return entry.source === "builtin" ? "a built-in tool of jp" : "a local tool";
}

/**
 * Add every tool of each `all_tools` server under its own name. A name no
 * provider takes, or one another tool holds already, is left out with a
 * warning saying how to offer it under a name of the user's own.
 */
export async function addAllToolsServers(
  config: Config,
  registry: Map<string, RegistryEntry>,
  servers: McpServers,
  warn: (line: string) => void,
): Promise<void> {
  const wanted = Object.entries(mcpServers(config)).filter(([, s]) => s.all_tools === true);
  const lists = await Promise.all(wanted.map(async ([name]) => [name, await servers.tools(name)] as const));
  const defaults = config.conversation?.tools?.["*"] ?? {};
  for (const [server, tools] of lists)
    for (const tool of tools) {
      const rename = `offer it under a name of your own: [conversation.tools.NAME] source = "mcp.${server}.TOOL"`;
      const problem = toolNameProblem(tool.name);
      if (problem) {
        warn(`left out MCP server ${server}'s tool ${quotedName(tool.name)}: ${problem}; ${rename}`);
        continue;
      }
      const holder = registry.get(tool.name);
      if (!holder) {
        registry.set(tool.name, {
          name: tool.name,
          server,
          remote: tool.name,
          config: { ...defaults },
          enable: resolveEnable(undefined, defaults.enable),
          source: "mcp",
          listed: true,
        });
        continue;
      }
      // The config naming this very tool is no collision.
      if (isMcpToolSpec(holder) && holder.server === server && holder.remote === tool.name) continue;
      warn(
        `MCP server ${server}'s tool ${tool.name} is not offered: ${holderOf(holder)} has that name; ${rename}`,
      );
    }
}

/**
 * The selected MCP tools, each described by its server. Servers are asked in
 * parallel, and only those without a cached list, or whose cached list lacks
 * a tool the config names, are waited for; the others start when the model
 * first calls one of their tools.
 */
export async function describeMcpTools(
  specs: readonly McpToolSpec[],
  servers: McpServers,
  fromConversation: ReadonlySet<string>,
  warn: (line: string) => void,
): Promise<Tool[]> {
  const byServer = new Map<string, McpToolSpec[]>();
  for (const spec of specs) byServer.set(spec.server, [...(byServer.get(spec.server) ?? []), spec]);
  for (const spec of specs)
    if (!servers.config(spec.server))
      throw new UsageError(
        `tool ${spec.name} comes from MCP server ${spec.server}, which is not configured`,
        `define it: [providers.mcp.${spec.server}] type = "stdio", command = "…" (or type = "http", url = "…")`,
      );
  const lists = new Map(
    await Promise.all([...byServer.keys()].map(async (s) => [s, await servers.tools(s)] as const)),
  );
  const tools: Tool[] = [];
  const refreshed = new Set<string>();
  for (const spec of specs) {
    let list = lists.get(spec.server) ?? [];
    let info = list.find((t) => t.name === spec.remote);
    if (!info && list.length > 0 && !refreshed.has(spec.server)) {
      // The cached list may be older than the server: ask it before saying it has no such tool.
      refreshed.add(spec.server);
      list = await servers.tools(spec.server, { fresh: true });
      lists.set(spec.server, list);
      info = list.find((t) => t.name === spec.remote);
    }
    if (!info) {
      // An optional server that did not start has no list: its tools are left out, as warned.
      if (list.length === 0 && servers.config(spec.server)?.optional) continue;
      // A tool offered only because an older list had it is gone from the server: nothing to say.
      if (spec.listed) continue;
      // A tool a recorded conversation names may be gone from the server since: left out, said.
      if (fromConversation.has(spec.name)) {
        warn(
          `left out ${spec.name}: MCP server ${spec.server} has no tool ${spec.remote} (named by this conversation)`,
        );
        continue;
      }
      throw new UsageError(
        `MCP server ${spec.server} has no tool ${spec.remote} (conversation.tools.${spec.name}.source)`,
        `its tools: ${list.map((t) => t.name).join(", ") || "none"} (\`jp mcp tools ${spec.server}\`)`,
      );
    }
    tools.push(createMcpTool(spec, info, servers, fromConversation.has(spec.name)));
  }
  return tools;
}
