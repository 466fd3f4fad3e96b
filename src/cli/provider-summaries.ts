// Owns how `jp conversation compact` (and `q -k`, `fork -k`) has a summary
// written by the conversation's own provider where that keeps later reasoning
// valid (`llm/provider-summary.ts`): the compaction request goes with the
// header `jp q` would send, its system prompt and the tools it offers without
// naming any, so the turns it summarises are read as they were answered.
import type { Config } from "../config/schema.js";
import { summarizeThroughProvider, writesOwnSummaries } from "../llm/provider-summary.js";
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
 * Provider-written summaries for the conversation's model, or undefined where
 * its provider writes none. `tools`: the definitions the turn offers (`jp q`
 * knows them); else those `jp q` offers by default.
 */
export async function providerSummaries(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  offered?: readonly ToolDefinition[],
): Promise<ProviderSummaries | undefined> {
  const model = config.assistant?.model?.id;
  if (!model || !writesOwnSummaries(model, config)) return undefined;
  const tools = offered ?? (await offeredByDefault(ctx, config, ref));
  const system = config.assistant?.system_prompt;
  return {
    model,
    outputCap: outputCapOf(config),
    summarize: (events, instructions) => {
      const clear = ctx.status(`${model} is writing the summary…`);
      return summarizeThroughProvider(
        { model, ...(system ? { system } : {}), tools, events, ...(instructions ? { instructions } : {}) },
        config,
        ctx.env,
      ).finally(clear);
    },
  };
}
