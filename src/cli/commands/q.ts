// `jp q [QUERY]`: ask in a conversation; the model may call tools.
import { quotedName, visible } from "../../render/visible.js";
import { Option, type Command } from "commander";
import * as os from "node:os";
import * as path from "node:path";
import { Writable } from "node:stream";
import type { Context } from "../context.js";
import type { OptionalValueFlag } from "../argv.js";
import { addSpecOptions, compactWithSpecs, COMPACT_SPEC_FLAG, type SpecOptions } from "../compact-options.js";
import { toolHints } from "../../config/compaction-rules.js";
import { setValueAt, valueAt } from "../../config/paths.js";
import { JP_EFFORT_NAMES, jpEffortLevel } from "../../config/jp-efforts.js";
import { JpError, UsageError } from "../../errors.js";
import { streamShape } from "../../compaction/index.js";
import { isJsonObject, repairInterruptedTurn } from "../../events/index.js";
import {
  isKind,
  sumUsage,
  turnIndices,
  turnsLabel,
  usageByModel,
  type Attachment,
  type Event,
} from "../../events/index.js";
import { checkAttachments } from "../../llm/attachments.js";
import { lifecycleNotice, type ModelCapabilities } from "../../llm/capabilities.js";
import { modelCacheDir, modelCapabilities, priceOf } from "../../llm/model-info.js";
import { estimateTotalCost } from "../../llm/pricing.js";
import { priceDataStale } from "../../llm/price-data.js";
import { PACKAGE_ROOT } from "../../config/package-root.js";
import { createProvider, requestSettings } from "../../llm/providers.js";
import { currentBuiltInModels } from "../../llm/model-table.js";
import { closest } from "../../config/zod-walk.js";
import { createStreamRenderer } from "../../render/stream.js";
import { usageLine } from "../../render/usage.js";
import { idForTime, TURN_LOCK_FILE, type ConversationRef } from "../../store/conversations.js";
import { acquireLock } from "../../store/lock.js";
import { providerSummaries } from "../provider-summaries.js";
import { conversationRegistry } from "../tool-registry.js";
import { outputCapOf } from "../../tools/local.js";
import { forkConversation } from "../../service/fork.js";
import { toolNameProblem, withAcceptedNames } from "../../tools/names.js";
import { createTerminalPrompter } from "../../tools/prompter.js";
import { isMcpToolSpec, selectTools, usesMcp } from "../../tools/registry.js";
import type { McpServers } from "../../mcp/servers.js";
import { loadMcp } from "../mcp-servers.js";
import { createAutoCompaction } from "../../turn/auto-compaction.js";
import { runTurn } from "../../turn/loop.js";
import { recordFailedQuestion } from "../../turn/record.js";
import type { Config } from "../../config/schema.js";
import type { Tool } from "../../tools/types.js";
import { counted } from "../../render/words.js";
import { leftOutSummary } from "../../render/left-out.js";

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

interface QOptions extends SpecOptions {
  new?: boolean;
  id?: string;
  model?: string;
  toolOp?: string[];
  toolUse?: string;
  edit?: boolean;
  retry?: boolean;
  persist: boolean;
  json?: boolean;
  /** -r (true) or -R (false); absent, the config decides. */
  reasoning?: boolean;
  reasoningEffort?: string;
  hideReasoning?: boolean;
  hideToolCalls?: boolean;
  /** --fork ("all") or --fork=N: ask in a fork of the conversation. */
  forkLast?: string;
  /** --title's words, or false with --no-title; absent, the first question titles a new conversation. */
  title?: string | false;
  /** What -a names: files, globs, URLs. */
  attachment?: string[];
}

export function register(program: Command, ctx: Context): void {
  addSpecOptions(defineCommand(program)).action((words: string[], opts: QOptions) => ask(ctx, words, opts));
}

