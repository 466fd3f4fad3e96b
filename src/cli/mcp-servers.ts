// Owns setting up the MCP layer for a command: loaded on demand (a command
// that offers no MCP tool never loads it), with the servers of the
// configuration, jp's environment and its warnings.
import type { Config } from "../config/schema.js";
import type * as Offer from "../mcp/offer.js";
import type { McpServers } from "../mcp/servers.js";
import type { Context } from "./context.js";
import { VERSION } from "./version.js";

export async function loadMcp(
  ctx: Context,
  config: Config,
): Promise<{ offer: typeof Offer; servers: McpServers }> {
  const offer = await import("../mcp/offer.js");
  const servers = offer.createMcpServers(config, {
    env: ctx.env,
    workspaceRoot: ctx.maybeWorkspace()?.root,
    cwd: ctx.cwd,
    version: VERSION,
    now: () => ctx.clock.now(),
    warn: (line) => {
      ctx.warn(line);
    },
  });
  return { offer, servers };
}
