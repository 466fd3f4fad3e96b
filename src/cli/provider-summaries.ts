// Owns how `jp conversation compact` (and `q -k`, `fork -k`) has a summary
// written by the conversation's own provider where that keeps later reasoning
// valid (`llm/provider-summary.ts`): the compaction request goes with the
// header `jp q` would send, its system prompt and the tools it offers without
// naming any, so the turns it summarises are read as they were answered.
import type { Config } from "../config/schema.js";
import { providerSummaryChoice, summarizeThroughProvider } from "../llm/provider-summary.js";
import type { ModelFacts } from "../llm/capabilities.js";
import { createProvider } from "../llm/create-provider.js";
import { knownFacts, modelCacheDir, modelCapabilities } from "../llm/model-info.js";
import type { ProviderSummaries } from "../llm/provider-summary.js";
import type { ConversationRef } from "../store/conversations.js";
import { outputCapOf } from "../tools/local.js";
import { withAcceptedNames } from "../tools/names.js";
import { withRecallWhenUseful } from "../tools/recall.js";
import { isMcpToolSpec, selectTools } from "../tools/registry.js";
import { conversationRegistry } from "./tool-registry.js";
import type { Tool } from "../tools/types.js";
import type { ToolDefinition } from "../llm/types.js";
import type { Context } from "./context.js";

/** The tools `jp q` offers by default, as definitions; MCP servers are not started, so theirs are left out. */
async function offeredByDefault(ctx: Context, config: Config, ref: ConversationRef) {
  const registry = await conversationRegistry(ctx, config, ref);
  const local = selectTools(registry, []).filter((t): t is Tool => !isMcpToolSpec(t));
  const offered = withRecallWhenUseful(
    withAcceptedNames(local, () => undefined),
    { activeCompactions: 0, cutOutputs: 0, stable: true },
  );
  return offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/**
 * What jp knows of `model`, its Models API asked (or its answer cached):
 * whether it supports on-demand compaction is read there.
 */
async function factsOf(ctx: Context, config: Config, model: string): Promise<ModelFacts> {
  try {
    const { provider } = createProvider(model, config, ctx.env);
    const capabilities = await modelCapabilities(model, config, {
      provider,
      cacheDir: modelCacheDir(ctx.env),
      env: ctx.env,
      now: () => ctx.clock.now(),
    });
    return capabilities.facts;
  } catch {
    // No key for it: what jp knows without asking (a summary needs the key anyway, and says so).
    return knownFacts(model, config, ctx.env);
  }
}

/**
 * Provider-written summaries for the conversation's model, or undefined where
 * its provider writes none. `tools`: the definitions the turn offers (`jp q`
 * knows them); else those `jp q` offers by default. `facts`: what `jp q`
 * already knows of the model; else asked.
 */
export async function providerSummaries(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  offered?: readonly ToolDefinition[],
  facts?: ModelFacts,
): Promise<ProviderSummaries | undefined> {
  const model = config.assistant?.model?.id;
  if (!model) return undefined;
  const known = facts ?? (await factsOf(ctx, config, model));
  const choice = providerSummaryChoice(model, config, known);
  if (!choice.writes && choice.unavailable === undefined) return undefined;
  const tools = offered ?? (await offeredByDefault(ctx, config, ref));
  const system = config.assistant?.system_prompt;
  return {
    model,
    outputCap: outputCapOf(config),
    ...(known.contextWindow !== undefined ? { window: known.contextWindow } : {}),
    ...(choice.unavailable !== undefined ? { unavailable: choice.unavailable } : {}),
    summarize: (events, instructions) => {
      const clear = ctx.status(`${model} is writing the summary…`);
      return summarizeThroughProvider(
        { model, ...(system ? { system } : {}), tools, events, ...(instructions ? { instructions } : {}) },
        config,
        ctx.env,
      ).finally(clear);
    },
    fellBack: (why) => {
      ctx.warn(`${why}: jp writes the summary itself`);
    },
  };
}

/** Whether the conversation's model drops its reasoning after an edit of what came before it (GPT-6.2 on). */
export function dropsReasoningOnEdit(config: Config): boolean {
  const model = config.assistant?.model?.id;
  return model !== undefined && knownFacts(model, config).dropsReasoningOnEdit === true;
}
