// Owns the one context every command receives: where it runs, how it writes,
// and lazily built services (workspace, store). No module singletons.
import * as fs from "node:fs";
import type { Writable } from "node:stream";
import { errnoCode, type ExitCode } from "../errors.js";
import { createPalette, type Palette } from "../render/palette.js";
import { systemClock, type Clock } from "../store/clock.js";
import type { ConversationStore } from "../store/conversations.js";
import type * as StoreRuntime from "./store-runtime.js";
import { warningsToSay } from "./said-warnings.js";
import { terminalSession } from "../store/session.js";
import { findWorkspace, type Workspace } from "../store/workspace.js";
import { megabytes, progressLine } from "../render/progress.js";
import { visible } from "../render/visible.js";
import type { ConversationRef } from "../store/conversations.js";
import type { LoadOptions, ResolvedConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import type { TokenCounter } from "../tokens/count.js";
import type { Summarizer, SummarizeRequest, Summary } from "../llm/summarize.js";
import { grouped } from "../numbers.js";
import { isTrusted } from "../trusted-workspaces.js";
import { heldBack } from "../config/workspace-trust.js";

export interface Context {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Whether stdin is a terminal, told without making process.stdin (a stream that costs a command some 5 ms). */
  stdinIsTTY(): Promise<boolean>;
  /** All of stdin: a file (or /dev/null) read at once, without making process.stdin; a pipe to its end. */
  readStdin(): Promise<string>;
  clock: Clock;
  /** Set by the global `--workspace` option. */
  workspaceOption?: string;
  /** Values of the global `-c/--cfg` option, in order. */
  cfg: string[];
  /** The exit code of a command that finished without an error but must not report success. */
  exitCode: ExitCode;
  /**
   * Aborted when stdout or stderr can no longer be written (the terminal was
   * closed: EIO; the reader of a pipe left: EPIPE). Output is dropped from
   * then on instead of crashing the process; a turn ends as on SIGHUP.
   */
  outputGone: AbortSignal;
  color: Palette;
  workspace(): Workspace;
  /**
   * Load what commands need before they run (the store, and with it the event
   * schemas): done once, before any action, so that `--help` and commander's
   * own errors load neither.
   */
  prepare(): Promise<void>;
  /** The conversation store; `prepare` has run by the time any command asks. */
  store(): ConversationStore;
  /** The workspace, or undefined when there is none (config still loads). */
  maybeWorkspace(): Workspace | undefined;
  /**
   * Resolved configuration, with the conversation's config deltas when one is
   * given. Asynchronous because the schema and TOML parser load on first use:
   * commands that never read config (ls, --help) do not pay for them.
   */
  config(options?: {
    conversation?: ConversationRef;
    flags?: LoadOptions["flags"];
    /** Ask at the terminal whether the workspace is trusted, when its files or conversation were held back. */
    askTrust?: boolean;
    /**
     * Say none of the configuration's lines (completion: what it writes to
     * stderr is thrown away, and a line said there would count as heard).
     */
    silent?: boolean;
  }): Promise<ResolvedConfig>;
  tokenCounter(config: Config): Promise<TokenCounter>;
  summarizer: Summarizer;
  /** A new short id for a compaction. */
  newId: () => string;
  /** Write a line (or lines) to stdout. */
  out(text: string): void;
  /** Write a warning to stderr. */
  warn(text: string): void;
  /** Write progress or status to stderr. */
  info(text: string): void;
  /**
   * Show what long work is doing, on one line of a terminal (nothing
   * elsewhere); the returned function clears it. Other output clears it first.
   */
  status(text: string): () => void;
}

export interface ContextOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stdout?: Context["stdout"];
  stderr?: Context["stderr"];
  stdin?: Context["stdin"];
  clock?: Clock;
}

export function colorEnabled(env: NodeJS.ProcessEnv, stream: { isTTY?: boolean }): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

/** Aborted when the terminal or pipe behind the streams goes away (a closed terminal, a reader that quit). */
function outputGone(streams: readonly NodeJS.WritableStream[]): AbortSignal {
  const gone = new AbortController();
  for (const stream of streams) {
    // An 'error' nobody listens to kills the process; a closed terminal must end the turn gently.
    stream.on("error", (error: unknown) => {
      if (["EIO", "EPIPE", "ECONNRESET", "ENXIO"].includes(errnoCode(error) ?? "")) gone.abort();
    });
  }
  return gone.signal;
}