function defineCommand(program: Command): Command {
  return program
    .command("q [query...]")
    .alias("query")
    .description("ask in the active conversation (or a new one); the model may call tools")
    .option("-n, --new", "start a new conversation for this query")
    .option("--id <id>", "ask in this conversation instead of the active one")
    .option("-m, --model <id>", "model for this query, as provider/name")
    .option(
      "-t, --tool",
      "offer every tool; -t NAME (or -t=NAME) offers NAME (applied left to right with -T)",
    )
    .option("-T, --no-tool", "offer no tools; -T NAME (or -T=NAME) withholds NAME")
    .addOption(
      new Option("--tool-op <op>")
        .hideHelp()
        .argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    )
    .option("-u, --tool-use <name>", "make the model call this tool first (implies -t=NAME)")
    .option(
      "-r, --reasoning",
      "let the model think for this query (its configured effort, else medium); -r EFFORT at that effort (low … max)",
    )
    .addOption(new Option("--reasoning-effort <effort>").hideHelp())
    .option("-R, --no-reasoning", "no thinking for this query")
    .option("--hide-reasoning", "do not show the reasoning as it streams (it is recorded all the same)")
    .option("--hide-tool-calls", "do not show tool calls and their results as they run (prompts still ask)")
    .option("--fork", "ask in a fork of the conversation (all its turns); --fork=N keeps its last N turns")
    .addOption(new Option("--fork-last <n>").hideHelp())
    .option("--title <title>", "title the conversation (a new one, or the one asked in)")
    .option(
      "--no-title",
      "leave a new conversation without a title (none from its first question, none generated)",
    )
    .option(
      "-a, --attachment <source>",
      "attach a file, a glob's files or an http(s) URL to the question (repeatable): text, images, PDFs",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option("-e, --edit", "write the query in $EDITOR")
    .option("--retry", "ask the conversation's last failed question again (one that got no answer)")
    .option("--no-persist", "do not record this turn in the conversation")
    .option(
      "--json",
      "print each event as it is recorded, one JSON object per line (the log's own form), and no answer text",
    )
    .addHelpText(
      "after",
      [
        "",
        "The query is the words after the options. Text piped on stdin is added after",
        "them (or is the whole query without words), so `git diff | jp q review this`",
        "asks about the diff; -e opens the result in $EDITOR before it is sent.",
        "",
        "At an approval prompt one key answers: y run, n decline, Y/N the same for the",
        "rest of the turn, r decline with a reason, e edit, p print, ? help.",
      ].join("\n"),
    );
}

/** The configuration of this query: the conversation's, with -m, -r and -R on top. */
async function configForQuery(ctx: Context, existing: ConversationRef | undefined, opts: QOptions) {
  const model = opts.model ? { model: { id: opts.model } } : {};
  if (opts.reasoningEffort !== undefined) {
    const effort = jpEffortLevel(opts.reasoningEffort);
    if (effort === undefined)
      throw new UsageError(
        `-r ${opts.reasoningEffort} is not an effort`,
        `use one of ${JP_EFFORT_NAMES.join(", ")}, or -r alone for the configured one`,
      );
    return ctx.config({
      conversation: existing,
      flags: { assistant: { ...model, reasoning: { effort, budget_tokens: 0 } } },
    });
  }
  if (opts.reasoning === false)
    return ctx.config({
      conversation: existing,
      flags: { assistant: { ...model, reasoning: { effort: "none", budget_tokens: 0 } } },
    });
  const flags = opts.model ? { assistant: model } : undefined;
  const resolved = await ctx.config({ conversation: existing, ...(flags ? { flags } : {}) });
  const configured = resolved.config.assistant?.reasoning;
  const thinking = (configured?.effort && configured.effort !== "none") || configured?.budget_tokens;
  if (!opts.reasoning || thinking) return resolved;
  return ctx.config({
    conversation: existing,
    flags: { assistant: { ...model, reasoning: { effort: "medium" } } },
  });
}

/**
 * Which model a turn uses, by one rule: -m, else the model the conversation
 * recorded (a -m before it, or a JP conversation's config), else the user's
 * config. A model that is not the user's configured one is named on the
 * turn's first line; -m is recorded (a config delta, as JP does) so the
 * conversation keeps it.
 */
async function keepModel(
  ctx: Context,
  ref: ConversationRef,
  existing: ConversationRef | undefined,
  opts: QOptions,
  modelId: string,
  origin: string | undefined,
): Promise<void> {
  // Said when the model changes: not on every turn of a conversation that keeps answering with it.
  if (origin?.startsWith("conversation") && existing && lastAnsweredBy(ctx, existing) !== modelId)
    ctx.info(ctx.color.dim(`${modelId}: this conversation's model, as it recorded it (-m changes it)`));
  if (!opts.model) return;
  const recorded = existing
    ? (await ctx.config({ conversation: existing })).config.assistant?.model?.id
    : undefined;
  if (recorded === modelId) return;
  ctx.info(
    ctx.color.dim(
      `${modelId}: given with -m${opts.persist ? ", and kept for this conversation's next turns" : ""}`,
    ),
  );
  if (!opts.persist) return;
  ctx.store().append(ref, [
    {
      type: "config_delta",
      timestamp: ctx.clock.now().toISOString(),
      delta: { assistant: { model: { id: modelId } } },
    },
  ]);
}

/**
 * What `-c` gave this query's assistant (a persona's model, prompt, reasoning)
 * is recorded as a config delta, as JP records the CLI's config, so that the
 * conversation's next `jp q` keeps the persona. Only `assistant` settings: a
 * conversation's recorded tools are the user's config's to allow (trust.ts).
 */
function keepPersona(
  ctx: Context,
  ref: ConversationRef,
  opts: QOptions,
  config: Config,
  origins: ReadonlyMap<string, string>,
): void {
  if (!opts.persist || ctx.cfg.length === 0) return;
  const delta: Record<string, unknown> = {};
  for (const [key, layer] of origins) {
    // Layers are named `-c SPEC`, or for a JP workspace "JP workspace (…, -c SPEC, read as JP's)".
    if (!key.startsWith("assistant.") || !/(^|[ (,])-c /.test(layer)) continue;
    const keys = key.split(".");
    setValueAt(delta, keys, valueAt(config, keys));
  }
  if (Object.keys(delta).length === 0) return;
  ctx.store().append(ref, [{ type: "config_delta", timestamp: ctx.clock.now().toISOString(), delta }]);
}

/** The model the conversation's last answer names (its metadata), if any. */
function lastAnsweredBy(ctx: Context, ref: ConversationRef): string | undefined {
  const events = ctx.store().readEvents(ref);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type !== "chat_response") continue;
    const model = isJsonObject(e.metadata) ? e.metadata.model : undefined;
    return typeof model === "string" ? model : undefined;
  }
  return undefined;
}

