// Owns showing a turn as it happens: text as it arrives, reasoning dimmed or
// hidden, a spinner while waiting for the first token, tool calls and retries.
import { startToolRunView } from "./tool-run.js";
import { cutToWidth, visible } from "./visible.js";
import type { Palette } from "./palette.js";
import type { ToolCallRequest } from "../events/index.js";
import type { ProviderError } from "../llm/errors.js";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface StreamRendererOptions {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  color: Palette;
  reasoning: "dim" | "hidden";
  /** Tool calls, their progress and results shown (the default), or not. */
  toolCalls?: "shown" | "hidden";
  /** The answer drawn as markdown (render/markdown.ts, on a terminal); raw text without. */
  markdown?: { write(delta: string): void; end(): void };
  /**
   * The turn's: once it aborts (Ctrl-C), what arrived is drawn at once, ahead
   * of the notice the interrupt writes, and text or reasoning still in flight
   * is not drawn after it (the log keeps it).
   */
  signal?: AbortSignal;
}

/** The gutter of reasoning lines: they read as reasoning without color too (NO_COLOR). */
const REASONING_GUTTER = "┊ ";

/** `text` on one line, at most `columns` wide on the screen. */
function oneLine(text: string, columns = 160): string {
  return cutToWidth(text.replace(/\s+/g, " ").trim(), columns);
}

/** The spinner on a terminal's stderr while the model has sent nothing yet. */
function waitingSpinner(options: StreamRendererOptions) {
  let spinner: NodeJS.Timeout | undefined;
  let frame = 0;
  return {
    start: () => {
      if (!options.stderr.isTTY || spinner) return;
      spinner = setInterval(
        () =>
          options.stderr.write(
            `\r${options.color.dim(`${FRAMES[frame++ % FRAMES.length]} waiting for the model…`)}`,
          ),
        80,
      );
    },
    stop: () => {
      if (!spinner) return;
      clearInterval(spinner);
      spinner = undefined;
      options.stderr.write("\r\x1b[K");
    },
  };
}

/**
 * Where reasoning is shown: with the answer on a terminal; when stdout is a
 * file or a pipe it holds the answer alone, and reasoning goes to stderr if
 * that is a terminal.
 */
function reasoningStream(options: StreamRendererOptions): NodeJS.WritableStream | undefined {
  if (options.reasoning === "hidden") return undefined;
  if (options.stdout.isTTY) return options.stdout;
  return options.stderr.isTTY ? options.stderr : undefined;
}

/** The tool calls of a turn on stderr: each call, its run, its progress and its result. `settle` ends what streams before. */
function toolViews(options: StreamRendererOptions, settle: () => void) {
  const c = options.color;
  const shown = options.toolCalls !== "hidden";
  return {
    toolCall(call: ToolCallRequest, brief?: boolean) {
      settle();
      if (!shown) return;
      const args = brief ? "" : ` ${c.dim(oneLine(JSON.stringify(call.arguments)))}`;
      options.stderr.write(`${c.yellow("⚙")} ${c.bold(visible(call.name))}${args}\n`);
    },
    toolRunning(call: ToolCallRequest, signal: AbortSignal) {
      if (!options.stderr.isTTY || !shown) return undefined;
      settle();
      return startToolRunView(call.name, options.stderr, c, { signal });
    },
    toolProgress(_call: ToolCallRequest, line: string) {
      if (!shown) return;
      options.stderr.write(`  ${c.dim(`… ${visible(oneLine(line, 120))}`)}\n`);
    },
    toolResult(_call: ToolCallRequest, content: string, isError: boolean) {
      if (!shown) return;
      options.stderr.write(
        `  ${isError ? c.red("✗") : c.green("✓")} ${c.dim(visible(oneLine(content, 120)))}\n`,
      );
    },
  };
}

/**
 * The terminal's view of a turn as it happens: a `TurnOutput` (turn/output.ts)
 * by shape, which cli/ hands to the turn loop.
 */
export function createStreamRenderer(options: StreamRendererOptions) {
  const c = options.color;
  const spinner = waitingSpinner(options);
  const stopSpinner = spinner.stop;
  let mode: "none" | "text" | "reasoning" = "none";
  const reasoningOut = reasoningStream(options);
  const lineBreak = () => {
    // Markdown ends each line it draws; raw text needs its line ended.
    if (mode === "text") {
      if (options.markdown) options.markdown.end();
      else options.stdout.write("\n");
    }
    if (mode === "reasoning") reasoningOut?.write("\n");
    mode = "none";
  };
  let stopped = false;
  options.signal?.addEventListener(
    "abort",
    () => {
      stopSpinner();
      lineBreak();
      stopped = true;
    },
    { once: true },
  );
  return {
    waiting: spinner.start,
    text(delta: string) {
      if (stopped) return;
      stopSpinner();
      if (mode === "reasoning") {
        reasoningOut?.write("\n");
        if (reasoningOut === options.stdout) options.stdout.write("\n");
      }
      mode = "text";
      if (options.markdown) options.markdown.write(delta);
      else options.stdout.write(visible(delta));
    },
    reasoning(delta: string) {
      if (stopped) return;
      stopSpinner();
      if (!reasoningOut) return;
      if (mode !== "reasoning") {
        if (mode === "text") {
          options.markdown?.end();
          options.stdout.write(options.markdown ? "\n" : "\n\n");
        }
        // Labelled, not only dimmed: with NO_COLOR it must still not read as the answer.
        reasoningOut.write(`${c.dim(c.italic(`${REASONING_GUTTER}reasoning`))}\n${c.dim(REASONING_GUTTER)}`);
      }
      mode = "reasoning";
      reasoningOut.write(c.dim(visible(delta).replace(/\n/g, `\n${REASONING_GUTTER}`)));
    },
    restart() {
      lineBreak();
      options.stderr.write(c.yellow("(the response was cut off; starting it again)\n"));
    },
    retry(error: ProviderError, attempt: number, delayMs: number) {
      stopSpinner();
      lineBreak();
      options.stderr.write(
        c.yellow(`${visible(error.message)}; retry ${attempt} in ${(delayMs / 1000).toFixed(1)}s\n`),
      );
    },
    ...toolViews(options, () => {
      stopSpinner();
      lineBreak();
    }),
    responseDone() {
      stopSpinner();
      lineBreak();
    },
    notice(text: string) {
      lineBreak();
      options.stderr.write(`${c.yellow(`jp: ${visible(text)}`)}\n`);
    },
  };
}
