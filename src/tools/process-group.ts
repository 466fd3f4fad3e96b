// Owns tying a child's process group to jp: programs jp starts run in a
// group of their own, so the terminal's Ctrl-C reaches jp (which decides what
// ends) and not them directly; so jp must end them itself, and a watchdog
// ends them if jp dies first (SIGKILL, a crash), since nothing else would.
// When the child itself ends, what it left in its group is ended as well.
import type { spawn as Spawn } from "node:child_process";

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
  const end = () => {
    endGroup(pid);
  };
  signal?.addEventListener("abort", end, { once: true });
  process.on("exit", end);
  // Once jp is gone: TERM to the group, and KILL to whatever still runs after the grace period.
  const polls = Math.ceil(WATCHDOG_GRACE_MS / 500);
  const watchdog = spawn(
    "sh",
    [
      "-c",
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 0.5; done; kill -TERM -${pid} 2>/dev/null || exit 0; ` +
        `i=0; while [ $i -lt ${polls} ] && kill -0 -${pid} 2>/dev/null; do sleep 0.5; i=$((i+1)); done; ` +
        `kill -KILL -${pid} 2>/dev/null`,
    ],
    { detached: true, stdio: "ignore" },
  );
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
      if (!groupAlive(pid)) return;
      endGroup(pid);
      const kill = () => {
        endGroup(pid, "SIGKILL");
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
