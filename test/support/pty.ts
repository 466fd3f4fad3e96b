// Runs a command in a real pseudo-terminal (util-linux `script`), so prompts,
// TTY detection and Ctrl-C behave as they do for a person at a terminal.
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";

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
  /** The pid of `script`, which holds the terminal's master side: killing it closes the terminal. */
  pid: number;
  /**
   * Change the terminal's size, as a person dragging its window does: the
   * program in it gets SIGWINCH. Resolves with the offset into the output
   * up to which it was written at the old size.
   */
  resize(columns: number, rows: number): number;
}

/** The pids of `root`'s descendants whose command line (arguments joined by spaces) passes `match`, from /proc. */
export function descendants(root: number, match: (cmdline: string) => boolean = () => true): number[] {
  const parents = new Map<number, number>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The parent is the 4th field, after the command name in parentheses (which may hold spaces).
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {
      // The process ended while the list was read.
    }
  }
  const found: number[] = [];
  const isBelow = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === root) return true;
    return false;
  };
  for (const pid of parents.keys()) {
    if (!isBelow(pid)) continue;
    try {
      if (match(fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " "))) found.push(pid);
    } catch {
      // Gone already.
    }
  }
  return found;
}

/** Whether a process is still running (a zombie counts as gone). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

export function runInPty(
  command: string[],
  options: {
    cwd: string;
    env: Record<string, string>;
    /** The terminal's size from the start; without it the terminal reports none (0 by 0). */
    size?: { columns: number; rows: number };
  },
): PtySession {
  const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  const sized = options.size
    ? `stty cols ${options.size.columns} rows ${options.size.rows}; exec ${quoted}`
    : quoted;
  const child = spawn("script", ["-qfec", sized, "/dev/null"], {
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
  const exit = new Promise<number>((resolve) =>
    child.on("close", (code) => {
      resolve(code ?? -1);
    }),
  );
  return {
    output: () => out,
    type: (keys) => child.stdin.write(keys),
    exit,
    pid: child.pid!,
    resize(columns, rows) {
      // The terminal's slave side, as the program under `script` holds it.
      const [program] = descendants(child.pid!);
      if (program === undefined) throw new Error("nothing runs in the terminal");
      const slave = fs.readlinkSync(`/proc/${program}/fd/0`);
      const at = out.length;
      spawnSync("stty", ["-F", slave, "cols", String(columns), "rows", String(rows)]);
      return at;
    },
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
