// `jp mcp tools SERVER`: the tools an MCP server serves, and which of them
// the configuration offers under which name.
import type { Command } from "commander";
import { mcpServers } from "../../../config/providers.js";
import type { Config } from "../../../config/schema.js";
import { UsageError } from "../../../errors.js";
import type { McpToolInfo } from "../../../mcp/cache.js";
import { visible } from "../../../render/visible.js";
import { parseMcpSource } from "../../../tools/registry.js";
import type { Context } from "../../context.js";
import { loadMcp } from "../../mcp-servers.js";

/** The jp tool names config gives each of a server's tools (`source = "mcp.SERVER[.TOOL]"`). */
function configuredNames(config: Config, server: string): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const [name, tool] of Object.entries(config.conversation?.tools ?? {})) {
    const source = tool.source === undefined ? undefined : parseMcpSource(tool.source, name);
    if (source?.server === server) names.set(source.remote, [...(names.get(source.remote) ?? []), name]);
  }
  return names;
}

async function listTools(ctx: Context, server: string, opts: { json?: boolean }): Promise<void> {
  const { config } = await ctx.config({});
  if (!Object.hasOwn(mcpServers(config), server))
    throw new UsageError(
      `no MCP server named '${server}'`,
      `servers: ${Object.keys(mcpServers(config)).join(", ") || "none configured ([providers.mcp.NAME])"}`,
    );
  const { servers: pool } = await loadMcp(ctx, config);
  let tools: McpToolInfo[];
  try {
    tools = await pool.liveTools(server);
  } finally {
    await pool.closeAll();
  }
  const names = configuredNames(config, server);
  const allTools = mcpServers(config)[server]?.all_tools === true;
  const offeredAs = (tool: string) => names.get(tool) ?? (allTools ? [tool] : []);
  if (opts.json) {
    ctx.out(
      JSON.stringify({ server, tools: tools.map((t) => ({ ...t, offered_as: offeredAs(t.name) })) }, null, 2),
    );
    return;
  }
  for (const t of tools) {
    const as = offeredAs(t.name);
    const hints = Object.entries(t.annotations ?? {})
      .filter(([k, v]) => k.endsWith("Hint") && v === true)
      .map(([k]) => k.replace(/Hint$/, ""));
    ctx.out(
      `${ctx.color.bold(visible(t.name))}${hints.length ? ctx.color.dim(` [${hints.join(", ")}]`) : ""}${as.length ? ctx.color.cyan(`  offered as ${as.map(visible).join(", ")}`) : ctx.color.dim("  not offered")}`,
    );
    const first = t.description.split("\n").find((l) => l.trim() !== "");
    if (first) ctx.out(`  ${visible(first.trim())}`);
  }
  if (tools.length === 0) ctx.out(`${server} serves no tools`);
}

export function register(mcp: Command, ctx: Context): void {
  mcp
    .command("tools <server>")
    .description("start an MCP server and list its tools, and which of them the configuration offers")
    .option(
      "--json",
      "print { server, tools: [{ name, description, input_schema, annotations, offered_as }] }",
    )
    .action((server: string, opts: { json?: boolean }) => listTools(ctx, server, opts));
}
