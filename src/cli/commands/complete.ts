// `jp __complete KIND [PREFIX]`: the values a completion script offers for an
// option or an argument, one per line as `value<TAB>description` (bash shows
// the description beside the value when there are several, zsh and fish as
// they show any). Read from what jp keeps, so that Tab stays instant: the
// conversation listing (one file and a look at each folder), the built-in
// model table and the models cache, MCP servers' cached tool lists; model
// aliases, tools and what `-c NAME` finds (JP's personas) read the
// configuration, without a word said and without starting anything.
// Hidden: the scripts `jp completion` prints call it.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { JpError, UsageError } from "../../errors.js";
import { listConversations } from "../../store/listing.js";
import { visible } from "../../render/visible.js";
import { grouped } from "../../numbers.js";
import type { Config } from "../../config/schema.js";
import * as path from "node:path";

export const COMPLETION_KINDS = [
  "conversation",
  "model",
  "tool",
  "label",
  "config-key",
  "persona",
  "cfg",
] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];
const isKind = (word: string): word is CompletionKind => COMPLETION_KINDS.some((kind) => kind === word);

interface Candidate {
  value: string;
  description: string;
}

/**
 * The configuration as a command would read it, without a word said (the
 * script throws stderr away); undefined when it does not load, so that Tab
 * still offers what needs none of it.
 */
async function quietConfig(ctx: Context): Promise<Config | undefined> {
  try {
    return (await ctx.config({ silent: true })).config;
  } catch (error) {
    // A config with a problem (said by the next command that reads it): Tab offers what needs none of it.
    if (error instanceof JpError) return undefined;
    throw error;
  }
}

/** One line of a description: whatever a title holds, it never breaks the script's lines or draws on the terminal. */
const oneLine = (text: string) => visible(text).replace(/\s+/g, " ").trim();

/** Conversations newest first (the one a person most likely means), each with its title and turns. */
function conversations(ctx: Context): Candidate[] {
  return listConversations(ctx.store())
    .filter((row) => row.archived_at === null)
    .sort((a, b) => (b.last_event_at ?? b.created_at).localeCompare(a.last_event_at ?? a.created_at))
    .map((row) => ({
      value: row.ref.id,
      description: oneLine(`${row.title ?? "untitled"} · ${row.turns} turn${row.turns === 1 ? "" : "s"}`),
    }));
}

function labels(ctx: Context): Candidate[] {
  const all = new Set(listConversations(ctx.store()).flatMap((row) => row.labels));
  return [...all].sort().map((label) => ({ value: label, description: "" }));
}

/**
 * The model aliases of the configuration (JP's `[providers.llm.aliases]`,
 * or jp's own under the same key), each with the model it names; then the
 * model ids the built-in table knows (less the retired), each with its
 * window from the price data, and those the models cache has facts for (a
 * provider's model API answered for them).
 */
async function models(ctx: Context, prefix: string): Promise<Candidate[]> {
  // An alias is a name without a slash (one with a slash is taken as provider/name): past one, none is read.
  const aliases = prefix.includes("/") ? {} : ((await quietConfig(ctx))?.providers?.llm?.aliases ?? {});
  const { currentBuiltInModels, builtInFacts } = await import("../../llm/model-table.js");
  const { cachedModelIds, modelCacheDir } = await import("../../llm/model-info.js");
  const { dataFacts, priceDataSources } = await import("../../llm/price-data.js");
  const out = new Map<string, string>(
    Object.entries(aliases).map(([alias, id]) => [alias, oneLine(`alias of ${id}`)]),
  );
  for (const id of currentBuiltInModels().filter((id) => !out.has(id))) {
    const [provider = "", name = ""] = id.split("/", 2);
    const facts = builtInFacts(provider, name);
    const contextWindow = dataFacts(
      provider,
      name,
      ctx.clock.now(),
      priceDataSources(ctx.env, provider),
    )?.contextWindow;
    const window = contextWindow ? `${grouped(contextWindow)} tokens` : "";
    out.set(id, facts?.lifecycle === "deprecated" ? `deprecated ${window}`.trim() : window);
  }
  for (const id of cachedModelIds(modelCacheDir(ctx.env))) if (!out.has(id)) out.set(id, "");
  return [...out].map(([value, description]) => ({ value, description }));
}

