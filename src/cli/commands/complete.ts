// `jp __complete KIND [PREFIX]`: the values a completion script offers for an
// option or an argument, one per line as `value<TAB>description` (bash shows
// the description beside the value when there are several, zsh and fish as
// they show any). Read from what jp keeps, so that Tab stays instant: the
// conversation listing (one file and a look at each folder), the built-in
// model table and the models cache; only tool names read the configuration.
// Hidden: the scripts `jp completion` prints call it.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { UsageError } from "../../errors.js";
import { listConversations } from "../../store/listing.js";
import { visible } from "../../render/visible.js";
import { grouped } from "../../numbers.js";

export const COMPLETION_KINDS = ["conversation", "model", "tool", "label", "config-key"] as const;
export type CompletionKind = (typeof COMPLETION_KINDS)[number];
const isKind = (word: string): word is CompletionKind => COMPLETION_KINDS.some((kind) => kind === word);

interface Candidate {
  value: string;
  description: string;
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
 * The model ids the built-in table knows (less the retired), each with its
 * window from the price data, and those the models cache has facts for (a
 * provider's model API answered for them).
 */
async function models(ctx: Context): Promise<Candidate[]> {
  const { currentBuiltInModels, builtInFacts } = await import("../../llm/model-table.js");
  const { cachedModelIds, modelCacheDir } = await import("../../llm/model-info.js");
  const { dataFacts, priceDataSources } = await import("../../llm/price-data.js");
  const out = new Map<string, string>();
  for (const id of currentBuiltInModels()) {
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

/** The tools of the configuration (a `[conversation.tools]` entry each) and the built-in ones. */
async function tools(ctx: Context): Promise<Candidate[]> {
  const { config } = await ctx.config();
  const configured = Object.entries(config.conversation?.tools ?? {})
    .filter(([name]) => name !== "*")
    .map(([name, tool]) => ({ value: name, description: oneLine(tool.summary ?? tool.description ?? "") }));
  const builtIn = [
    { value: "compact", description: "built-in: the assistant compacts this conversation" },
  ].filter((tool) => !configured.some((c) => c.value === tool.value));
  return [...configured, ...builtIn];
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

async function candidates(kind: CompletionKind, ctx: Context): Promise<Candidate[]> {
  switch (kind) {
    case "conversation":
      return conversations(ctx);
    case "label":
      return labels(ctx);
    case "model":
      return models(ctx);
    case "tool":
      return tools(ctx);
    case "config-key":
      return configKeys();
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
      const lines = (await candidates(kind, ctx))
        .filter((c) => c.value.startsWith(prefix ?? ""))
        .map((c) => (c.description ? `${c.value}\t${c.description}` : c.value));
      if (lines.length) ctx.out(lines.join("\n"));
    });
}
