// Owns asking the person at the terminal: one-line answers on the TTY and
// editing text in $EDITOR. Commands get it through the context.
import * as fs from "node:fs";
import * as path from "node:path";
import { JpError, errnoCode } from "../errors.js";
import { privateTempDir } from "../store/private-temp.js";
import type { PromptStreams } from "./key-prompt.js";
import { removeFile } from "../remove-file.js";

/** Ctrl-C at a prompt: the question is abandoned and the turn ends as interrupted. */
export class PromptInterruptedError extends JpError {
  constructor() {
    super("turn.interrupted", "interrupted at the prompt", { exitCode: 130 });
  }
}

export interface ChooseOptions {
  /** Shown on `?`. */
  help: string;
  /** The answer Ctrl-D (end of input) gives; without one Ctrl-D interrupts like Ctrl-C. */
  onEnd?: string;
  /** The answer Enter gives (the question's default); without one Enter does nothing. */
  onEnter?: string;
}

export interface Prompter {
  /** Whether someone can answer (stdin and stderr are terminals). */
  interactive: boolean;
  /**
   * Ask until one of `keys` is pressed (a single key, no Enter; case counts);
   * returns it. Ctrl-C throws PromptInterruptedError.
   */
  choose(question: string, keys: readonly string[], options: ChooseOptions): Promise<string>;
  /** A line of text ended by Enter; Ctrl-D gives an empty answer, Ctrl-C throws PromptInterruptedError. */
  ask(question: string): Promise<string>;
  /**
   * Let the person edit `text` in $VISUAL/$EDITOR; returns the result, or
   * undefined when they cancelled: the editor exited with an error (`:cq`),
   * or the buffer was emptied, or (unless `keepUnchanged`) left unchanged.
   */
  editText(text: string, suffix: string, options?: { keepUnchanged?: boolean }): Promise<string | undefined>;
  say(text: string): void;
}

/** The editor to run and its arguments: $VISUAL, else $EDITOR, else vi (a blank one counts as unset). */
export function editorCommand(env: NodeJS.ProcessEnv): { program: string; args: string[] } {
  const words = (name: string) => (env[name] ?? "").split(/\s+/).filter(Boolean);
  const [program = "vi", ...args] = [words("VISUAL"), words("EDITOR")].find((w) => w.length > 0) ?? [];
  return { program, args };
}

/** Whether this process has a controlling terminal to ask on (`/dev/tty` opens). */
function terminalAvailable(): boolean {
  try {
    fs.closeSync(fs.openSync("/dev/tty", "r"));
    return true;
  } catch {
    return false;
  }
}

export function createTerminalPrompter(options: {
  /** stdin, made only when a question is asked on it (process.stdin costs a command some 5 ms to make). */
  stdin: () => NodeJS.ReadableStream;
  stdinIsTTY: boolean;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  /** Makes text from outside jp (a model's arguments, a preview's excerpts) safe to print. */
  safe: (text: string) => string;
  /** A signal to stop (SIGTERM, SIGHUP, Ctrl-C) ends a question being asked. */
  signal?: AbortSignal;
}): Prompter {
  // With stdin piped (`git diff | jp q "review this"`) the person still sits at the
  // terminal: questions are read from it (/dev/tty), opened only while one is asked.
  const fromTerminal = !options.stdinIsTTY && options.stderr.isTTY === true && terminalAvailable();
  const interactive = options.stderr.isTTY === true && (options.stdinIsTTY || fromTerminal);
  const withStreams = async <T>(ask: (streams: PromptStreams) => Promise<T>): Promise<T> => {
    const signal = options.signal ? { signal: options.signal } : {};
    if (!fromTerminal) return ask({ input: options.stdin(), output: options.stderr, ...signal });
    const tty = await import("node:tty");
    const input = new tty.ReadStream(fs.openSync("/dev/tty", "r"));
    try {
      return await ask({ input, output: options.stderr, ...signal });
    } finally {
      input.destroy();
    }
  };
  return {
    interactive,
    say: (text) => options.stderr.write(options.safe(text.endsWith("\n") ? text : `${text}\n`)),
    async choose(question, keys, choose) {
      const { askKey } = await import("./key-prompt.js");
      const answer = await withStreams((streams) =>
        askKey(streams, {
          message: question,
          keys,
          help: choose.help,
          onEnd: choose.onEnd,
          onEnter: choose.onEnter,
        }),
      );
      if (typeof answer !== "string") throw new PromptInterruptedError();
      return answer;
    },
    async ask(question) {
      const { askLine } = await import("./key-prompt.js");
      const answer = await withStreams((streams) => askLine(streams, question));
      if (typeof answer !== "string") throw new PromptInterruptedError();
      return answer.trim();
    },
    async editText(text, suffix, editOptions = {}) {
      const { execa } = await import("execa");
      const file = path.join(privateTempDir(), `edit-${process.pid}-${Date.now()}${suffix}`);
      fs.writeFileSync(file, text, { mode: 0o600 });
      try {
        const { program, args } = editorCommand(options.env);
        // The editor needs the terminal as its input too, not the pipe stdin was.
        const result = await execa(program, [...args, file], {
          ...(fromTerminal
            ? { stdin: { file: "/dev/tty" }, stdout: "inherit", stderr: "inherit" }
            : { stdio: "inherit" }),
          env: options.env,
          reject: false,
        });
        if (errnoCode(result.cause) === "ENOENT")
          throw new JpError("editor.not_found", `the editor '${program}' was not found`, {
            hint: "set $VISUAL or $EDITOR to an editor on your PATH",
            exitCode: 2,
          });
        // An editor that exits with an error (vi's :cq) is how a person says "never mind".
        if (result.failed) return undefined;
        const edited = fs.readFileSync(file, "utf8");
        if (edited.trim() === "") return undefined;
        return edited === text && !editOptions.keepUnchanged ? undefined : edited;
      } finally {
        removeFile(file);
      }
    },
  };
}

/**
 * `prompter`, calling `hold` before each question and the release it returns
 * once the question is answered (or abandoned): what a running tool shows is
 * held still meanwhile, so nothing is drawn over the question.
 */
export function holdingWhileAsked(prompter: Prompter, hold: () => () => void): Prompter {
  const held = async <T>(ask: () => Promise<T>): Promise<T> => {
    const release = hold();
    try {
      return await ask();
    } finally {
      release();
    }
  };
  return {
    interactive: prompter.interactive,
    say: (text) => {
      prompter.say(text);
    },
    choose: (question, keys, options) => held(() => prompter.choose(question, keys, options)),
    ask: (question) => held(() => prompter.ask(question)),
    editText: (text, suffix, options) => held(() => prompter.editText(text, suffix, options)),
  };
}