/** A summary by the configured model, shown (model, time, tokens, text) as it is written. */
async function summarizeShowing(ctx: Context, request: SummarizeRequest): Promise<Summary> {
  const { createSummarizer } = await import("./runtime.js");
  const { config } = await ctx.config();
  const started = ctx.clock.now().getTime();
  ctx.info(ctx.color.dim(`summarizing ${request.events.length} events with ${request.model}…`));
  const result = await createSummarizer(config, ctx.env, (text) => {
    ctx.info(ctx.color.dim(text));
  }).summarize(request);
  const seconds = ((ctx.clock.now().getTime() - started) / 1000).toFixed(1);
  const used = result.usage
    ? ` (in ${grouped(result.usage.input_tokens ?? 0)} · out ${grouped(result.usage.output_tokens ?? 0)} tokens)`
    : "";
  // What will stand in for the turns, shown before anything else is said of them.
  ctx.info(ctx.color.dim(`summary written in ${seconds}s by ${result.model}${used}:`));
  ctx.info(
    visible(result.text)
      .split("\n")
      .map((line) => ctx.color.dim(`  │ ${line}`))
      .join("\n"),
  );
  return result;
}

/** The terminal session the store keeps an active conversation for, when one can be told. */
function sessionOption(env: NodeJS.ProcessEnv): { session?: string } {
  const session = terminalSession(env);
  return session === undefined ? {} : { session };
}

/** The conversation store of the context's workspace, telling the person what it waits for and repairs. */
function openStore(ctx: Context, runtime: typeof StoreRuntime): ConversationStore {
  return new runtime.ConversationStore(ctx.workspace(), ctx.clock, {
    timeoutMs: runtime.lockTimeoutFromEnv(ctx.env),
    command: "jp",
    ...sessionOption(ctx.env),
    onWait: (holder) => {
      ctx.info(
        `waiting for the conversation lock held by ${holder ? `process ${holder.pid}` : "another process"}…`,
      );
    },
    onQuarantine: (bytes) => {
      ctx.warn(`moved a torn last line (${bytes} bytes) to the quarantine file`);
    },
    onContinueJp: (ref) => {
      ctx.info(
        `conversation ${ref.id} is JP's: jp continues it in its own log (events.jsonl) beside JP's files, which stay as they are`,
      );
    },
    onJpChanged: (ref) => {
      ctx.warn(
        `JP's events.json of conversation ${ref.id} changed after jp began its own log beside it; jp reads its own log, which lacks what JP added since (\`jp conversation import\` reads JP's as it is now, as a new conversation)`,
      );
    },
    onBrokenState: (file) => {
      ctx.warn(
        `${file} cannot be read; going on with no active conversation (jp conversation doctor resets it)`,
      );
    },
    onReadProgress: progressLine(
      ctx.stderr,
      (done, total) => `reading the conversation… ${megabytes(done)} of ${megabytes(total)}`,
    ),
  });
}

const saidLines = new WeakMap<Context, Set<string>>();

/** The configuration for a command: every layer, a conversation's recorded deltas included; clamped values warned of. */
async function configFor(ctx: Context, options: Parameters<Context["config"]>[0] = {}) {
  const { loadConfig } = await import("./runtime.js");
  const deltas = options.conversation
    ? ctx
        .store()
        .readEvents(options.conversation)
        .flatMap((e) => (e.type === "config_delta" ? [e.delta] : []))
    : undefined;
  const root = ctx.maybeWorkspace()?.root;
  const load = () =>
    loadConfig({
      cwd: ctx.cwd,
      env: ctx.env,
      workspaceDir: ctx.maybeWorkspace()?.dir,
      deltas,
      cfg: ctx.cfg,
      flags: options.flags,
      ...(root ? { trusted: (powers: readonly string[]) => isTrusted(root, powers, ctx.env) } : {}),
    });
  let resolved = await load();
  if (options.silent) return resolved;
  if (!heldBack(resolved.trust)) return sayConfigLines(ctx, resolved);
  const { askTrust, untrustedLine } = await import("./workspace-trust.js");
  if (options.askTrust && (await askTrust(ctx, resolved.trust))) resolved = await load();
  // A conversation's withheld config matters where a question is asked; reading it (print, grep, a dry run) needs no line.
  else if (!untrustedSaid.has(ctx) && (options.askTrust || resolved.trust.powers.length > 0)) {
    untrustedSaid.add(ctx);
    ctx.warn(untrustedLine(resolved.trust));
  }
  return sayConfigLines(ctx, resolved);
}

