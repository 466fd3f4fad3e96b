// Owns tying a child's process group to jp: programs jp starts run in a
// group of their own, so the terminal's Ctrl-C reaches jp (which decides what
// ends) and not them directly; so jp must end them itself, and a watchdog
// ends them if jp dies first (SIGKILL, a crash), since nothing else would.
// When the child itself ends, what it left in its group is ended as well.
import type { spawn as Spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** How long the watchdog lets a group that was sent SIGTERM take to end before it sends SIGKILL. */
export const WATCHDOG_GRACE_MS = 3000;

/** Ends the process group of `pid`; quiet when it is gone. */
export function endGroup(pid: number, signal: NodeJS.Signals = "SIGTERM"): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * When the process `pid` started (clock ticks after boot, /proc/PID/stat's
 * 22nd field), or undefined where there is no /proc: with it, a later
 * process that got the same pid is told apart from jp's child.
 */
export function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The fields after the command name (in parentheses, which may hold spaces) start at the 3rd.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether a process `pid` runs now that is not the one that started at `start` (its pid was reused). */
function reused(pid: number, start: string | undefined): boolean {
  if (start === undefined) return false;
  const now = startTime(pid);
  return now !== undefined && now !== start;
}

/**
 * The watchdog's script: once `jpPid` is gone, TERM to the group of `pid`,
 * then KILL to what still runs after the grace period. While a process holds
 * the pid, the group is signalled only if it is the one that started at
 * `start`: once jp's child has ended and its group emptied, the pid may be
 * another program's (a group whose members remain keeps its id, so that
 * group is still jp's).
 */
export function watchdogScript(jpPid: number, pid: number, start: string | undefined): string {
  const polls = Math.ceil(WATCHDOG_GRACE_MS / 500);
  const mine =
    start === undefined
      ? "true"
      : `{ [ ! -r /proc/${pid}/stat ] || [ "$(sed 's/.*) //' /proc/${pid}/stat | cut -d' ' -f20)" = "${start}" ]; }`;
  return (
    `while kill -0 ${jpPid} 2>/dev/null; do sleep 0.5; done; ${mine} || exit 0; kill -TERM -${pid} 2>/dev/null || exit 0; ` +
    `i=0; while [ $i -lt ${polls} ] && kill -0 -${pid} 2>/dev/null; do sleep 0.5; i=$((i+1)); done; ` +
    `${mine} && kill -KILL -${pid} 2>/dev/null`
  );
}

/** Whether any process of the group of `pid` still runs. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends the group of `pid` when `signal` aborts (Ctrl-C, SIGTERM, a closed
 * terminal), and when jp exits or dies; `dispose` once the child has ended.
 */
export function endedWithJp(
  pid: number | undefined,
  signal: AbortSignal | undefined,
  spawn: typeof Spawn,
): { dispose(): void } {
  if (pid === undefined) return { dispose() {} };
  const start = startTime(pid);
  const end = () => {
    if (!reused(pid, start)) endGroup(pid);
  };
  signal?.addEventListener("abort", end, { once: true });
  process.on("exit", end);
  // Once jp is gone: TERM to the group, and KILL to whatever still runs after the grace period.
  const watchdog = spawn("sh", ["-c", watchdogScript(process.pid, pid, start)], {
    detached: true,
    stdio: "ignore",
  });
  watchdog.on("error", () => {
    // No sh: the child still runs, only without the watchdog.
  });
  watchdog.unref();
  return {
    // The child ended; what it left in its group (a daemon, a stubborn grandchild) is ended too:
    // TERM now, KILL after the grace period, or at once when jp exits first.
    dispose() {
      signal?.removeEventListener("abort", end);
      process.off("exit", end);
      watchdog.kill("SIGKILL");
      if (!groupAlive(pid) || reused(pid, start)) return;
      endGroup(pid);
      // By then the group may have emptied and its id gone to another program: signalled only while it is jp's.
      const kill = () => {
        if (!reused(pid, start)) endGroup(pid, "SIGKILL");
      };
      const timer = setTimeout(() => {
        process.off("exit", kill);
        kill();
      }, WATCHDOG_GRACE_MS);
      timer.unref();
      process.once("exit", kill);
    },
  };
}