/**
 * The conversation asked in: --id's, else the active one; none with --new or
 * when none is active. With --fork, a fork of it (made active), as JP does.
 */
function existingConversation(ctx: Context, opts: QOptions): ConversationRef | undefined {
  const store = ctx.store();
  if (opts.new) return undefined;
  const asked = opts.id ? store.resolve(opts.id) : store.activeId() ? store.resolve() : undefined;
  if (opts.forkLast === undefined || !opts.persist) return asked;
  if (!asked) throw new UsageError("--fork needs a conversation to fork", "give --id ID, or make one active");
  const last = opts.forkLast === "all" ? undefined : Number(opts.forkLast);
  if (last !== undefined && (!Number.isInteger(last) || last < 1))
    throw new UsageError(`--fork=${opts.forkLast} takes a positive number of turns`);
  const { ref } = forkConversation(store, asked, last !== undefined ? { last } : {});
  store.setActive(ref.id);
  ctx.info(ctx.color.dim(`forked ${asked.id} into ${ref.id}; asking there`));
  return ref;
}

/**
 * The conversation the turn goes into: the existing one (titled by its first
 * question, made active unless --id named it), a new one, or with
 * --no-persist one that exists only in memory.
 */
function conversationFor(
  ctx: Context,
  existing: ConversationRef | undefined,
  query: string,
  opts: QOptions,
): ConversationRef {
  const store = ctx.store();
  const given = typeof opts.title === "string" ? opts.title.trim() || undefined : undefined;
  const title = opts.title === false ? undefined : (given ?? titleFrom(query));
  const ref = existing ?? (opts.persist ? store.create(title ? { title } : {}) : unsavedConversation(ctx));
  if (!opts.persist) return ref;
  if (!existing) ctx.info(ctx.color.dim(`new conversation ${ref.id}`));
  // --title retitles; a conversation made by `jp conversation new` gets its title from its first question.
  else if (given !== undefined || (title !== undefined && store.metadata(ref).title === undefined))
    store.updateMetadata(ref, (m) => ({ ...m, title }));
  // --id asks in that conversation "instead of the active one": the active one stays.
  if (opts.id === undefined) store.setActive(ref.id);
  return ref;
}

