// `jp q [QUERY]`: ask in a conversation; the model may call tools.
import { type Command } from "commander";
import { jpEffortLevel } from "../../config/jp-efforts.js";
import type { Config } from "../../config/schema.js";
import { JpError } from "../../errors.js";
import { turnsLabel, type Attachment, type Event } from "../../events/index.js";
import { checkAttachments } from "../../llm/attachments.js";
import { modelCacheDir, modelCapabilities } from "../../llm/model-info.js";
import { createProvider } from "../../llm/create-provider.js";
import type { McpServers } from "../../mcp/servers.js";
import type { ConversationRef } from "../../store/conversations.js";
import { toolNameProblem } from "../../tools/names.js";
import { runTurn } from "../../turn/loop.js";
import { recordFailedQuestion } from "../../turn/record.js";
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
  // As JP reads it: `-r high` (or -r=high) thinks at that effort; a bare -r at the configured one.
  {
    flags: ["-r", "--reasoning"],
    hidden: "--reasoning-effort",
    takesNextToken: (word) => jpEffortLevel(word) !== undefined,
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
  const { config, leftOutTools, origins } = await configForQuery(ctx, existing, opts);
  noticeLeftOutTools(ctx, existing, leftOutTools, opts.persist);
  const model = await readyModel(ctx, config, opts, retry);
  const ref = conversationFor(ctx, existing, query, opts);
  await keepModel(ctx, ref, existing, opts, model.modelId, origins.get("assistant.model.id"));
  keepPersona(ctx, ref, opts, config, origins);
  const unsaved = !existing && !opts.persist;
  if (!unsaved) await compactFirst(ctx, ref, opts, config);

  // The conversation is ours for the whole turn; a second `jp q` on it is told who holds it.
  // Taken before anything is started (MCP servers), and everything started is ended on every path.
  const turnLock = opts.persist
    ? // Refused within a second, not waited for: the other `jp q` may run for minutes.
      ctx.store().holdTurn(ref, { timeoutMs: 1000, command: "jp q", onWait: undefined })
    : undefined;
  const interrupt = interruptHandler(ctx, () => turnLock?.release());
  let servers: McpServers | undefined;
  try {
    const offered = await offeredTools(ctx, config, ref, opts, {
      commands: setByConversation(origins, "command"),
      mcpSources: setByConversation(origins, "source"),
    }).catch((error: unknown) => {
      // A server that would not start loses nothing: the question is recorded, failed, for --retry.
      if (opts.persist) recordUnasked(ctx, ref, query, error, model.attachments, retry);
      throw error;
    });
    servers = offered.servers;
    const turn = { query, retry, model, tools: offered.tools, signal: interrupt.signal };
    await askInTurn(ctx, ref, opts, config, { ...turn, fresh: !existing, unsaved });
  } finally {
    interrupt.dispose();
    turnLock?.release();
    await servers?.closeAll();
  }
}

/** The provider and what its model takes, the question's attachments read and checked against it before anything is recorded. */
async function readyModel(ctx: Context, config: Config, opts: QOptions, retry: Retry | undefined) {
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
  const attachments = retry?.attachments ?? (await readAttachments(opts.attachment ?? [], ctx));
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
    ctx.info(ctx.color.dim(`compacted ${range}: ${p.tokens.before} → ${p.tokens.after} tokens`));
  }
}

/** The question recorded as failed, before the turn could start: --retry asks it again. */
function recordUnasked(
  ctx: Context,
  ref: ConversationRef,
  query: string,
  error: unknown,
  attachments: Attachment[],
  retry: Retry | undefined,
): void {
  recordFailedQuestion(query, error, {
    now: () => ctx.clock.now(),
    attachments,
    ...(retry ? { retryOf: retry.turn } : {}),
    log: {
      events: () => ctx.store().readEvents(ref),
      append: (group) => {
        ctx.store().append(ref, group);
      },
    },
  });
}

interface TurnAsked {
  query: string;
  retry: Retry | undefined;
  model: Awaited<ReturnType<typeof readyModel>>;
  tools: Awaited<ReturnType<typeof offeredTools>>["tools"];
  signal: AbortSignal;
  /** The conversation was made by this question. */
  fresh: boolean;
  /** Neither an existing conversation nor kept (--no-persist on a new one). */
  unsaved: boolean;
}

/** The turn itself, then what follows it: usage, prices, a title. */
async function askInTurn(
  ctx: Context,
  ref: ConversationRef,
  opts: QOptions,
  config: Config,
  turn: TurnAsked,
) {
  const { query, retry, model, tools } = turn;
  // The turn works on a copy of the stream; every group is also appended to the log unless --no-persist.
  const memory: Event[] = turn.unsaved ? [] : [...ctx.store().readEvents(ref)];
  // With --json, every event recorded is printed as it is recorded, one per line.
  const record = (group: readonly Event[]) => {
    if (opts.persist) ctx.store().append(ref, group);
    memory.push(...group);
    if (opts.json) for (const event of group) ctx.out(JSON.stringify(event));
  };
  repairInterruption(ctx, memory, record);
  const turnStart = memory.length;
  const result = await runTurn(query, {
    ...(retry ? { retryOf: retry.turn } : {}),
    attachments: model.attachments,
    ...(model.configAttachments.length ? { threadAttachments: model.configAttachments } : {}),
    log: { events: () => memory, append: record, persisted: opts.persist },
    provider: model.provider,
    modelId: model.modelId,
    modelName: model.modelName,
    tools,
    forcedTool: opts.toolUse,
    ...(await turnSettings(ctx, config, tools, ref, model.capabilities)),
    ...(await turnIo(ctx, config, opts, turn.signal, await answerMarkdown(ctx, opts))),
  });
  reportUsage(ctx, memory.slice(turnStart), config);
  await refreshPricesInBackground(ctx);
  // A title given with --title, or refused with --no-title, is not generated over.
  if (turn.fresh && opts.persist && !result.interrupted && opts.title === undefined)
    await titleByModel(ctx, config, ref, query, memory.slice(turnStart));
  if (result.interrupted) {
    throw new JpError("turn.interrupted", "the turn was interrupted; what arrived is kept", {
      exitCode: 130,
    });
  }
}
