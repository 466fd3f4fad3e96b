// Owns asking the person at the terminal: one-line answers on the TTY and
// editing text in $EDITOR. Commands get it through the context.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createInterface } from "node:readline/promises";
import { JpError } from "../errors.js";

/** Ctrl-C at a prompt: the question is abandoned and the turn ends as interrupted. */
export class PromptInterruptedError extends JpError {
  constructor() {
    super("turn.interrupted", "interrupted at the prompt", { exitCode: 130 });
  }
}

export interface Prompter {
  /** Whether someone can answer (stdin and stderr are terminals). */
  interactive: boolean;
  /** Ask until one of `keys` is typed; returns it. */
  choose(question: string, keys: readonly string[]): Promise<string>;
  /** Let the person edit `text` in $VISUAL/$EDITOR; returns the result. */
  editText(text: string, suffix: string): Promise<string>;
  say(text: string): void;
}

/** A private folder for jp's temporary files, readable only by this user. */
export function privateTempDir(): string {
  const dir = path.join(os.tmpdir(), `jp-${os.userInfo().uid}`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  return dir;
}

export function editorCommand(env: NodeJS.ProcessEnv): string[] {
  const editor = env.VISUAL || env.EDITOR || "vi";
  return editor.split(/\s+/).filter(Boolean);
}

export function createTerminalPrompter(options: {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}): Prompter {
  const interactive = options.stdin.isTTY === true && options.stderr.isTTY === true;
  return {
    interactive,
    say: (text) => options.stderr.write(text.endsWith("\n") ? text : `${text}\n`),
    async choose(question, keys) {
      const rl = createInterface({ input: options.stdin, output: options.stderr, terminal: true });
      // In raw mode Ctrl-C reaches readline, not the process; it ends the question as an interruption.
      const interrupted = new Promise<never>((_, reject) =>
        rl.once("SIGINT", () => reject(new PromptInterruptedError())),
      );
      try {
        for (;;) {
          const answer = (await Promise.race([rl.question(question), interrupted])).trim().toLowerCase();
          if (keys.includes(answer)) return answer;
          options.stderr.write(`Please answer one of ${keys.join(", ")}.\n`);
        }
      } finally {
        rl.close();
      }
    },
    async editText(text, suffix) {
      const { execa } = await import("execa");
      const file = path.join(privateTempDir(), `edit-${process.pid}-${Date.now()}${suffix}`);
      fs.writeFileSync(file, text, { mode: 0o600 });
      try {
        const [program, ...args] = editorCommand(options.env);
        await execa(program!, [...args, file], { stdio: "inherit", env: options.env });
        return fs.readFileSync(file, "utf8");
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
  };
}