/** Tools whose `key` (command or source) the conversation's recorded config set: they are always asked for. */
function setByConversation(origins: ReadonlyMap<string, string>, key: "command" | "source"): Set<string> {
  const names = new Set<string>();
  for (const [k, layer] of origins) {
    const [root, tools, name, field] = k.split(".");
    if (
      root === "conversation" &&
      tools === "tools" &&
      name &&
      field === key &&
      layer.startsWith("conversation")
    )
      names.add(name);
  }
  return names;
}

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
  // Read and checked against the provider before anything is recorded: a refused attachment costs nothing.
  const attachments = retry?.attachments ?? (await readAttachments(opts.attachment ?? [], ctx));
  checkAttachments(attachments, provider.accepts, provider.name);
  const configAttachments = await readConfigAttachments(ctx, config);
  checkAttachments(configAttachments, provider.accepts, provider.name);
  const ref = conversationFor(ctx, existing, query, opts);
  await keepModel(ctx, ref, existing, opts, modelId, origins.get("assistant.model.id"));
  keepPersona(ctx, ref, opts, config, origins);

  // With -k, compact before the turn by the configured rules and/or the specs (each appended under the turn lock).
  const unsaved = !existing && !opts.persist;
  for (const p of unsaved ? [] : await compactWithSpecs(ctx, ref, opts, config, opts.persist)) {
    const range = turnsLabel(p.compaction.from_turn, p.compaction.to_turn);
    ctx.info(ctx.color.dim(`compacted ${range}: ${p.tokens.before} → ${p.tokens.after} tokens`));
  }

  // The conversation is ours for the whole turn; a second `jp q` on it is told who holds it.
  // Taken before anything is started (MCP servers), and everything started is ended on every path.
  const turnLock = opts.persist
    ? acquireLock(path.join(ref.dir, TURN_LOCK_FILE), { timeoutMs: 1000, command: "jp q" })
    : undefined;
  const interrupt = interruptHandler(ctx, () => turnLock?.release());
  let servers: McpServers | undefined;
  try {
    const offered = await offeredTools(ctx, config, ref, opts, {
      commands: setByConversation(origins, "command"),
      mcpSources: setByConversation(origins, "source"),
    }).catch((error: unknown) => {
      // A server that would not start loses nothing: the question is recorded, failed, for --retry.
      if (opts.persist)
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
      throw error;
    });
    const tools = offered.tools;
    servers = offered.servers;
    // The turn works on a copy of the stream; every group is also appended to the log unless --no-persist.
    const memory: Event[] = unsaved ? [] : [...ctx.store().readEvents(ref)];
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
      attachments,
      ...(configAttachments.length ? { threadAttachments: configAttachments } : {}),
      log: { events: () => memory, append: record, persisted: opts.persist },
      provider,
      modelId,
      modelName: model.name,
      tools,
      forcedTool: opts.toolUse,
      ...(await turnSettings(ctx, config, tools, ref, capabilities)),
      ...(await turnIo(ctx, config, opts, interrupt.signal, await answerMarkdown(ctx, opts))),
    });
    reportUsage(ctx, memory.slice(turnStart), config);
    await refreshPricesInBackground(ctx);
    // A title given with --title, or refused with --no-title, is not generated over.
    if (!existing && opts.persist && !result.interrupted && opts.title === undefined)
      await titleByModel(ctx, config, ref, query, memory.slice(turnStart));
    if (result.interrupted) {
      throw new JpError("turn.interrupted", "the turn was interrupted; what arrived is kept", {
        exitCode: 130,
      });
    }
  } finally {
    interrupt.dispose();
    turnLock?.release();
    await servers?.closeAll();
  }
}

/** A process killed while a tool ran left its call unanswered: answer it, visibly, so the turn can go on. */
function repairInterruption(
  ctx: Context,
  memory: readonly Event[],
  record: (group: readonly Event[]) => void,
) {
  const repairs = repairInterruptedTurn(memory, ctx.clock.now().toISOString());
  if (repairs.length === 0) return;
  record(repairs);
  const calls = repairs.filter((r) => r.type === "tool_call_response").length;
  if (calls > 0)
    ctx.warn(`${counted(calls, "tool call")} of an interrupted turn had no result; recorded as interrupted`);
  if (calls < repairs.length)
    ctx.warn(
      "the previous question got no answer (interrupted); it is kept in the log but not sent again (`jp q --retry` asks it again)",
    );
}

