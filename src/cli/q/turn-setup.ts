// Owns what a `jp q` turn is run with: the model's lifecycle and identity
// checked, the settings, the terminal's input and output, the interrupt
// handler and automatic compaction's hook.
import { Writable } from "node:stream";
import { toolHints } from "../../config/compaction-rules.js";
import type { Config } from "../../config/schema.js";
import { closest } from "../../config/zod-walk.js";
import { JpError } from "../../errors.js";
import {
  lifecycleNotice,
  nearestEffort,
  type Effort,
  type ModelCapabilities,
} from "../../llm/capabilities.js";
import { currentBuiltInModels } from "../../llm/model-table.js";
import { rememberRefusedThinking } from "../../llm/model-info.js";
import { providerApi, requestSettings } from "../../llm/create-provider.js";
import { createStreamRenderer } from "../../render/stream.js";
import { visible } from "../../render/visible.js";
import { type ConversationRef } from "../../store/conversations.js";
import { outputCapOf } from "../../tools/local.js";
import { withRecallWhenUseful } from "../../tools/recall.js";
import { createTerminalPrompter } from "../../tools/prompter.js";
import type { Tool } from "../../tools/types.js";
import { autoBudget, createAutoCompaction } from "../../turn/auto-compaction.js";
import type { ProviderClearing } from "../../turn/provider-clearing.js";
import type { Context } from "../context.js";
import { providerSummaries } from "../provider-summaries.js";
import type { QOptions } from "./options.js";

/** A retired model is refused before anything is written or sent; one shutting down soon is warned of. */
export function checkLifecycle(ctx: Context, capabilities: ModelCapabilities): void {
  const notice = lifecycleNotice(capabilities, ctx.clock.now());
  if (!notice) return;
  if ("warning" in notice) ctx.warn(notice.warning);
  else throw new JpError("llm.model_retired", notice.refusal, { hint: notice.hint, exitCode: 2 });
}

/**
 * A model id the provider's model API does not have (a 404: `claude-sonet-5-5`)
 * is named, with the nearest id jp knows; the request still goes out, and the
 * provider's own answer to it is the last word.
 */
export function warnUnknownModel(ctx: Context, capabilities: ModelCapabilities): void {
  if (capabilities.unknownToProvider !== true) return;
  const { id } = capabilities;
  const provider = id.split("/")[0] ?? "";
  const current = currentBuiltInModels().filter((known) => known.startsWith(`${provider}/`) && known !== id);
  const nearest = closest(id, current);
  ctx.warn(
    `${id} is unknown to ${provider}'s model API (it has no such model)${nearest ? `; did you mean ${nearest}?` : ""} Sending it anyway.`,
  );
}

/**
 * The effort the turn asks: the configured level, or for JP's "auto"
 * ("enabled with reasonable defaults if the model supports it", JP's
 * ReasoningConfig) medium on a model known to think, and nothing asked of
 * one that is not: JP's own budgets count auto as medium.
 */
export function resolvedEffort(
  effort: NonNullable<NonNullable<NonNullable<Config["assistant"]>["reasoning"]>["effort"]>,
  facts: ModelCapabilities["facts"],
): { effort?: Effort } {
  if (effort !== "auto") return { effort };
  const thinks =
    facts.thinking?.adaptive === true ||
    facts.thinking?.enabled === true ||
    (facts.efforts?.length ?? 0) > 0 ||
    facts.reasons === true ||
    facts.thinkingBudget !== undefined;
  return thinks
    ? { effort: facts.efforts ? (nearestEffort("medium", facts.efforts) ?? "medium") : "medium" }
    : {};
}

/**
 * What the config and the model's capabilities set for the turn's requests:
 * the prompt, limits, thinking, caching, the window, auto compaction.
 */
