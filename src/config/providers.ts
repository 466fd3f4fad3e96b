// Owns reading the `providers` table, which holds three kinds of thing: LLM
// providers by name (`providers.anthropic`), MCP servers (`providers.mcp.NAME`)
// and model aliases (`providers.llm.aliases`), as JP writes them.
import { splitModelId } from "./models.js";
import type * as z from "zod";
import type { Config, McpServerConfig, ProviderConfig } from "./schema.js";

export type ProviderSettings = z.infer<typeof ProviderConfig>;

/** The LLM providers configured, by name. */
export function llmProviders(config: Config): [string, ProviderSettings][] {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- mcp and llm are taken out by name
  const { mcp, llm, ...providers } = config.providers ?? {};
  return Object.entries(providers);
}

/** One LLM provider's settings; empty when it is not configured. */
export function llmProvider(config: Config, name: string): ProviderSettings {
  return llmProviders(config).find(([n]) => n === name)?.[1] ?? {};
}

/** The MCP servers configured, by name. */
export function mcpServers(config: Config): Record<string, McpServerConfig> {
  return config.providers?.mcp ?? {};
}

/** A model id with an alias replaced (`sonnet` → `anthropic/claude-sonnet-5`); other ids as given. */
export function resolveModelAlias(config: Config, id: string): string {
  if (splitModelId(id)) return id;
  return config.providers?.llm?.aliases?.[id] ?? id;
}
