// `jp conversation show [ID]`: one conversation's details.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { capToolOutputs, indexCompactions, project } from "../../../compaction/index.js";
import type { ConversationRef } from "../../../store/conversations.js";
import { knownFacts, priceOf } from "../../../llm/model-info.js";
import { contextItems, renderContext, summarizeContext } from "../../../render/context.js";
import { outputCapOf } from "../../../tools/local.js";
import { createRecallTool, RECALL_TOOL } from "../../../tools/recall.js";
import { buildRegistry, isMcpToolSpec, selectTools } from "../../../tools/registry.js";
import type { Tool } from "../../../tools/types.js";
import { compactionItems, renderCompactionItems } from "../../../render/compaction-list.js";
import { sumUsage } from "../../../events/index.js";
import { visible } from "../../../render/visible.js";
import { estimateTotalCost } from "../../../llm/pricing.js";
import { usageLine } from "../../../render/usage.js";
import { counted } from "../../../render/words.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("show [id]")
    .description("show a conversation's details (default: the active one)")
    .option(
      "--context",
      "show what the next request holds: system prompt, tool definitions, each turn's parts and summaries, with tokens and their share of the model's window",
    )
    .option(
      "--json",
      'print { "id", "title", "turns", "events", "path", "usage", "estimated_cost_usd", "compactions", "left_out_tools" }; with --context { "total", "window", "parts", "largest", "items" }',
    )
    .action(async (id: string | undefined, opts: { json?: boolean; context?: boolean }) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      if (opts.context) {
        await showContext(ctx, ref, !!opts.json);
        return;
      }
      const metadata = store.metadata(ref);
      const stats = store.stats(ref);
      const usage = sumUsage(Object.values(stats.usage));
      // Prices come from config, the conversation's own included (its deltas, read only when it has
      // any: the log of a large conversation is otherwise not read); null when a model has no price.
      const { config, leftOutTools } = await ctx.config(
        stats.kinds.config_delta ? { conversation: ref } : {},
      );
      const cost = estimateTotalCost(stats.usage, (model) => priceOf(model, config));
      const compactions = stats.kinds.compaction
        ? compactionItems(indexCompactions(store.readEvents(ref)).entries)
        : [];
      const details = {
        id: ref.id,
        title: metadata.title ?? null,
        turns: stats.turns,
        events: stats.events,
        path: ref.dir,
        created_at: metadata.created_at,
        last_event_at: stats.last_event_at ?? null,
        active: store.activeId() === ref.id,
        kinds: stats.kinds,
        usage: { ...usage, by_model: stats.usage },
        estimated_cost_usd: cost ?? null,
        compactions,
        left_out_tools: leftOutTools,
      };
      if (opts.json) {
        ctx.out(JSON.stringify(details, null, 2));
        return;
      }
      const kinds = Object.entries(stats.kinds)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ");
      ctx.out(
        [
          `${ctx.color.bold(ref.id)}${details.active ? " (active)" : ""}`,
          `  title:       ${details.title === null ? "(none)" : visible(details.title)}`,
          `  path:        ${ref.dir}`,
          `  created:     ${details.created_at}`,
          `  last event:  ${details.last_event_at ?? "(none)"}`,
          `  turns:       ${stats.turns}`,
          `  events:      ${stats.events}${kinds ? ` (${kinds})` : ""}`,
          ...(usage.requests
            ? [`  usage:       ${counted(usage.requests, "request")}, ${usageLine(usage, cost)}`]
            : []),
          ...(leftOutTools.length
            ? [`  left out:    ${leftOutTools.join(", ")} (named by its config; jp cannot run them)`]
            : []),
          ...renderCompactionItems(compactions),
        ].join("\n"),
      );
    });
}

/** `show --context`: the next request's parts, as `jp q` would build it now. */
async function showContext(ctx: Context, ref: ConversationRef, json: boolean): Promise<void> {
  const events = ctx.store().readEvents(ref);
  const { config } = await ctx.config({ conversation: ref });
  const projection = project(events);
  const capOf = outputCapOf(config);
  const registry = await buildRegistry(config, [createRecallTool(capOf)], {
    env: ctx.env,
    workspace: ctx.maybeWorkspace()?.root ?? ctx.cwd,
  });
  const recallable =
    projection.stats.activeCompactions > 0 || capToolOutputs(projection.events, capOf).cut > 0;
  const offered = selectTools(registry, []).filter(
    (t): t is Tool => !isMcpToolSpec(t) && (t.name !== RECALL_TOOL || recallable),
  );
  // MCP tools are described by their servers, which show does not start.
  const mcp = selectTools(registry, [])
    .filter(isMcpToolSpec)
    .map((t) => t.name);
  const counter = await ctx.tokenCounter(config);
  const modelId = config.assistant?.model?.id ?? "";
  const window = knownFacts(modelId, config).contextWindow;
  const items = contextItems(
    {
      ...(config.assistant?.system_prompt ? { system: config.assistant.system_prompt } : {}),
      tools: offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      turns: projection.turns,
    },
    counter,
    capOf,
  );
  const summary = summarizeContext(items, window);
  if (json) {
    ctx.out(
      JSON.stringify(
        {
          id: ref.id,
          model: modelId,
          approximate: counter.approximate,
          ...summary,
          items,
          mcp_tools_not_counted: mcp,
        },
        null,
        2,
      ),
    );
    return;
  }
  const lines = renderContext(summary, {
    modelId,
    approximate: counter.approximate,
    bars: ctx.stdout.isTTY === true,
  });
  if (mcp.length)
    lines.push(
      "",
      `Not counted: ${counted(mcp.length, "MCP tool")} (${mcp.join(", ")}), described by servers show does not start.`,
    );
  ctx.out(lines.join("\n"));
}