/** A retired model is refused before anything is written or sent; one shutting down soon is warned of. */
function checkLifecycle(ctx: Context, capabilities: ModelCapabilities): void {
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
function warnUnknownModel(ctx: Context, capabilities: ModelCapabilities): void {
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
 * What the config and the model's capabilities set for the turn's requests:
 * the prompt, limits, thinking, caching, the window, auto compaction.
 */
async function turnSettings(
  ctx: Context,
  config: Config,
  tools: readonly Tool[],
  ref: ConversationRef,
  capabilities: ModelCapabilities,
) {
  const { facts } = capabilities;
  const window = facts.contextWindow;
  const beforeRequest = await autoCompactionHook(ctx, config, tools, capabilities, ref);
  const reasoning = config.assistant?.reasoning;
  return {
    system: config.assistant?.system_prompt,
    ...requestSettings(config, facts),
    reasoning: {
      ...(reasoning?.effort ? { effort: reasoning.effort } : {}),
      ...(reasoning?.budget_tokens ? { budgetTokens: reasoning.budget_tokens } : {}),
    },
    ...(reasoning?.prefix_mismatch ? { prefixMismatch: reasoning.prefix_mismatch } : {}),
    ...(Object.keys(facts).length ? { facts } : {}),
    ...(config.assistant?.cache === false
      ? {}
      : { cache: { key: ref.id, ttl: config.assistant?.cache_ttl ?? "5m" } }),
    ...(beforeRequest ? { beforeRequest } : {}),
    // A request clearly over the window is not sent, auto compaction or not (it may not be able to help).
    ...(window !== undefined ? { contextWindow: window } : {}),
    autoCompacts: config.conversation?.compaction?.auto?.enabled === true,
    outputCap: outputCapOf(config),
  };
}

/** Where the turn asks, shows and takes the time: the terminal, or with --json events alone on stdout. */
/** The answer drawn as markdown when it goes to a terminal (the renderer loads only then); raw elsewhere. */
async function answerMarkdown(ctx: Context, opts: QOptions) {
  if (opts.json || ctx.stdout.isTTY !== true) return undefined;
  const { createMarkdownStream } = await import("../../render/markdown.js");
  const columns = ctx.stdout.columns;
  return createMarkdownStream(ctx.stdout, Math.min(columns ?? 100, 120), ctx.color.level > 0);
}

async function turnIo(
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

/**
 * Say which tools the conversation's recorded config names but jp cannot run
 * (an imported conversation's MCP tools), once per conversation and again only
 * when the list changes; `jp conversation show` always lists them.
 */
function noticeLeftOutTools(
  ctx: Context,
  ref: ConversationRef | undefined,
  leftOut: readonly string[],
  persist: boolean,
): void {
  if (leftOut.length === 0) return;
  const store = ctx.store();
  const metadata = ref ? store.metadata(ref) : undefined;
  const noticed = new Set(metadata?.left_out_tools_noticed ?? []);
  if (leftOut.every((tool) => noticed.has(tool))) return;
  ctx.warn(
    `left out ${counted(leftOut.length, "tool")} this conversation names but jp cannot run: ${leftOutSummary(leftOut)} (said once; \`jp conversation show\` lists them)`,
  );
  if (ref && metadata && persist)
    store.updateMetadata(ref, (m) => ({ ...m, left_out_tools_noticed: [...leftOut] }));
}

/**
 * The question of the conversation's newest failed request, for --retry,
 * unless it was asked again already (a retry's question names the turn it
 * repeats in `metadata.retry_of`): --retry asks once.
 */
function failedQuery(
  ctx: Context,
  words: string[],
  ref: ConversationRef | undefined,
): { query: string; turn: number; attachments: Attachment[] } {
  if (words.length > 0)
    throw new UsageError("--retry asks the failed question again; give no new one with it");
  if (!ref) throw new UsageError("--retry needs a conversation", "give --id ID, or make one active");
  const events = ctx.store().readEvents(ref);
  const newest = streamShape(events).failures.at(-1);
  const turns = turnIndices(events);
  const request = newest && events.find((e, i) => turns[i] === newest.turn && isKind(e, "chat_request"));
  if (!newest || !request || !isKind(request, "chat_request"))
    throw new UsageError("this conversation has no failed question to ask again");
  if (newest.retriedAs !== undefined)
    throw new UsageError(
      `the failed question of turn ${newest.turn + 1} was asked again in turn ${newest.retriedAs + 1}; --retry asks once`,
      "ask it anew with jp q, if you want it asked again",
    );
  return { query: request.content, turn: newest.turn, attachments: request.attachments ?? [] };
}

/** The query from the words, stdin when piped, and $EDITOR with -e. */
/** The query; undefined when the person cancelled writing it in $EDITOR. */
async function readQuery(ctx: Context, words: string[], opts: QOptions): Promise<string | undefined> {
  let query = words.join(" ");
  const stdinIsTTY = await ctx.stdinIsTTY();
  if (!stdinIsTTY) {
    const piped = await ctx.readStdin();
    if (piped.trim()) query = query ? `${query}\n\n${piped}` : piped;
  }
  // No words and a terminal: the question is written in $EDITOR, as with -e (JP does the same).
  if (opts.edit || (!query.trim() && stdinIsTTY)) {
    const prompter = createTerminalPrompter({
      stdin: () => ctx.stdin,
      stdinIsTTY,
      stderr: ctx.stderr,
      env: ctx.env,
      safe: visible,
    });
    // Saved unchanged, the question given is the question: only an empty buffer or an error cancels.
    const edited = await prompter.editText(query ? `${query}\n` : "", ".md", { keepUnchanged: true });
    if (edited === undefined) return undefined;
    query = edited.trim();
  }
  if (!query.trim()) {
    throw new UsageError(
      "nothing to ask",
      "give the query as arguments, pipe it on stdin, or write it in $EDITOR (-e, or no words on a terminal)",
    );
  }
  return query;
}

/**
 * Config tools and built-ins, narrowed by -t/-T left to right; -u adds its
 * tool. MCP tools are described by their servers (cached lists first), and
 * `servers` holds the servers to end when the turn is over.
 */
async function offeredTools(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  opts: QOptions,
  trust: { commands: ReadonlySet<string>; mcpSources: ReadonlySet<string> },
): Promise<{ tools: Tool[]; servers?: McpServers }> {
  const registry = await conversationRegistry(ctx, config, ref, trust.commands);
  // The MCP layer loads only for a config that offers MCP tools.
  const mcp = usesMcp(config, registry) ? await loadMcp(ctx, config) : undefined;
  const servers = mcp?.servers;
  try {
    const warn = (line: string) => {
      ctx.warn(line);
    };
    if (mcp) await mcp.offer.addAllToolsServers(config, registry, mcp.servers, warn);
    const selections = (opts.toolOp ?? []).map((op) => ({
      enable: op.startsWith("+"),
      ...(op.length > 1 ? { name: op.slice(1) } : {}),
    }));
    if (opts.toolUse) selections.push({ enable: true, name: opts.toolUse });
    const selected = selectTools(registry, selections);
    const mcpSpecs = selected.filter(isMcpToolSpec);
    const described =
      mcp && mcpSpecs.length
        ? await mcp.offer.describeMcpTools(mcpSpecs, mcp.servers, trust.mcpSources, warn)
        : [];
    const byName = new Map(described.map((t) => [t.name, t]));
    const ready = selected.flatMap((entry) => {
      if (!isMcpToolSpec(entry)) return [entry];
      const tool = byName.get(entry.name);
      return tool ? [tool] : [];
    });
    const offered = withAcceptedNames(ready, (name, problem) => {
      ctx.warn(`left out tool ${quotedName(name)}: ${problem}`);
    });
    for (const tool of offered) if (tool.warning) ctx.warn(tool.warning);
    return { tools: offered, ...(servers ? { servers } : {}) };
  } catch (error) {
    await servers?.closeAll();
    throw error;
  }
}

/** The before-request hook of automatic compaction, when it is enabled (and has a budget). */
async function autoCompactionHook(
  ctx: Context,
  config: Config,
  tools: readonly Tool[],
  capabilities: ModelCapabilities,
  ref: ConversationRef,
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
  const counter = await ctx.tokenCounter(config);
  const definitions = tools.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.parameters,
  }));
  const providers = await providerSummaries(ctx, config, ref, definitions);
  return createAutoCompaction({
    config,
    counter,
    summarizer: ctx.summarizer,
    ...(providers ? { providerSummaries: providers } : {}),
    frame: {
      ...(config.assistant?.system_prompt ? { system: config.assistant.system_prompt } : {}),
      tools: definitions,
      capOf: outputCapOf(config),
    },
    ...(window !== undefined ? { contextWindow: window } : {}),
    now: () => ctx.clock.now(),
    newId: ctx.newId,
    hints: toolHints(config),
    say: (line) => {
      ctx.info(ctx.color.cyan(line));
    },
    warn: (line) => {
      ctx.warn(line);
    },
  });
}

