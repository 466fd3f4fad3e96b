// Owns the MCP servers a `jp mcp` command starts: those of the configuration,
// with jp's environment, ended when the command is done.
import type { Config } from "../../../config/schema.js";
import { createMcpServers } from "../../../mcp/offer.js";
import type { McpServers } from "../../../mcp/servers.js";
import type { Context } from "../../context.js";
import { VERSION } from "../../version.js";

export function mcpServersOf(ctx: Context, config: Config): McpServers {
  return createMcpServers(config, {
    env: ctx.env,
    workspaceRoot: ctx.maybeWorkspace()?.root,
    cwd: ctx.cwd,
    version: VERSION,
    now: () => ctx.clock.now(),
    warn: (line) => {
      ctx.warn(line);
    },
  });
}
