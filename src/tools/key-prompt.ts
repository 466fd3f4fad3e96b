// Owns the terminal prompts themselves, built on @inquirer/core (raw mode,
// Ctrl-C, resizing and cleanup handled in one place): a question answered by
// a single key, and a line of text. Loaded only when a question is asked.
import {
  AbortPromptError,
  createPrompt,
  ExitPromptError,
  isEnterKey,
  useEffect,
  useKeypress,
  useState,
} from "@inquirer/core";

interface KeyConfig {
  message: string;
  keys: readonly string[];
  /** Shown under the question on `?`. */
  help: string;
  /** The key Ctrl-D (end of input) stands for; without one it interrupts. */
  onEnd: string | undefined;
  /** The key Enter stands for (the question's default); without one Enter does nothing. */
  onEnter?: string | undefined;
}

/** What the prompt resolves to when the question is abandoned instead of answered. */
export const INTERRUPTED = Symbol("interrupted");

const keyPrompt = createPrompt<string | typeof INTERRUPTED, KeyConfig>((config, done) => {
  const [answer, setAnswer] = useState<string | undefined>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  // Ctrl-D on an empty line closes readline before any key handler runs; it means "no".
  useEffect((rl) => {
    const ended = () => {
      done(config.onEnd ?? INTERRUPTED);
    };
    rl.on("close", ended);
    return () => {
      rl.removeListener("close", ended);
    };
  }, []);
  useKeypress((key, rl) => {
    // Ctrl-C is the prompt library's to handle (it abandons the question): no "press one of" for it.
    if (key.ctrl && key.name === "c") return;
    // Keys are answers, never text: keep readline's line empty so Ctrl-D always ends it.
    const typed = rl.line;
    rl.clearLine(0);
    if (isEnterKey(key)) {
      if (config.onEnter === undefined) return;
      setAnswer(config.onEnter);
      done(config.onEnter);
      return;
    }
    const pressed = typed === "" ? key.name : typed.slice(-1);
    if (pressed === "?") {
      setNote(config.help);
    } else if (config.keys.includes(pressed)) {
      setAnswer(pressed);
      done(pressed);
    } else {
      setNote(`Press one of ${config.keys.join(", ")}.`);
    }
  });
  const line = `${config.message}${answer ?? ""}`;
  return answer === undefined && note !== undefined ? [line, note] : line;
});

const linePrompt = createPrompt<string | typeof INTERRUPTED, { message: string }>((config, done) => {
  const [value, setValue] = useState("");
  useEffect((rl) => {
    const ended = () => {
      done("");
    };
    rl.on("close", ended);
    return () => {
      rl.removeListener("close", ended);
    };
  }, []);
  useKeypress((key, rl) => {
    if (isEnterKey(key)) {
      done(value);
    } else {
      setValue(rl.line);
    }
  });
  return `${config.message}${value}`;
});

export interface PromptStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  /** Ends the prompt (as INTERRUPTED) when jp is asked to stop: SIGINT, SIGTERM, SIGHUP. */
  signal?: AbortSignal;
}

/** The prompt's answer, or INTERRUPTED when Ctrl-C (or a signal) abandoned it. */
async function orInterrupted<T>(answer: Promise<T>): Promise<T | typeof INTERRUPTED> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ExitPromptError || error instanceof AbortPromptError) return INTERRUPTED;
    throw error;
  }
}

/** Ask until one of `keys` is pressed; INTERRUPTED on Ctrl-C (and on Ctrl-D without `onEnd`). */
export function askKey(streams: PromptStreams, config: KeyConfig): Promise<string | typeof INTERRUPTED> {
  return orInterrupted(keyPrompt(config, streams));
}

/** A line of text; empty on Ctrl-D, INTERRUPTED on Ctrl-C. */
export function askLine(streams: PromptStreams, message: string): Promise<string | typeof INTERRUPTED> {
  return orInterrupted(linePrompt({ message }, streams));
}
