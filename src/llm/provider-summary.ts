// Owns summaries the provider writes itself (Anthropic's on-demand
// compaction, beta compact-2026-09-04): the conversation's own model is sent
// the turns to summarise exactly as `jp q` sends them, and answers with one
// sealed `compaction` block. Sent back first, in place of those turns, to the
// model that wrote it, the block stands for them in every later thinking
// block's prefix: the reasoning of the turns kept after it stays valid, which
// no summary jp writes can do for a model with preserved thinking.
import type { Config } from "../config/schema.js";
import { capToolOutputs, project, streamShape, type OutputCap, type TurnRange } from "../compaction/index.js";
import { isJsonObject, type Compaction, type Event, type JsonObject } from "../events/index.js";
import { knownFacts } from "./model-info.js";
import { streamOnce } from "./one-shot.js";
import { createProvider, providerApi, requestSettings } from "./create-provider.js";
import { boundReasoning, historyDigest, unboundUntil } from "./reasoning-binding.js";
import { summaryBilling, SummaryFailedError, type Summary } from "./summarize.js";
import { withAskedTools } from "./tool-choice.js";
import type { ReasoningRequest, ToolDefinition } from "./types.js";

export interface ProviderSummaryRequest {
  /** provider/name: the conversation's model, which writes it. */
  model: string;
  /** The header `jp q` sends: the system prompt and the tools. */
  system?: string;
  tools: readonly ToolDefinition[];
  /** The turns to summarise, from the conversation's first, as `jp q` sends them. */
  events: readonly Event[];
  instructions?: string;
  signal?: AbortSignal;
}

export interface ProviderSummary extends Summary {
  /** The compaction block as it came, sent back verbatim. */
  block: JsonObject;
  /** The digest of the history it stands for (`llm/reasoning-binding.ts`). */
  continues: string;
}

/**
 * Whether summaries of `model`'s conversations are written by its provider:
 * it speaks the Messages API (on-demand compaction) and the model binds its reasoning to its
 * prefix (elsewhere a summary of jp's own loses nothing more), unless the
 * config turns it off (`conversation.compaction.provider_summaries`).
 */
export function writesOwnSummaries(model: string, config: Config): boolean {
  if (config.conversation?.compaction?.provider_summaries === false) return false;
  // On-demand compaction is the Messages API's; a model id jp cannot parse writes nothing.
  try {
    return providerApi(model, config) === "anthropic" && knownFacts(model, config).preservedThinking === true;
  } catch {
    return false;
  }
}

/** Thinking that takes `block_binding`, whatever the conversation's setting: nothing is sampled after the block. */
const COMPACTION_THINKING: ReasoningRequest = { effort: "low" };

export async function summarizeThroughProvider(
  request: ProviderSummaryRequest,
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<ProviderSummary> {
  const { provider, model } = createProvider(request.model, config, env);
  const facts = knownFacts(request.model, config, env);
  const settings = requestSettings(config, facts);
  let block: JsonObject | undefined;
  const { usage, discarded } = await streamOnce(
    provider,
    {
      model: model.name,
      ...(request.system ? { system: request.system } : {}),
      events: request.events,
      tools: request.tools,
      toolChoice: "auto",
      maxTokens: settings.maxTokens,
      reasoning: COMPACTION_THINKING,
      facts,
      // Thinking a different header would refuse is dropped, never a reason to fail the summary.
      reasoningBinding: "drop",
      compaction: request.instructions ? { instructions: request.instructions } : {},
    },
    config,
    request,
    (part) => {
      if (part === "restart") block = undefined;
      else if (part.type === "provider_block" && part.block.type === "compaction") block = part.block;
    },
  );
  const text = block && typeof block.content === "string" ? block.content.trim() : "";
  if (!block || !text || !isJsonObject(block))
    throw new SummaryFailedError(
      `${request.model} wrote no summary of its own (its compaction block was missing or empty); nothing was recorded`,
      "set conversation.compaction.provider_summaries = false to have jp write the summary",
    );
  return {
    text,
    model: request.model,
    block,
    continues: historyDigest(request.events),
    ...(usage ? { usage } : {}),
    ...(discarded.length ? { discarded } : {}),
  };
}

/**
 * Summaries the conversation's provider writes itself: generated summaries by
 * `model` (the conversation's) of a range from the first turn go through it.
 */
export interface ProviderSummaries {
  /** The conversation's model, which writes them. */
  model: string;
  /** The view's cap of each tool's output, as `jp q` applies it. */
  outputCap: OutputCap;
  /** The provider's summary of `events`: the turns to summarise as `jp q` sends them. */
  summarize(events: readonly Event[], instructions?: string): Promise<ProviderSummary>;
}

/**
 * Whether the provider can write the summary of `range`: its block goes first
 * in place of the turns it summarises, so the range starts at the first turn
 * and no pinned turn inside it stays in view.
 */
function writtenWhole(events: readonly Event[], range: TurnRange): boolean {
  if (range.from !== 0) return false;
  return ![...streamShape(events).pinned].some((t) => t <= range.to);
}

/**
 * The turns up to the end of `range` exactly as `jp q` sends them: projected,
 * long outputs cut, questions with the words that asked for a tool, and only
 * the reasoning whose history is unchanged. The provider's summary stands for
 * this history: the same events, so later reasoning stays bound to it.
 */
function sentHistory(events: readonly Event[], range: TurnRange, outputCap: OutputCap): Event[] {
  const projection = project(events);
  const shown = capToolOutputs(projection.events, outputCap);
  const bound = boundReasoning(withAskedTools(shown.events, false), undefined, {
    unboundUntil: unboundUntil(events, shown.events, shown.cut, outputCap),
  });
  const beyond = projection.turns.find(
    (t) => (t.origin.kind === "kept" ? t.origin.turn : t.origin.from) > range.to,
  );
  const end = beyond?.events[0] ? projection.events.indexOf(beyond.events[0]) : -1;
  return bound.events.slice(0, end === -1 ? bound.events.length : bound.position(end));
}

/**
 * The compaction a plan that needs a summary makes with the provider's own,
 * when the provider writes summaries by `model` and can write this one;
 * undefined where jp's summariser is to write it.
 */
export async function providerCompaction(
  events: readonly Event[],
  plan: { range: TurnRange; complete: (text: string, model: string) => Compaction },
  model: string,
  providers: ProviderSummaries | undefined,
  summary: { instructions?: string } | undefined,
): Promise<Compaction | undefined> {
  if (!providers || providers.model !== model || !writtenWhole(events, plan.range)) return undefined;
  const result = await providers.summarize(
    sentHistory(events, plan.range, providers.outputCap),
    summary?.instructions,
  );
  const compaction = plan.complete(result.text, result.model);
  return {
    ...compaction,
    ...(compaction.summary
      ? { summary: { ...compaction.summary, provider: { block: result.block, continues: result.continues } } }
      : {}),
    metadata: summaryBilling(result),
  };
}
