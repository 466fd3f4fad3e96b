// `jp model show [ID]`: what jp knows of a model (its window, output cap,
// thinking, efforts, forced tool use, lifecycle, price) and where each figure
// came from: the config, the provider's model API, the maintained price data
// (which copy, as of when), or jp's built-in table.
import type { Command } from "commander";
import { resolveModelAlias } from "../../../config/providers.js";
import type { Price } from "../../../config/schema.js";
import type { FactName, FactSource, ModelCapabilities, ModelFacts } from "../../../llm/capabilities.js";
import { acceptsForcedTool } from "../../../llm/capabilities.js";
import { modelCacheDir, modelCapabilities } from "../../../llm/model-info.js";
import { createProvider } from "../../../llm/create-provider.js";
import { MissingKeyError } from "../../../llm/errors.js";
import { JpError } from "../../../errors.js";
import { refreshPrices } from "../refresh-prices.js";
import type { Provider } from "../../../llm/types.js";
import { visible } from "../../../render/visible.js";
import type { Context } from "../../context.js";
import { grouped } from "../../../numbers.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("show [id]")
    .description(
      "show what jp knows of a model (default: the configured one) and where each figure came from",
    )
    .option(
      "--refresh",
      "ask the provider's model API again, even when its answer is cached, and fetch the price data",
    )
    .option("--json", 'print { "id", "facts", "sources", "fetched_at", "data" }')
    .action(async (id: string | undefined, opts: { refresh?: boolean; json?: boolean }) => {
      const { config } = await ctx.config({});
      if (opts.refresh) {
        try {
          ctx.info(await refreshPrices(ctx));
        } catch (error) {
          // The figures jp holds are shown all the same.
          if (!(error instanceof JpError)) throw error;
          ctx.warn(error.message);
        }
      }
      const modelId = resolveModelAlias(config, id ?? config.assistant?.model?.id ?? "");
      // Without a key, what jp knows offline is still shown; the provider's API is not asked.
      let provider: Provider | undefined;
      try {
        provider = createProvider(modelId, config, ctx.env).provider;
      } catch (error) {
        if (!(error instanceof MissingKeyError)) throw error;
        ctx.warn(`${error.message}: the provider's model API was not asked`);
      }
      const capabilities = await modelCapabilities(modelId, config, {
        provider,
        cacheDir: modelCacheDir(ctx.env),
        env: ctx.env,
        now: () => ctx.clock.now(),
        ...(opts.refresh ? { refresh: true } : {}),
      });
      if (opts.json) {
        const { facts, sources, fetchedAt, data } = capabilities;
        ctx.out(
          JSON.stringify(
            { id: modelId, facts, sources, fetched_at: fetchedAt ?? null, data: data ?? null },
            null,
            2,
          ),
        );
        return;
      }
      ctx.out(renderCapabilities(capabilities));
    });
}

const fmt = (n: number) => grouped(n);
const usd = (n: number) => `$${n.toFixed(n < 1 ? 3 : 2)}`;

function rateLine(rates: Partial<Omit<Price, "tiers">>): string {
  const cache = [
    rates.cache_read !== undefined ? `cache read ${usd(rates.cache_read)}` : "",
    rates.cache_write !== undefined ? `write ${usd(rates.cache_write)}` : "",
    rates.cache_write_1h !== undefined ? `1h write ${usd(rates.cache_write_1h)}` : "",
  ].filter(Boolean);
  const main = [
    rates.input !== undefined ? `${usd(rates.input)} in` : "",
    rates.output !== undefined ? `${usd(rates.output)} out` : "",
  ].filter(Boolean);
  return `${main.join(" / ")} per million${cache.length ? ` (${cache.join(", ")})` : ""}`;
}

/** The base rates, then each long-prompt tier: the rates a whole request pays once its prompt is longer. */
function priceLine(price: Price): string {
  const tiers = (price.tiers ?? []).map(
    ({ above, ...rates }) => `; prompts over ${fmt(above)} tokens: ${rateLine(rates)}`,
  );
  return `${rateLine(price)}${tiers.join("")}`;
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
    [
      "price",
      "price",
      facts.price
        ? `${priceLine(facts.price)}${facts.routedTo ? ` (${facts.routedTo}'s, which answers it)` : ""}`
        : 'unknown (set [models."ID"] price)',
    ],
    ...(facts.priceNote
      ? [["price note", "priceNote", `warning: ${facts.priceNote}`] satisfies [string, FactName, string]]
      : []),
  ];
}

function describeLifecycle(facts: ModelFacts): string {
  const life = facts.lifecycle ?? "unknown";
  const retires = facts.retiresAt ? `, retires ${facts.retiresAt.slice(0, 10)}` : "";
  const instead = facts.routedTo
    ? `; answered since by ${facts.routedTo}, at its rates`
    : facts.replacement
      ? `; replaced by ${facts.replacement}`
      : "";
  return `${life}${retires}${instead}`;
}

/** Where a figure came from, with how old it is where that is known. */
function sourceOf(source: FactSource | undefined, capabilities: ModelCapabilities): string | undefined {
  const { fetchedAt, data } = capabilities;
  if (source === "provider" && fetchedAt) return `provider, ${fetchedAt.slice(0, 16).replace("T", " ")}`;
  if (source === "data" && data)
    return `${data.source}${data.asOf ? `, as of ${data.asOf.slice(0, 10)}` : ""}`;
  return source;
}

export function renderCapabilities(capabilities: ModelCapabilities): string {
  const { id, facts, sources } = capabilities;
  const lines = [visible(id)];
  for (const [label, name, value] of rows(facts, id)) {
    const from = sourceOf(name ? sources[name] : undefined, capabilities);
    lines.push(`  ${label.padEnd(16)} ${visible(value)}${from ? `  (${from})` : ""}`);
  }
  return lines.join("\n");
}
