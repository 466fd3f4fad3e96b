// Owns the one context every command receives: where it runs, how it writes,
// and lazily built services (workspace, store). No module singletons.
import type { Writable } from "node:stream";
import { Chalk, type ChalkInstance } from "chalk";
import { ConversationStore, systemClock, type Clock } from "../store/conversations.js";
import { lockTimeoutFromEnv } from "../store/lock.js";
import { findWorkspace, type Workspace } from "../store/workspace.js";

export interface Context {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: Writable & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: Writable & { isTTY?: boolean };
  clock: Clock;
  /** Set by the global `--workspace` option. */
  workspaceOption?: string;
  color: ChalkInstance;
  workspace(): Workspace;
  store(): ConversationStore;
  /** Write a line (or lines) to stdout. */
  out(text: string): void;
  /** Write a warning to stderr. */
  warn(text: string): void;
  /** Write progress or status to stderr. */
  info(text: string): void;
}

export interface ContextOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  stdout?: Context["stdout"];
  stderr?: Context["stderr"];
  clock?: Clock;
}

export function colorEnabled(env: NodeJS.ProcessEnv, stream: { isTTY?: boolean }): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return stream.isTTY === true;
}

export function createContext(options: ContextOptions = {}): Context {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let workspace: Workspace | undefined;
  let store: ConversationStore | undefined;
  const ctx: Context = {
    cwd: options.cwd ?? process.cwd(),
    env,
    stdout,
    stderr,
    clock: options.clock ?? systemClock,
    color: new Chalk({ level: colorEnabled(env, stdout) ? 1 : 0 }),
    workspace() {
      workspace ??= findWorkspace({ explicit: ctx.workspaceOption, env, cwd: ctx.cwd });
      return workspace;
    },
    store() {
      store ??= new ConversationStore(ctx.workspace(), ctx.clock, {
        timeoutMs: lockTimeoutFromEnv(env),
        command: "jp",
        onWait: (holder) =>
          ctx.info(
            `waiting for the conversation lock held by ${holder ? `process ${holder.pid}` : "another process"}…`,
          ),
        onQuarantine: (bytes) => ctx.warn(`moved a torn last line (${bytes} bytes) to the quarantine file`),
      });
      return store;
    },
    out(text) {
      stdout.write(text.endsWith("\n") ? text : text + "\n");
    },
    warn(text) {
      stderr.write(`jp: warning: ${text}\n`);
    },
    info(text) {
      stderr.write(`${text}\n`);
    },
  };
  return ctx;
}
