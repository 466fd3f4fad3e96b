// Runs a command in a real pseudo-terminal (util-linux `script`), so prompts,
// TTY detection and Ctrl-C behave as they do for a person at a terminal.
import { spawn, spawnSync } from "node:child_process";

/** Whether util-linux `script` is here; without it the terminal tests skip, saying why. */
export const PTY_AVAILABLE = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;
if (!PTY_AVAILABLE)
  console.warn("pseudo-terminal tests skipped: util-linux `script` is not installed (apt install bsdutils)");

export interface PtySession {
  /** Everything the terminal showed so far. */
  output(): string;
  /** Resolves once the output contains `text` (after `from`, an offset into the output). */
  waitFor(text: string | RegExp, from?: number, timeoutMs?: number): Promise<number>;
  type(keys: string): void;
  exit: Promise<number>;
}

export function runInPty(
  command: string[],
  options: { cwd: string; env: Record<string, string> },
): PtySession {
  const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const child = spawn("script", ["-qfec", quoted, "/dev/null"], {
    cwd: options.cwd,
    env: { TERM: "xterm", COLUMNS: "120", LINES: "40", ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let out = "";
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d.toString();
    for (const l of listeners) l();
  };
  child.stdout.on("data", onData);
  child.stderr.on("data", onData);
  const exit = new Promise<number>((resolve) => child.on("close", (code) => resolve(code ?? -1)));
  return {
    output: () => out,
    type: (keys) => child.stdin.write(keys),
    exit,
    waitFor(text, from = 0, timeoutMs = 20_000) {
      const find = () => {
        const rest = out.slice(from);
        const at = typeof text === "string" ? rest.indexOf(text) : rest.search(text);
        return at === -1 ? -1 : from + at;
      };
      return new Promise((resolve, reject) => {
        const check = () => {
          const at = find();
          if (at !== -1) {
            listeners.delete(check);
            clearTimeout(timer);
            resolve(at + 1);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`timed out waiting for ${String(text)}; the terminal showed:\n${out}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
  };
}
