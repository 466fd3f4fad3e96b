// Owns the terminal's view of a local tool while it runs: one line with its
// elapsed time and, under it, the last lines of its output as they come,
// redrawn in place in a bounded area and erased when the tool ends.
import stringWidth from "fast-string-width";
import type { Palette } from "./palette.js";
import { cutToWidth, visible } from "./visible.js";

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
  /**
   * The tool asks the person something: the area is erased and nothing is
   * drawn until the returned function is called, so the question stands alone.
   */
  hold(): () => void;
}

/** The last complete-or-growing lines of `text`, each as its last carriage-return rewrite shows it. */
function lastLines(text: string, count: number): string[] {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  return lines.slice(-count).map((l) => l.slice(l.lastIndexOf("\r") + 1));
}

/** `line` made visible and cut to `width` columns of the screen. */
function cut(line: string, width: number): string {
  return cutToWidth(visible(line.replace(/\t/g, "  ")), width);
}

/** The screen rows lines of these widths take on a terminal `columns` wide (one at least, when empty). */
function rowsOf(widths: readonly number[], columns: number): number {
  return widths.reduce((sum, w) => sum + Math.max(1, Math.ceil(w / columns)), 0);
}

function elapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/**
 * A running tool's area on `stderr`, a terminal. Nothing is drawn in its
 * first second, so a quick tool leaves the screen as it was. The area is
 * erased by the screen rows it takes, counted from each line's display width
 * at the terminal's width now: after a resize the terminal has reflowed the
 * lines, and the area is redrawn at the new width. When `signal` aborts
 * (Ctrl-C), the area is erased at once, before anything else is said.
 */
/** What the area needs of a terminal stream: writing, its width, and word of a resize. */
export interface TerminalStream {
  write(text: string): unknown;
  columns?: number;
  on(event: "resize", listener: () => void): unknown;
  off(event: "resize", listener: () => void): unknown;
}

export function startToolRunView(
  name: string,
  stderr: TerminalStream,
  c: Palette,
  options: { now?: () => number; signal?: AbortSignal } = {},
): ToolRunView {
  const now = options.now ?? Date.now;
  const started = now();
  let tail = "";
  /** The display width of each line drawn, in order. */
  let drawn: number[] = [];
  let drawnAt = 0;
  let stopped = false;
  /** Questions being asked now: while any is, nothing is drawn. */
  let held = 0;
  // A terminal that reports no size (0) is taken as 80 wide.
  const columns = () => Math.max(26, stderr.columns || 80);
  const width = () => columns() - 6;
  const erase = () => {
    // Up to the area's first row, then clear from there down.
    const rows = rowsOf(drawn, columns());
    if (rows > 0) stderr.write(`\x1b[${rows}F\x1b[J`);
    drawn = [];
  };
  const draw = () => {
    if (stopped || held > 0 || now() - started < TICK_MS) return;
    const lines = [
      `  ⏱ ${elapsed(now() - started)} · ${cut(name, width())} is running (Ctrl-C stops it)`,
      ...lastLines(tail, TAIL_LINES).map((l) => `  │ ${cut(l, width())}`),
    ];
    erase();
    stderr.write(`${lines.map((l) => c.dim(l)).join("\n")}\n`);
    drawn = lines.map((l) => stringWidth(l));
    drawnAt = now();
  };
  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    stderr.off("resize", draw);
    options.signal?.removeEventListener("abort", stop);
    erase();
  };
  const timer = setInterval(draw, TICK_MS);
  stderr.on("resize", draw);
  options.signal?.addEventListener("abort", stop, { once: true });
  return {
    output(chunk) {
      // Only the tail is shown: keep what the last lines need, not the whole output.
      tail = (tail + chunk).slice(-4096);
      if (now() - drawnAt >= REDRAW_MS) draw();
    },
    hold() {
      held++;
      erase();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held--;
      };
    },
    end() {
      stop();
      const took = now() - started;
      if (took >= TICK_MS) stderr.write(`  ${c.dim(`⏱ ${visible(name)} ran ${elapsed(took)}`)}\n`);
    },
  };
}