const untrustedSaid = new WeakSet<Context>();

/** The lines a configuration has for the user (settings left out or clamped), each said once. */
function sayConfigLines(ctx: Context, resolved: ResolvedConfig): ResolvedConfig {
  // A command may read the configuration more than once (jp q: with and without -m): each line is said once,
  // and only when this workspace has not heard it before (config show lists them all).
  const said = saidLines.get(ctx) ?? new Set<string>();
  saidLines.set(ctx, said);
  const lines = [...resolved.ignored, ...resolved.clamped].filter((line) => !said.has(line));
  for (const line of lines) said.add(line);
  if (lines.length === 0) return resolved;
  for (const line of warningsToSay(ctx.env, ctx.maybeWorkspace()?.root, lines)) ctx.warn(line);
  return resolved;
}

/** The token counter the configuration asks for, for its model. */
async function counterFor(config: Config) {
  const { createTokenCounter } = await import("./runtime.js");
  return createTokenCounter(
    config.assistant?.model?.id ?? "",
    config.assistant?.tokens?.estimate ?? "tokenizer",
  );
}

/** Whether `fd` is a file or a device other than a terminal (/dev/null): read whole, it never waits on a writer. */
function readsAtOnce(fd: number): boolean {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFile() || stat.isCharacterDevice();
  } catch {
    return false;
  }
}

/** A line of progress on a terminal's stderr, cleared before anything else is said. */
function statusLine(stderr: Context["stderr"]) {
  let shown = false;
  const clear = () => {
    if (shown) stderr.write("\r\x1b[K");
    shown = false;
  };
  const show = (text: string) => {
    if (!stderr.isTTY) return () => undefined;
    stderr.write(`\r\x1b[K${text}`);
    shown = true;
    return clear;
  };
  return { clear, show };
}

export function createContext(options: ContextOptions = {}): Context {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const { clear: clearStatus, show: showStatus } = statusLine(stderr);
  let workspace: Workspace | undefined;
  let store: ConversationStore | undefined;
  let storeRuntime: typeof StoreRuntime | undefined;
  const ctx: Context = {
    cwd: options.cwd ?? process.cwd(),
    env,
    stdout,
    stderr,
    outputGone: outputGone([stdout, stderr]),
    // process.stdin builds its stream on first use: only commands that read it pay for that.
    get stdin() {
      return options.stdin ?? process.stdin;
    },
    async stdinIsTTY() {
      if (options.stdin) return options.stdin.isTTY === true;
      const { isatty } = await import("node:tty");
      return isatty(0);
    },
    async readStdin() {
      if (!options.stdin && readsAtOnce(0)) return fs.readFileSync(0, "utf8");
      let text = "";
      for await (const chunk of ctx.stdin) text += String(chunk);
      return text;
    },
    clock: options.clock ?? systemClock,
    cfg: [],
    exitCode: 0,
    summarizer: { summarize: (request) => summarizeShowing(ctx, request) },
    // The Web Crypto global loads Node's crypto modules on first use, not with every command.
    newId: () => `k${Buffer.from(crypto.getRandomValues(new Uint8Array(4))).toString("hex")}`,
    color: createPalette(colorEnabled(env, stdout)),
    workspace() {
      workspace ??= findWorkspace({ explicit: ctx.workspaceOption, env, cwd: ctx.cwd });
      return workspace;
    },
    maybeWorkspace() {
      try {
        return ctx.workspace();
      } catch {
        return undefined;
      }
    },
    config: (configOptions = {}) => configFor(ctx, configOptions),
    tokenCounter: (config) => counterFor(config),
    async prepare() {
      storeRuntime ??= await import("./store-runtime.js");
    },
    store() {
      if (!storeRuntime) throw new Error("the store was asked for before ctx.prepare()");
      store ??= openStore(ctx, storeRuntime);
      return store;
    },
    out(text) {
      stdout.write(text.endsWith("\n") ? text : text + "\n");
    },
    warn(text) {
      clearStatus();
      stderr.write(`jp: warning: ${text}\n`);
    },
    info(text) {
      clearStatus();
      stderr.write(`${text}\n`);
    },
    status: showStatus,
  };
  return ctx;
}
