// `jp mcp ls`: the MCP servers the configuration defines, and whether each starts.
import type { Command } from "commander";
import { mcpServers } from "../../../config/providers.js";
import type { McpServerConfig } from "../../../config/schema.js";
import { visible } from "../../../render/visible.js";
import { counted } from "../../../render/words.js";
import type { Context } from "../../context.js";
import { loadMcp } from "../../mcp-servers.js";

interface ServerStatus {
  name: string;
  type: "stdio" | "http";
  /** The command a stdio server runs, or an HTTP server's URL. */
  target: string;
  optional: boolean;
  state: "running" | "failed" | "not started";
  tools: number | null;
  error: string | null;
}

function target(config: McpServerConfig): string {
  return config.type === "stdio" ? [config.command, ...(config.arguments ?? [])].join(" ") : config.url;
}

async function listServers(ctx: Context, opts: { json?: boolean; start: boolean }): Promise<void> {
  const { config } = await ctx.config({});
  const defined = Object.entries(mcpServers(config));
  const { servers: pool } = await loadMcp(ctx, config);
  let statuses: ServerStatus[];
  try {
    statuses = await Promise.all(
      defined.map(async ([name, server]): Promise<ServerStatus> => {
        const base = { name, type: server.type, target: target(server), optional: server.optional === true };
        if (!opts.start) return { ...base, state: "not started", tools: null, error: null };
        try {
          const tools = await pool.liveTools(name);
          return { ...base, state: "running", tools: tools.length, error: null };
        } catch (error) {
          return {
            ...base,
            state: "failed",
            tools: null,
            error: error instanceof Error ? error.message : String(error),
          };
        }
      }),
    );
  } finally {
    await pool.closeAll();
  }
  // A script checking its servers learns of a failure from the exit code.
  const failed = statuses.filter((s) => s.state === "failed");
  if (failed.length) ctx.exitCode = 1;
  if (opts.json) {
    ctx.out(JSON.stringify({ servers: statuses }, null, 2));
    return;
  }
  if (statuses.length === 0) {
    ctx.out('no MCP servers configured (define one: [providers.mcp.NAME] type = "stdio", command = "…")');
    return;
  }
  for (const s of statuses) {
    const state =
      s.state === "running"
        ? ctx.color.green(`running, ${counted(s.tools ?? 0, "tool")}`)
        : s.state === "failed"
          ? ctx.color.red("failed")
          : ctx.color.dim("not started");
    ctx.out(
      `${s.name}  ${s.type}  ${visible(s.target)}  ${state}${s.optional ? ctx.color.dim("  (optional)") : ""}`,
    );
    if (s.error) ctx.out(`  ${visible(s.error).split("\n").join("\n  ")}`);
  }
  if (failed.length)
    ctx.info(
      `${failed.length} of ${counted(statuses.length, "MCP server")} failed to start: ${failed.map((s) => s.name).join(", ")}`,
    );
}

export function register(mcp: Command, ctx: Context): void {
  mcp
    .command("ls")
    .description(
      "list the MCP servers of the configuration, starting each to show whether it runs (exit code 1 when one failed)",
    )
    .option("--no-start", "only list them, without starting any")
    .option("--json", "print { servers: [{ name, type, target, optional, state, tools, error }] }")
    .action((opts: { json?: boolean; start: boolean }) => listServers(ctx, opts));
}
