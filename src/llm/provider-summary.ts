// Owns summaries the provider writes itself (Anthropic's on-demand
// compaction, beta compact-2026-09-04): the conversation's own model is sent
// the turns to summarise exactly as `jp q` sends them, and answers with one
// sealed `compaction` block. Sent back first, in place of those turns, to the
// model that wrote it, the block stands for them in every later thinking
// block's prefix: the reasoning of the turns kept after it stays valid, which
// no summary jp writes can do for a model with preserved thinking.
import type { Config } from "../config/schema.js";
import {
  capToolOutputs,
  charsOfEvents,
  project,
  streamShape,
  tokensOfChars,
  type OutputCap,
  type TurnRange,
} from "../compaction/index.js";
import { isJsonObject, type Compaction, type Event, type JsonObject } from "../events/index.js";
import type { ModelFacts } from "./capabilities.js";
import { knownFacts } from "./model-info.js";
import { streamOnce } from "./one-shot.js";
import { createProvider, providerApi, requestSettings } from "./create-provider.js";
import { boundReasoning, historyDigest, unboundUntil } from "./reasoning-binding.js";
import { summaryBilling, SummaryFailedError, type Summary } from "./summarize.js";
import { withAskedTools } from "./tool-choice.js";
import { COMPACTION_BETA } from "./providers/anthropic/request.js";
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
  /** The beta features every request carrying the block must name: those it was written under. */
  betas: string[];
}

/**
 * Whether summaries of `model`'s conversations are written by its provider:
 * it speaks the Messages API (on-demand compaction) and the model binds its
 * reasoning to its prefix (elsewhere a summary of jp's own loses nothing
 * more), unless the config turns it off (`conversation.compaction.provider_summaries`).
 * `unavailable`: why the provider cannot, though it would be worth it: the
 * model's Models API entry (or, without one, the docs' list) does not say it
 * supports on-demand compaction; jp writes those summaries and says so.
 */
export function providerSummaryChoice(
  model: string,
  config: Config,
  facts: ModelFacts = knownFacts(model, config),
): { writes: boolean; unavailable?: string } {
  if (config.conversation?.compaction?.provider_summaries === false) return { writes: false };
  // On-demand compaction is the Messages API's; a model id jp cannot parse writes nothing.
  let api: string | undefined;
  try {
    api = providerApi(model, config);
  } catch {
    return { writes: false };
  }
  if (api !== "anthropic" || facts.preservedThinking !== true) return { writes: false };
  if (facts.compaction === true) return { writes: true };
  return {
    writes: false,
    unavailable:
      facts.compaction === false
        ? `${model} does not write summaries itself (its Models API lists on-demand compaction as unsupported)`
        : `${model} does not say it writes summaries itself (neither its Models API entry nor jp's table lists on-demand compaction)`,
  };
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
  let stop: string | undefined;
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
      else if (part.type === "stop") stop = part.reason;
    },
  );
  const text = block && typeof block.content === "string" ? block.content.trim() : "";
  if (!block || !text || !isJsonObject(block))
    throw new SummaryFailedError(
      `${request.model} wrote no summary of its own (no compaction block came back; the summarization call stopped with "${stop ?? "nothing"}")`,
      "set conversation.compaction.provider_summaries = false to have jp write the summary",
    );
  return {
    text,
    model: request.model,
    block,
    continues: historyDigest(request.events),
    betas: [COMPACTION_BETA],
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
  /** The model's context window in tokens, when known: turns longer than it are jp's to summarize, in parts. */
  window?: number;
  /** Why the provider cannot write them (`providerSummaryChoice`): jp writes each one and says so. */
  unavailable?: string;
  /** The provider's summary of `events`: the turns to summarise as `jp q` sends them. */
  summarize(events: readonly Event[], instructions?: string): Promise<ProviderSummary>;
  /** Said when jp writes a summary the provider would have: `why` it did not. */
  fellBack(why: string): void;
}

/**
 * Why the provider refused or failed to write its summary, where jp can write
 * it instead: no block came back (a 200 with empty content and the stop
 * reason of the summarization call), or the API refused with one of
 * on-demand compaction's error codes (`error.details.error_code`, "starts with
 * `compaction_`"), `compaction_unavailable` once the retries are spent.
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand, "Handle a missing summary or an error")
 */
function refusal(error: unknown, model: string): string | undefined {
  if (error instanceof SummaryFailedError) return error.message;
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    const body: unknown = "body" in e ? e.body : undefined;
    const inner = isJsonObject(body) ? body.error : undefined;
    const details = isJsonObject(inner) ? inner.details : undefined;
    const code = isJsonObject(details) ? details.error_code : undefined;
    if (typeof code === "string" && code.startsWith("compaction_"))
      return `${model} refused to write the summary itself (${code}: ${error instanceof Error ? error.message : String(error)})`;
  }
  return undefined;
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
  if (providers.unavailable) {
    providers.fellBack(providers.unavailable);
    return undefined;
  }
  const history = sentHistory(events, plan.range, providers.outputCap);
  // The provider reads the turns whole: more than its window, it would refuse them.
  const size = tokensOfChars(charsOfEvents(history));
  if (providers.window !== undefined && size > providers.window) {
    providers.fellBack(
      `the turns to summarize (about ${size.toLocaleString("en-US")} tokens) are more than the ${providers.window.toLocaleString("en-US")}-token window of ${model}, which would read them whole`,
    );
    return undefined;
  }
  let result: ProviderSummary;
  try {
    result = await providers.summarize(history, summary?.instructions);
  } catch (error) {
    const why = refusal(error, model);
    if (why === undefined) throw error;
    providers.fellBack(why);
    return undefined;
  }
  const compaction = plan.complete(result.text, result.model);
  return {
    ...compaction,
    ...(compaction.summary
      ? {
          summary: {
            ...compaction.summary,
            provider: { block: result.block, continues: result.continues, betas: result.betas },
          },
        }
      : {}),
    metadata: summaryBilling(result),
  };
}
