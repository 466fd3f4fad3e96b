// `jp conversation show [ID]`: one conversation's details.
import { leftOutByReason } from "../../../render/left-out.js";
import type { Command } from "commander";
import { droppedLine, leftOutLines } from "../../../render/reasoning.js";
import type { Context } from "../../context.js";
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
    .action(async (id: string | undefined, opts: { json?: boolean; context?: boolean }) => {
      const store = ctx.store();
      const ref = await conversationOrPick(ctx, id, "Show which conversation?");
      if (!ref) return;
      if (opts.context) {
        // Loaded only for --context: it builds the tool registry, as `jp q` does.
        const { showContext } = await import("../../show-context.js");
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
      const cost = estimateTotalCost(stats.usage, (model) =>
        priceOf(model, config, ctx.env, ctx.clock.now()),
      );
      // The log is read only when it holds compactions, failed requests or reasoning not sent; a large one is otherwise not.
      const events =
        stats.kinds.compaction || stats.kinds.request_failed || stats.reasoning_reports
          ? store.readEvents(ref)
          : [];
      const compactions = stats.kinds.compaction ? compactionItems(indexCompactions(events).entries) : [];
      const shape = streamShape(events);
      const failures = shape.failures;
      const reasoning = shape.reasoning;
      const failedQuestions = failures.map((q) => ({
        turn: q.turn + 1,
        reason: q.reason,
        retried_as: q.retriedAs !== undefined ? q.retriedAs + 1 : null,
      }));
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
        failed_questions: failedQuestions,
        left_out_tools: leftOutTools,
        reasoning: {
          left_out: reasoning.leftOut.map((l) => ({ ...l, turn: l.turn + 1 })),
          dropped_by_provider: reasoning.dropped.map((d) => ({ ...d, turn: d.turn + 1 })),
        },
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
            ? [
                `  left out:    ${leftOutTools.length} tool${leftOutTools.length === 1 ? "" : "s"} its config names that jp cannot run:`,
                ...leftOutByReason(leftOutTools).map(([why, names]) => `    ${names.join(", ")}: ${why}`),
              ]
            : []),
          ...leftOutLines(reasoning.leftOut).map((l) => `  reasoning:   ${l}`),
          ...[droppedLine(reasoning.dropped)].flatMap((l) => (l ? [`  dropped:     ${l}`] : [])),
          ...failures.map(
            (q) =>
              `  failed:      turn ${q.turn + 1}, ${visible(q.reason)}; ${fateOf(q)} (not sent to the model)`,
          ),
          ...renderCompactionItems(compactions),
        ].join("\n"),
      );
    });
}
