// Owns turning the config's MCP tools into tools a request offers: the
// servers of the config, every tool of an `all_tools` server, and each
// selected MCP tool described by its server (from the cache when it can be).
import * as os from "node:os";
import * as path from "node:path";
import { mcpServers } from "../config/providers.js";
import { providerKeyEnvs } from "../llm/providers.js";
import type { Config } from "../config/schema.js";
import { UsageError } from "../errors.js";
import type { McpToolSpec, RegistryEntry } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";
import { McpToolCache } from "./cache.js";
import { McpServers } from "./servers.js";
import { createMcpTool } from "./tool.js";

export interface McpSetup {
  env: NodeJS.ProcessEnv;
  /** The workspace root, when there is one: its `.jp/cache` keeps tool lists, and stdio servers start there. */
  workspaceRoot: string | undefined;
  cwd: string;
  version: string;
  now: () => Date;
  warn: (line: string) => void;
}

/** Where tool lists are cached: the workspace's `.jp/cache/mcp`, else the user's cache folder. */
function cacheDir(setup: McpSetup): string {
  if (setup.workspaceRoot) return path.join(setup.workspaceRoot, ".jp", "cache", "mcp");
  const base = setup.env.XDG_CACHE_HOME || path.join(setup.env.HOME || os.homedir(), ".cache");
  return path.join(base, "jp", "mcp");
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
    },
    cache: new McpToolCache(cacheDir(setup)),
    now: setup.now,
    warn: setup.warn,
  });
}

/** Add every tool of each `all_tools` server under its own name, unless the config names that tool already. */
export async function addAllToolsServers(
  config: Config,
  registry: Map<string, RegistryEntry>,
  servers: McpServers,
): Promise<void> {
  const wanted = Object.entries(mcpServers(config)).filter(([, s]) => s.all_tools === true);
  const lists = await Promise.all(wanted.map(async ([name]) => [name, await servers.tools(name)] as const));
  const defaults = config.conversation?.tools?.["*"] ?? {};
  for (const [server, tools] of lists)
    for (const tool of tools)
      if (!registry.has(tool.name))
        registry.set(tool.name, {
          name: tool.name,
          server,
          remote: tool.name,
          config: { ...defaults },
          enable: true,
          source: "mcp",
        });
}

/**
 * The selected MCP tools, each described by its server. Servers are asked in
 * parallel, and only those without a cached list are waited for; the others
 * start when the model first calls one of their tools.
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
  servers.offer(byServer.keys());
  const tools: Tool[] = [];
  for (const spec of specs) {
    const list = lists.get(spec.server) ?? [];
    const info = list.find((t) => t.name === spec.remote);
    if (!info) {
      // An optional server that did not start has no list: its tools are left out, as warned.
      if (list.length === 0 && servers.config(spec.server)?.optional) continue;
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
