// `jp q [QUERY]`: ask in a conversation; the model may call tools.
import { type Command } from "commander";
import type { Config } from "../../config/schema.js";
import { grouped } from "../../numbers.js";
import { turnsLabel } from "../../events/index.js";
import { checkAttachments } from "../../llm/attachments.js";
import { modelCacheDir, modelCapabilities } from "../../llm/model-info.js";
import { createProvider } from "../../llm/create-provider.js";
import { ask as askQuestion, type AskSteps, type ReadyModel } from "../../service/ask.js";
import type { ConversationRef } from "../../store/conversations.js";
import { toolNameProblem } from "../../tools/names.js";
import type { OptionalValueFlag } from "../argv.js";
import { addSpecOptions, COMPACT_SPEC_FLAG, compactWithSpecs } from "../compact-options.js";
import type { Context } from "../context.js";
import { failedQuery, refreshPricesInBackground, reportUsage, titleByModel } from "../q/after.js";
import {
  configForQuery,
  conversationFor,
  existingConversation,
  keepModel,
  keepPersona,
  repairInterruption,
  setByConversation,
} from "../q/conversation.js";
import { readAttachments, readConfigAttachments, readQuery } from "../q/input.js";
import { defineCommand, type QOptions } from "../q/options.js";
import { noticeLeftOutTools, offeredTools } from "../q/tools.js";
import {
  answerMarkdown,
  checkLifecycle,
  interruptHandler,
  turnIo,
  turnSettings,
  warnUnknownModel,
} from "../q/turn-setup.js";

function isToolName(word: string): boolean {
  return toolNameProblem(word) === undefined;
}

export const optionalValues: OptionalValueFlag[] = [
  // --fork, or --fork=N for the last N turns: attached only, so `--fork 3` leaves 3 in the question.
  { flags: ["--fork"], hidden: "--fork-last", bareValue: "all" },
  COMPACT_SPEC_FLAG,
  // As JP reads them, the next word is the tool when it can be a tool's name (`-t web_search "…"`).
  {
    flags: ["-t", "--tool"],
    hidden: "--tool-op",
    bareValue: "+",
    valuePrefix: "+",
    takesNextToken: isToolName,
  },
  {
    flags: ["-T", "--no-tool"],
    hidden: "--tool-op",
    bareValue: "-",
    valuePrefix: "-",
    takesNextToken: isToolName,
  },
  // As JP reads it: `-r high` (or -r=high) thinks at that effort; a bare -r at the configured one. A
  // single word after it is an effort, as JP takes it, so a misspelt one is an error, never words sent.
  {
    flags: ["-r", "--reasoning"],
    hidden: "--reasoning-effort",
    takesNextToken: (word) => /^[A-Za-z][\w-]*$/.test(word),
  },
];

export function register(program: Command, ctx: Context): void {
  addSpecOptions(defineCommand(program)).action((words: string[], opts: QOptions) => ask(ctx, words, opts));
}

type Retry = ReturnType<typeof failedQuery>;

async function ask(ctx: Context, words: string[], opts: QOptions): Promise<void> {
  // An existing conversation's config applies; a new one is created only once the provider is ready.
  const existing = existingConversation(ctx, opts);
  const retry = opts.retry ? failedQuery(ctx, words, existing) : undefined;
  const query = retry ? retry.query : await readQuery(ctx, words, opts);
  if (query === undefined) {
    ctx.info("the editor was left without a question (or with an error); nothing was asked");
    return;
  }
  await askQuestion(qSteps(ctx, opts, existing, query, retry), { query, ...(retry ? { retry } : {}) });
}

type QueryConfig = Awaited<ReturnType<typeof configForQuery>>;