/** The tools the configuration names (a `[conversation.tools]` entry each, local or MCP), those of its `all_tools` MCP servers as their cached lists have them, and the built-in ones. */
async function tools(ctx: Context): Promise<Candidate[]> {
  const config = await quietConfig(ctx);
  const out = new Map<string, string>();
  for (const [name, tool] of Object.entries(config?.conversation?.tools ?? {}))
    if (name !== "*") out.set(name, oneLine(tool.summary ?? tool.description ?? ""));
  if (config)
    for (const [name, description] of await cachedServerTools(ctx, config))
      if (!out.has(name)) out.set(name, description);
  const { RECALL_TOOL } = await import("../../tools/recall.js");
  const builtIn = [
    ["compact", "built-in: the assistant compacts this conversation"],
    [RECALL_TOOL, "built-in: the assistant reads back what compaction took from its view"],
  ] as const;
  for (const [name, description] of builtIn) if (!out.has(name)) out.set(name, description);
  return [...out].map(([value, description]) => ({ value, description }));
}

/**
 * The tools each `all_tools` MCP server offers under their own names, as
 * its cached list has them: Tab never starts a server (one never listed
 * offers nothing until a turn or `jp mcp ls` starts it).
 */
async function cachedServerTools(ctx: Context, config: Config): Promise<[string, string][]> {
  const { mcpServers } = await import("../../config/providers.js");
  const servers = Object.entries(mcpServers(config)).filter(([, server]) => server.all_tools === true);
  if (servers.length === 0) return [];
  const { McpToolCache } = await import("../../mcp/cache.js");
  const { mcpCacheDir } = await import("../../mcp/offer.js");
  const cache = new McpToolCache(mcpCacheDir(ctx.env, ctx.maybeWorkspace()?.root));
  return servers.flatMap(([server, settings]) =>
    (cache.read(server, settings)?.tools ?? []).map((tool): [string, string] => [
      tool.name,
      oneLine(`MCP server ${server}: ${tool.title ?? tool.description}`),
    ]),
  );
}

/**
 * What `-c NAME` finds by name: JP's personas (`dev`) and the other files
 * of `.jp/config.d/` and the `config_load_paths` folders (`skill/web`).
 */
async function personas(ctx: Context): Promise<Candidate[]> {
  const config = await quietConfig(ctx);
  const { cfgFileNames } = await import("../../config/layers.js");
  const { loadPathFolders } = await import("../../config/load.js");
  const workspaceDir = ctx.maybeWorkspace()?.dir;
  const loadPaths = loadPathFolders(config?.config_load_paths, { cwd: ctx.cwd, workspaceDir });
  return cfgFileNames({ workspaceDir, loadPaths }).map(({ name, file }) => ({
    value: name,
    description: path.relative(ctx.cwd, file) || file,
  }));
}

/** Every setting `-c KEY=VALUE` can set, as `KEY=`. */
async function configKeys(): Promise<Candidate[]> {
  const { Config } = await import("../../config/schema.js");
  const { scalarPaths } = await import("../../config/zod-walk.js");
  return scalarPaths(Config).map(({ path: keys, type }) => ({
    value: `${keys.join(".")}=`,
    description: type,
  }));
}

async function candidates(kind: CompletionKind, ctx: Context, prefix: string): Promise<Candidate[]> {
  switch (kind) {
    case "conversation":
      return conversations(ctx);
    case "label":
      return labels(ctx);
    case "model":
      return models(ctx, prefix);
    case "tool":
      return tools(ctx);
    case "config-key":
      return configKeys();
    case "persona":
      return personas(ctx);
    case "cfg":
      return [...(await personas(ctx)), ...(await configKeys())];
  }
}

export function register(program: Command, ctx: Context): void {
  program
    .command("__complete <kind> [prefix]", { hidden: true })
    .description(`the values completion offers: one of ${COMPLETION_KINDS.join(", ")}`)
    .action(async (kind: string, prefix: string | undefined) => {
      if (!isKind(kind))
        throw new UsageError(`nothing completes '${kind}'`, `give one of ${COMPLETION_KINDS.join(", ")}`);
      // Outside a workspace there are no conversations or labels to offer: nothing, and no error on a keystroke.
      if ((kind === "conversation" || kind === "label") && !ctx.maybeWorkspace()) return;
      const lines = (await candidates(kind, ctx, prefix ?? ""))
        .filter((c) => c.value.startsWith(prefix ?? ""))
        .map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
      if (lines.length) ctx.out(lines.join("\n"));
    });
}
