// Owns which terminal session jp runs in, as JP finds it (RFD 020): each
// session keeps its own active conversation, and the workspace's is the
// fallback. `$JP_SESSION` first, then the process's session (its leader is
// the shell the terminal started), then a terminal's own per-tab variable.
import * as fs from "node:fs";
import { errnoCode } from "../errors.js";

/** Terminal variables that name one tab or pane (not a window, whose tabs share it). */
const TERMINAL_SESSION_VARS = ["TMUX_PANE", "WEZTERM_PANE", "TERM_SESSION_ID", "ITERM_SESSION_ID"];

/** The session id of this process from /proc (Linux); undefined where there is none. */
function processSession(): string | undefined {
  try {
    const stat = fs.readFileSync("/proc/self/stat", "utf8");
    // The command name may hold spaces and parentheses: fields count from the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // State, ppid, pgrp, session.
    const sid = Number(fields[3]);
    return Number.isInteger(sid) && sid > 0 ? `sid:${sid}` : undefined;
  } catch {
    return undefined;
  }
}

/** This terminal session's id, or undefined when none can be told (no terminal, no variable). */
export function terminalSession(env: NodeJS.ProcessEnv): string | undefined {
  const explicit = env.JP_SESSION?.trim();
  if (explicit) return `env:${explicit}`;
  const own = processSession();
  if (own) return own;
  for (const name of TERMINAL_SESSION_VARS) {
    const value = env[name]?.trim();
    if (value) return `${name}:${value}`;
  }
  return undefined;
}

/** Whether a session is surely over: a process session whose leader is gone. Others cannot be told. */
export function sessionEnded(session: string): boolean {
  const sid = /^sid:(\d+)$/.exec(session)?.[1];
  if (sid === undefined) return false;
  try {
    process.kill(Number(sid), 0);
    return false;
  } catch (error) {
    return errnoCode(error) === "ESRCH";
  }
}
