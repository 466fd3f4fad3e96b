// Owns the terminal's view of a local tool while it runs: one line with its
// elapsed time and, under it, the last lines of its output as they come,
// redrawn in place in a bounded area and erased when the tool ends.
import type { Palette } from "./palette.js";
import { visible } from "./visible.js";

/** Lines of output shown under the elapsed time. */
export const TAIL_LINES = 5;
const TICK_MS = 1000;
/** A tool writing fast is redrawn at most this often. */
const REDRAW_MS = 100;

export interface ToolRunView {
  /** Output as the tool writes it (stdout and stderr alike). */
  output(chunk: string): void;
  /** The tool ended: the area is erased, and how long it took is said when it was long enough to show. */
  end(): void;
}

/** The last complete-or-growing lines of `text`, each as its last carriage-return rewrite shows it. */
function lastLines(text: string, count: number): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.slice(-count).map((l) => l.slice(l.lastIndexOf("\r") + 1));
}

function cut(line: string, width: number): string {
  const flat = visible(line.replace(/\t/g, "  "));
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/**
 * A running tool's area on `stderr`, a terminal. Nothing is drawn in its
 * first second, so a quick tool leaves the screen as it was.
 */
export function startToolRunView(
  name: string,
  stderr: NodeJS.WritableStream & { columns?: number },
  c: Palette,
  now: () => number = Date.now,
): ToolRunView {
  const started = now();
  let tail = "";
  let drawn = 0;
  let drawnAt = 0;
  const width = () => Math.max(20, (stderr.columns ?? 80) - 6);
  const erase = () => {
    // Up to the area's first line, then clear from there down.
    if (drawn > 0) stderr.write(`\x1b[${drawn}F\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    if (now() - started < TICK_MS) return;
    const lines = [
      `  ${c.dim(`⏱ ${elapsed(now() - started)} · ${cut(name, width())} is running (Ctrl-C stops it)`)}`,
      ...lastLines(tail, TAIL_LINES).map((l) => `  ${c.dim(`│ ${cut(l, width())}`)}`),
    ];
    erase();
    stderr.write(`${lines.join("\n")}\n`);
    drawn = lines.length;
    drawnAt = now();
  };
  const timer = setInterval(draw, TICK_MS);
  return {
    output(chunk) {
      // Only the tail is shown: keep what the last lines need, not the whole output.
      tail = (tail + chunk).slice(-4096);
      if (now() - drawnAt >= REDRAW_MS) draw();
    },
    end() {
      clearInterval(timer);
      erase();
      const took = now() - started;
      if (took >= TICK_MS) stderr.write(`  ${c.dim(`⏱ ${name} ran ${elapsed(took)}`)}\n`);
    },
  };
}