export async function turnSettings(
  ctx: Context,
  config: Config,
  tools: readonly Tool[],
  ref: ConversationRef,
  capabilities: ModelCapabilities,
) {
  const { facts } = capabilities;
  const window = facts.contextWindow;
  const serverClears = await serverClearsToolUses(ctx, config, capabilities);
  const beforeRequest = await autoCompactionHook(ctx, config, tools, capabilities, ref, serverClears);
  const reasoning = config.assistant?.reasoning;
  return {
    system: config.assistant?.system_prompt,
    ...requestSettings(config, facts),
    reasoning: {
      ...(reasoning?.effort ? resolvedEffort(reasoning.effort, facts) : {}),
      ...(reasoning?.budget_tokens ? { budgetTokens: reasoning.budget_tokens } : {}),
    },
    ...(reasoning?.prefix_mismatch ? { prefixMismatch: reasoning.prefix_mismatch } : {}),
    rememberRefusedThinking: (reason: string) =>
      rememberRefusedThinking(capabilities.id, reason, ctx.env, ctx.clock.now()),
    ...(Object.keys(facts).length ? { facts } : {}),
    ...(config.assistant?.cache === false
      ? {}
      : { cache: { key: ref.id, ttl: config.assistant?.cache_ttl ?? "5m" } }),
    ...(beforeRequest ? { beforeRequest } : {}),
    // A request clearly over the window is not sent, auto compaction or not (it may not be able to help).
    ...(window !== undefined ? { contextWindow: window } : {}),
    autoCompacts: config.conversation?.compaction?.auto?.enabled === true,
    ...(beforeRequest && serverClears ? { serverClearsToolUses: serverClears } : {}),
    outputCap: outputCapOf(config),
  };
}

/** The fewest tool uses the provider keeps when it clears older ones itself (context editing's default). */
const KEPT_TOOL_USES = 3;

/**
 * Where automatic compaction leaves the turn's tool results to the provider:
 * a model with preserved thinking spoken to through the Messages API, whose
 * context editing clears them server-side past the budget and leaves every
 * thinking block's prefix as it was (client-side stripping would change the
 * prefix of every later step's thinking). Only where the Models API (or, without
 * its answer, the docs' list) says the model clears tool uses: elsewhere they are stripped here.
 */
async function serverClearsToolUses(
  ctx: Context,
  config: Config,
  capabilities: ModelCapabilities,
): Promise<ProviderClearing | undefined> {
  const { preservedThinking, clearsToolUses } = capabilities.facts;
  if (!config.conversation?.compaction?.auto?.enabled || !preservedThinking || !clearsToolUses)
    return undefined;
  if (providerApi(capabilities.id, config) !== "anthropic") return undefined;
  const limits = autoBudget(config, capabilities.facts.contextWindow);
  return limits
    ? {
        trigger: limits.budget,
        keepTail: limits.keepTail,
        keep: KEPT_TOOL_USES,
        clearAtLeast: limits.minSaving,
        counter: await ctx.tokenCounter(config),
      }
    : undefined;
}

/** Where the turn asks, shows and takes the time: the terminal, or with --json events alone on stdout. */
/** The answer drawn as markdown when it goes to a terminal (the renderer loads only then); raw elsewhere. */
export async function answerMarkdown(ctx: Context, opts: QOptions) {
  if (opts.json || ctx.stdout.isTTY !== true) return undefined;
  const { createMarkdownStream } = await import("../../render/markdown.js");
  const columns = ctx.stdout.columns;
  return createMarkdownStream(ctx.stdout, Math.min(columns ?? 100, 120), ctx.color.level > 0);
}

export async function turnIo(
  ctx: Context,
  config: Config,
  opts: QOptions,
  signal: AbortSignal,
  markdown: Awaited<ReturnType<typeof answerMarkdown>>,
) {
  return {
    prompter: createTerminalPrompter({
      stdin: () => ctx.stdin,
      stdinIsTTY: await ctx.stdinIsTTY(),
      stderr: ctx.stderr,
      env: ctx.env,
      safe: visible,
      signal,
    }),
    output: createStreamRenderer({
      // With --json, stdout carries the events alone; the answer is in them.
      stdout: opts.json ? discard() : ctx.stdout,
      stderr: ctx.stderr,
      color: ctx.color,
      reasoning: opts.hideReasoning ? "hidden" : (config.assistant?.reasoning?.display ?? "dim"),
      toolCalls: opts.hideToolCalls ? "hidden" : "shown",
      ...(markdown ? { markdown } : {}),
      signal,
    }),
    now: () => ctx.clock.now(),
    cwd: ctx.maybeWorkspace()?.root ?? ctx.cwd,
    signal,
  };
}

