// `jp model show [ID]`: what jp knows of a model (its window, output cap,
// thinking, efforts, forced tool use, lifecycle, price) and where each figure
// came from: the config, the provider's model API, or jp's built-in table.
import type { Command } from "commander";
import { resolveModelAlias } from "../../../config/providers.js";
import type { Price } from "../../../config/schema.js";
import type { FactName, ModelCapabilities, ModelFacts } from "../../../llm/capabilities.js";
import { acceptsForcedTool } from "../../../llm/capabilities.js";
import { modelCacheDir, modelCapabilities } from "../../../llm/model-info.js";
import { createProvider } from "../../../llm/providers.js";
import { visible } from "../../../render/visible.js";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("show [id]")
    .description(
      "show what jp knows of a model (default: the configured one) and where each figure came from",
    )
    .option("--refresh", "ask the provider's model API again, even when its answer is cached")
    .option("--json", 'print { "id", "facts", "sources", "fetched_at" }')
    .action(async (id: string | undefined, opts: { refresh?: boolean; json?: boolean }) => {
      const { config } = await ctx.config({});
      const modelId = resolveModelAlias(config, id ?? config.assistant?.model?.id ?? "");
      const { provider } = createProvider(modelId, config, ctx.env);
      const capabilities = await modelCapabilities(modelId, config, {
        provider,
        cacheDir: modelCacheDir(ctx.env),
        now: () => ctx.clock.now(),
        ...(opts.refresh ? { refresh: true } : {}),
      });
      if (opts.json) {
        const { facts, sources, fetchedAt } = capabilities;
        ctx.out(JSON.stringify({ id: modelId, facts, sources, fetched_at: fetchedAt ?? null }, null, 2));
        return;
      }
      ctx.out(renderCapabilities(capabilities));
    });
}

const fmt = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(n < 1 ? 3 : 2)}`;

function priceLine(price: Price): string {
  const cache = [
    price.cache_read !== undefined ? `cache read ${usd(price.cache_read)}` : "",
    price.cache_write !== undefined ? `write ${usd(price.cache_write)}` : "",
    price.cache_write_1h !== undefined ? `1h write ${usd(price.cache_write_1h)}` : "",
  ].filter(Boolean);
  return `${usd(price.input)} in / ${usd(price.output)} out per million${cache.length ? ` (${cache.join(", ")})` : ""}`;
}

/** Each figure as a line: its name, its value (or what unknown means), and where it came from. */
function rows(facts: ModelFacts, id: string): [string, FactName | undefined, string][] {
  const thinking = facts.thinking
    ? Object.entries(facts.thinking)
        .filter(([, accepted]) => accepted)
        .map(([mode]) => mode)
        .join(", ") || "none"
    : "unknown";
  return [
    [
      "context window",
      "contextWindow",
      facts.contextWindow !== undefined
        ? `${fmt(facts.contextWindow)} tokens`
        : `unknown: no over-window guard, no automatic compaction by ratio (set [models."${id}"] context_window)`,
    ],
    [
      "max output",
      "maxOutputTokens",
      facts.maxOutputTokens !== undefined ? `${fmt(facts.maxOutputTokens)} tokens` : "unknown",
    ],
    ["thinking", "thinking", thinking],
    ["effort", "efforts", facts.efforts?.join(", ") ?? "unknown"],
    [
      "forced tool use",
      "forcedToolUse",
      acceptsForcedTool(facts) ? "yes" : "no: -u asks for the tool instead",
    ],
    [
      "reasoning bound",
      "preservedThinking",
      facts.preservedThinking
        ? "yes: reasoning goes back only while what came before it is unchanged"
        : facts.preservedThinking === false
          ? "no"
          : "unknown",
    ],
    ["lifecycle", "lifecycle", describeLifecycle(facts)],
    ["price", "price", facts.price ? priceLine(facts.price) : 'unknown (set [models."ID"] price)'],
  ];
}

function describeLifecycle(facts: ModelFacts): string {
  const life = facts.lifecycle ?? "unknown";
  const retires = facts.retiresAt ? `, retires ${facts.retiresAt.slice(0, 10)}` : "";
  const instead = facts.replacement ? `; replaced by ${facts.replacement}` : "";
  return `${life}${retires}${instead}`;
}

export function renderCapabilities(capabilities: ModelCapabilities): string {
  const { id, facts, sources, fetchedAt } = capabilities;
  const lines = [visible(id)];
  for (const [label, name, value] of rows(facts, id)) {
    const source = name ? sources[name] : undefined;
    const from =
      source === "provider" && fetchedAt ? `provider, ${fetchedAt.slice(0, 16).replace("T", " ")}` : source;
    lines.push(`  ${label.padEnd(16)} ${visible(value)}${from ? `  (${from})` : ""}`);
  }
  return lines.join("\n");
}