/** Each step of the use case as `jp q` does it: its flags, its terminal, the workspace's store. */
function qSteps(
  ctx: Context,
  opts: QOptions,
  existing: ConversationRef | undefined,
  query: string,
  retry: Retry | undefined,
): AskSteps<QueryConfig> {
  const unsaved = !existing && !opts.persist;
  return {
    keeps: opts.persist,
    configure: async () => {
      const resolved = await configForQuery(ctx, existing, opts);
      noticeLeftOutTools(ctx, existing, resolved.leftOutTools, opts.persist);
      return resolved;
    },
    readyModel: ({ config }) => readyModel(ctx, config, opts, retry),
    conversation: async ({ config, origins, beforeFlags }, model) => {
      const ref = conversationFor(ctx, existing, query, opts);
      keepModel(ctx, ref, existing, opts, model.modelId, origins.get("assistant.model.id"), beforeFlags);
      keepPersona(ctx, ref, opts, config, origins);
      if (!unsaved) await compactFirst(ctx, ref, opts, config);
      return ref;
    },
    log: (ref) => ({
      events: () => (unsaved ? [] : ctx.store().readEvents(ref)),
      append: (group) => {
        ctx.store().append(ref, group);
      },
    }),
    // Refused within a second, not waited for: the other `jp q` may run for minutes.
    holdTurn: (ref) => ctx.store().holdTurn(ref, { timeoutMs: 1000, command: "jp q", onWait: undefined }),
    interrupts: (release) => interruptHandler(ctx, release),
    offerTools: async ({ config, origins }, ref) => {
      const offered = await offeredTools(ctx, config, ref, opts, {
        commands: setByConversation(origins, "command"),
        mcpSources: setByConversation(origins, "source"),
      });
      return {
        tools: offered.tools,
        standing: offered.standing,
        close: async () => offered.servers?.closeAll(),
      };
    },
    setUp: async ({ config }, tools, ref, model, signal) => ({
      forcedTool: opts.toolUse,
      ...(await turnSettings(ctx, config, tools, ref, model.capabilities)),
      ...(await turnIo(ctx, config, opts, signal, await answerMarkdown(ctx, opts))),
    }),
    // With --json, every event recorded is printed as it is recorded, one per line.
    recorded: (group) => {
      if (opts.json) for (const event of group) ctx.out(JSON.stringify(event));
    },
    repair: (events, record) => {
      repairInterruption(ctx, events, record);
    },
    afterTurn: async ({ config }, ref, events, result) => {
      reportUsage(ctx, events, config);
      await refreshPricesInBackground(ctx);
      // A title given with --title, or refused with --no-title, is not generated over.
      if (!existing && opts.persist && !result.interrupted && opts.title === undefined)
        await titleByModel(ctx, config, ref, query, events);
    },
    now: () => ctx.clock.now(),
  };
}

/** The provider and what its model takes, the question's attachments read and checked against it before anything is recorded. */
async function readyModel(
  ctx: Context,
  config: Config,
  opts: QOptions,
  retry: Retry | undefined,
): Promise<ReadyModel> {
  const modelId = config.assistant?.model?.id ?? "";
  const { provider, model } = createProvider(modelId, config, ctx.env);
  const capabilities = await modelCapabilities(modelId, config, {
    provider,
    cacheDir: modelCacheDir(ctx.env),
    env: ctx.env,
    now: () => ctx.clock.now(),
  });
  checkLifecycle(ctx, capabilities);
  warnUnknownModel(ctx, capabilities);
  // A refused attachment costs nothing.
  const attachments = retry?.attachments ?? (await readAttachments(opts.attachment ?? [], ctx, config));
  checkAttachments(attachments, provider.accepts, provider.name);
  const configAttachments = await readConfigAttachments(ctx, config);
  checkAttachments(configAttachments, provider.accepts, provider.name);
  return { modelId, provider, modelName: model.name, capabilities, attachments, configAttachments };
}

/** With -k, compact before the turn by the configured rules and/or the specs (each appended under the turn lock). */
async function compactFirst(
  ctx: Context,
  ref: ConversationRef,
  opts: QOptions,
  config: Config,
): Promise<void> {
  for (const p of await compactWithSpecs(ctx, ref, opts, config, opts.persist)) {
    const range = turnsLabel(p.compaction.from_turn, p.compaction.to_turn);
    ctx.info(
      ctx.color.dim(`compacted ${range}: ${grouped(p.tokens.before)} → ${grouped(p.tokens.after)} tokens`),
    );
  }
}