/** The before-request hook of automatic compaction, when it is enabled (and has a budget). */
async function autoCompactionHook(
  ctx: Context,
  config: Config,
  tools: readonly Tool[],
  capabilities: ModelCapabilities,
  ref: ConversationRef,
  serverClears: ProviderClearing | undefined,
) {
  const auto = config.conversation?.compaction?.auto;
  if (!auto?.enabled) return undefined;
  const window = capabilities.facts.contextWindow;
  if (window === undefined && auto.max_tokens === undefined) {
    ctx.warn(
      `automatic compaction is off for this turn: the context window of ${capabilities.id} is unknown (set [models."${capabilities.id}"] context_window, or conversation.compaction.auto.max_tokens)`,
    );
    return undefined;
  }
  // One count for the turn: the provider's clearing is decided with the same one.
  const counter = serverClears?.counter ?? (await ctx.tokenCounter(config));
  const definitions = tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  }));
  const providers = await providerSummaries(ctx, config, ref, definitions, capabilities.facts);
  // Counted as the request offers them: recall joins with the first compaction, unless offered from the start.
  const always = withRecallWhenUseful(definitions, {
    activeCompactions: 0,
    cutOutputs: 0,
    stable: capabilities.facts.preservedThinking === true,
  });
  return createAutoCompaction({
    config,
    counter,
    summarizer: ctx.summarizer,
    ...(providers ? { providerSummaries: providers } : {}),
    frame: {
      ...(config.assistant?.system_prompt ? { system: config.assistant.system_prompt } : {}),
      tools: always,
      whenCompacted: definitions.filter((t) => !always.includes(t)),
      capOf: outputCapOf(config),
    },
    ...(window !== undefined ? { contextWindow: window } : {}),
    now: () => ctx.clock.now(),
    newId: ctx.newId,
    hints: toolHints(config),
    ...(serverClears ? { serverClearsToolUses: serverClears } : {}),
    say: (line) => {
      ctx.info(ctx.color.cyan(line));
    },
    warn: (line) => {
      ctx.warn(line);
    },
  });
}

/** First Ctrl-C aborts the turn (keeping what arrived); a second quits at once with 130. */
export function interruptHandler(
  ctx: Context,
  beforeExit: () => void,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const stop = (said: string) => {
    if (controller.signal.aborted) return;
    // Aborted first: a live area on the screen (a running tool's) erases itself before the notice is written.
    controller.abort();
    try {
      ctx.stderr.write(ctx.color.yellow(`\n${said}\n`));
    } catch {
      // The terminal may be gone (SIGHUP); the turn still ends cleanly.
    }
  };
  // Only a second Ctrl-C quits at once: a closed terminal may deliver SIGHUP twice (the
  // terminal hangs up as its controlling process dies), and the turn must still be recorded.
  const onSigint = () => {
    if (controller.signal.aborted) {
      beforeExit();
      process.exit(130);
    }
    stop("interrupted; keeping what arrived (Ctrl-C again to quit at once)");
  };
  // Closing the terminal (SIGHUP, or a write that fails with EIO) or a polite kill (SIGTERM)
  // end the turn the same way, so whatever was recorded stays valid and a running tool is answered.
  const onStop = () => {
    stop("stopping; keeping what arrived");
  };
  process.on("SIGINT", onSigint);
  process.on("SIGTERM", onStop);
  process.on("SIGHUP", onStop);
  const onGone = () => {
    controller.abort();
  };
  ctx.outputGone.addEventListener("abort", onGone, { once: true });
  if (ctx.outputGone.aborted) controller.abort();
  return {
    signal: controller.signal,
    dispose: () => {
      process.off("SIGINT", onSigint);
      process.off("SIGTERM", onStop);
      process.off("SIGHUP", onStop);
      ctx.outputGone.removeEventListener("abort", onGone);
    },
  };
}

/** A stream that drops what is written to it. */
export function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}
