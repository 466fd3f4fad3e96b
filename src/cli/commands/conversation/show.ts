// `jp conversation show [ID]`: one conversation's details.
import { leftOutByReason } from "../../../render/left-out.js";
import type { Command } from "commander";
import { droppedLine, leftOutLines } from "../../../render/reasoning.js";
import type { Context } from "../../context.js";
import type { ConversationRef } from "../../../store/conversations.js";
import { conversationOrPick } from "../../pick.js";
import { indexCompactions, streamShape } from "../../../compaction/index.js";
import { priceOf } from "../../../llm/model-info.js";
import { compactionItems, renderCompactionItems } from "../../../render/compaction-list.js";
import { sumUsage } from "../../../events/index.js";
import { fateOf } from "../../../render/history.js";
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
      'print { "id", "title", "turns", "events", "path", "usage", "estimated_cost_usd", "compactions", "failed_questions", "left_out_tools" }; with --context { "total", "window", "parts", "largest", "items" }',
    )
    .action((id: string | undefined, opts: { json?: boolean; context?: boolean }) => show(ctx, id, opts));
}

async function show(ctx: Context, id: string | undefined, opts: { json?: boolean; context?: boolean }) {
  const ref = await conversationOrPick(ctx, id, "Show which conversation?");
  if (!ref) return;
  if (opts.context) {
    // Loaded only for --context: it builds the tool registry, as `jp q` does.
    const { showContext } = await import("../../show-context.js");
    await showContext(ctx, ref, !!opts.json);
    return;
  }
  const found = await conversationDetails(ctx, ref);
  if (opts.json) ctx.out(JSON.stringify(found.details, null, 2));
  else ctx.out(detailLines(ctx, ref, found).join("\n"));
}

/** What `show` says of a conversation, read from its stats, and from its log only when that holds something to say. */
async function conversationDetails(ctx: Context, ref: ConversationRef) {
  const store = ctx.store();
  const metadata = store.metadata(ref);
  const stats = store.stats(ref);
  const usage = sumUsage(Object.values(stats.usage));
  // Prices come from config, the conversation's own included (its deltas, read only when it has
  // any: the log of a large conversation is otherwise not read); null when a model has no price.
  const { config, leftOutTools } = await ctx.config(stats.kinds.config_delta ? { conversation: ref } : {});
  const cost = estimateTotalCost(stats.usage, (model) => priceOf(model, config, ctx.env, ctx.clock.now()));
  // The log is read only when it holds compactions, failed requests or reasoning not sent; a large one is otherwise not.
  const events =
    stats.kinds.compaction || stats.kinds.request_failed || stats.reasoning_reports
      ? store.readEvents(ref)
      : [];
  const compactions = stats.kinds.compaction ? compactionItems(indexCompactions(events).entries) : [];
  const { failures, reasoning } = streamShape(events);
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
    failed_questions: failures.map((q) => ({
      turn: q.turn + 1,
      reason: q.reason,
      retried_as: q.retriedAs !== undefined ? q.retriedAs + 1 : null,
    })),
    left_out_tools: leftOutTools,
    reasoning: {
      left_out: reasoning.leftOut.map((l) => ({ ...l, turn: l.turn + 1 })),
      dropped_by_provider: reasoning.dropped.map((d) => ({ ...d, turn: d.turn + 1 })),
    },
  };
  return { details, usage, cost, failures, reasoning };
}

function detailLines(
  ctx: Context,
  ref: ConversationRef,
  { details, usage, cost, failures, reasoning }: Awaited<ReturnType<typeof conversationDetails>>,
): string[] {
  const leftOutTools = details.left_out_tools;
  const kinds = Object.entries(details.kinds)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `${ctx.color.bold(ref.id)}${details.active ? " (active)" : ""}`,
    `  title:       ${details.title === null ? "(none)" : visible(details.title)}`,
    `  path:        ${ref.dir}`,
    `  created:     ${details.created_at}`,
    `  last event:  ${details.last_event_at ?? "(none)"}`,
    `  turns:       ${details.turns}`,
    `  events:      ${details.events}${kinds ? ` (${kinds})` : ""}`,
    ...(usage.requests
      ? [`  usage:       ${counted(usage.requests, "request")}, ${usageLine(usage, cost)}`]
      : []),
    ...(leftOutTools.length
      ? [
          `  left out:    ${leftOutTools.length} tool${leftOutTools.length === 1 ? "" : "s"} its config names that jp cannot run:`,
          ...leftOutByReason(leftOutTools).map(([why, names]) => `    ${names.join(", ")}: ${why}`),
        ]
      : []),
    ...leftOutLines(reasoning.leftOut).map((l) => `  reasoning:   ${l}`),
    ...[droppedLine(reasoning.dropped)].flatMap((l) => (l ? [`  dropped:     ${l}`] : [])),
    ...failures.map(
      (q) => `  failed:      turn ${q.turn + 1}, ${visible(q.reason)}; ${fateOf(q)} (not sent to the model)`,
    ),
    ...renderCompactionItems(details.compactions),
  ];
}