/** First Ctrl-C aborts the turn (keeping what arrived); a second quits at once with 130. */
function interruptHandler(ctx: Context, beforeExit: () => void): { signal: AbortSignal; dispose(): void } {
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

/**
 * With `conversation.title.generate.model` set, a new conversation's title is
 * written by that model once the first answer is in; when it cannot be, the
 * first question stays the title, and jp says why.
 */
async function titleByModel(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  query: string,
  turn: readonly Event[],
): Promise<void> {
  const model = config.conversation?.title?.generate?.model?.id;
  if (!model) return;
  const answer = turn.flatMap((e) =>
    isKind(e, "chat_response") && typeof e.message === "string" ? [e.message] : [],
  );
  try {
    const { generateTitle } = await import("../../llm/title.js");
    const title = await generateTitle(query, answer.join("\n"), model, config, ctx.env);
    if (!title) return;
    const store = ctx.store();
    store.updateMetadata(ref, (m) => ({ ...m, title: titleFrom(title) }));
    ctx.info(ctx.color.dim(`titled "${visible(titleFrom(title))}" by ${model}`));
  } catch (error) {
    ctx.warn(
      `${model} could not title the conversation (${error instanceof Error ? error.message : String(error)}); its first question is the title`,
    );
  }
}

/** A title from a question: its first line, at most 60 characters, cut at a word. */
export function titleFrom(query: string): string {
  const line = (query.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One dim line after the turn: what its requests cost, cached input included. */
function reportUsage(ctx: Context, events: readonly Event[], config: Config): void {
  const byModel = usageByModel(events);
  const total = sumUsage(Object.values(byModel));
  if (total.requests === 0) return;
  // The model is named: a conversation's recorded config may choose another than the user's, at another price.
  const models = Object.keys(byModel).join(", ");
  ctx.info(
    ctx.color.dim(
      `${models} · ${usageLine(
        total,
        estimateTotalCost(byModel, (model) => priceOf(model, config, ctx.env, ctx.clock.now())),
      )}`,
    ),
  );
}

/**
 * Once a week, the maintained price data is fetched by a process of its own,
 * detached, after the answer: no turn waits on the network for it, and a
 * failure only means the copy jp holds is used a day longer.
 */
async function refreshPricesInBackground(ctx: Context): Promise<void> {
  if (!priceDataStale(ctx.env, ctx.clock.now())) return;
  // Loaded only on the turn that starts it, once a week.
  const { spawn } = await import("node:child_process");
  try {
    spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/jp"), "__refresh-prices"], {
      detached: true,
      stdio: "ignore",
      env: ctx.env,
      cwd: os.tmpdir(),
    }).unref();
  } catch {
    // Not started (no process left to spawn): the next turn tries again.
  }
}

/** A stream that drops what is written to it. */
function discard(): Writable {
  return new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
}

/** A conversation that is never written: what `jp q -n --no-persist` talks in. */
function unsavedConversation(ctx: Context): ConversationRef {
  const id = idForTime(ctx.clock.now());
  return { id, folder: id, dir: "" };
}

/** How attachments' URLs are fetched: through the proxy the environment names, as provider requests go. */
function attachmentFetcher(ctx: Context) {
  return async (url: string, init: RequestInit) => {
    const { proxyFor } = await import("../../net/proxy.js");
    const proxy = proxyFor(url, ctx.env);
    if (!proxy) return fetch(url, init);
    const { fetchThrough } = await import("../../net/fetch-through.js");
    return fetchThrough(proxy)(url, init);
  };
}

/** What -a names, read. */
async function readAttachments(sources: readonly string[], ctx: Context): Promise<Attachment[]> {
  if (sources.length === 0) return [];
  const { readAttachments: read } = await import("../attachments.js");
  return read(sources, ctx.cwd, attachmentFetcher(ctx));
}

/** What `conversation.attachments` names, read anew for this question (relative to the workspace). */
async function readConfigAttachments(ctx: Context, config: Config): Promise<Attachment[]> {
  const entries = config.conversation?.attachments ?? [];
  if (entries.length === 0) return [];
  const { readConfigAttachments: read } = await import("../attachments.js");
  const root = ctx.maybeWorkspace()?.root ?? ctx.cwd;
  return read(entries, root, attachmentFetcher(ctx), (line) => {
    ctx.warn(line);
  });
}
