// Owns the tools a `jp q` turn offers: the registry for the conversation,
// MCP servers started as they are needed, and the tools left out, said once.
import type { Config } from "../../config/schema.js";
import type { McpServers } from "../../mcp/servers.js";
import { leftOutSummary } from "../../render/left-out.js";
import { quotedName } from "../../render/visible.js";
import { counted } from "../../render/words.js";
import { type ConversationRef } from "../../store/conversations.js";
import { withAcceptedNames } from "../../tools/names.js";
import { isMcpToolSpec, selectTools, usesMcp } from "../../tools/registry.js";
import type { Tool } from "../../tools/types.js";
import type { Context } from "../context.js";
import { loadMcp } from "../mcp-servers.js";
import { conversationRegistry } from "../tool-registry.js";
import type { QOptions } from "./options.js";

/**
 * Say which tools the conversation's recorded config names but jp cannot run
 * (an imported conversation's MCP tools), once per conversation and again only
 * when the list changes; `jp conversation show` always lists them.
 */
export function noticeLeftOutTools(
  ctx: Context,
  ref: ConversationRef | undefined,
  leftOut: readonly string[],
  persist: boolean,
): void {
  if (leftOut.length === 0) return;
  const store = ctx.store();
  const metadata = ref ? store.metadata(ref) : undefined;
  const noticed = new Set(metadata?.left_out_tools_noticed ?? []);
  if (leftOut.every((tool) => noticed.has(tool))) return;
  ctx.warn(
    `left out ${counted(leftOut.length, "tool")} this conversation names but jp cannot run: ${leftOutSummary(leftOut)} (said once; \`jp conversation show\` lists them)`,
  );
  if (ref && metadata && persist)
    store.updateMetadata(ref, (m) => ({ ...m, left_out_tools_noticed: [...leftOut] }));
}

/**
 * Config tools and built-ins, narrowed by -t/-T left to right; -u adds its
 * tool. MCP tools are described by their servers (cached lists first), and
 * `servers` holds the servers to end when the turn is over.
 */
export async function offeredTools(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  opts: QOptions,
  trust: { commands: ReadonlySet<string>; mcpSources: ReadonlySet<string> },
): Promise<{ tools: Tool[]; standing: Tool[]; servers?: McpServers }> {
  const registry = await conversationRegistry(ctx, config, ref, trust.commands);
  // The MCP layer loads only for a config that offers MCP tools.
  const mcp = usesMcp(config, registry) ? await loadMcp(ctx, config) : undefined;
  const servers = mcp?.servers;
  try {
    const warn = (line: string) => {
      ctx.warn(line);
    };
    if (mcp) await mcp.offer.addAllToolsServers(config, registry, mcp.servers, warn);
    const selections = (opts.toolOp ?? []).map((op) => ({
      enable: op.startsWith("+"),
      ...(op.length > 1 ? { name: op.slice(1) } : {}),
    }));
    if (opts.toolUse) selections.push({ enable: true, name: opts.toolUse });
    const selected = selectTools(registry, selections);
    // The conversation's usual tools: what it offers without this question's -t, -T and -u.
    const usual = selections.length ? selectTools(registry, []) : selected;
    const mcpSpecs = [...new Set([...selected, ...usual])].filter(isMcpToolSpec);
    const described =
      mcp && mcpSpecs.length
        ? await mcp.offer.describeMcpTools(mcpSpecs, mcp.servers, trust.mcpSources, warn)
        : [];
    const byName = new Map(described.map((t) => [t.name, t]));
    const ready = (entries: typeof selected) =>
      entries.flatMap((entry) => {
        if (!isMcpToolSpec(entry)) return [entry];
        const tool = byName.get(entry.name);
        return tool ? [tool] : [];
      });
    const offered = withAcceptedNames(ready(selected), (name, problem) => {
      ctx.warn(`left out tool ${quotedName(name)}: ${problem}`);
    });
    for (const tool of offered) if (tool.warning) ctx.warn(tool.warning);
    const standing = usual === selected ? offered : withAcceptedNames(ready(usual), () => undefined);
    return { tools: offered, standing, ...(servers ? { servers } : {}) };
  } catch (error) {
    await servers?.closeAll();
    throw error;
  }
}
