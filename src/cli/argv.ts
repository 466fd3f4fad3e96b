// Owns flags whose value is optional and must be attached with `=`
// (`--reset=2`, `--first=3`, `-t=omit`), so that a bare flag followed by a
// conversation id still leaves the id alone. Commander cannot express this, so
// such values are moved to a hidden option before parsing.

export interface OptionalValueFlag {
  /** Spellings, e.g. ["-t", "--tools"]. */
  flags: string[];
  /** The hidden option that receives the value, e.g. "--tools-value". */
  hidden: string;
  /** Whether a separate next token may be the value (as `-k s:..-3` is). */
  takesNextToken?: (token: string) => boolean;
  /**
   * For flags whose order matters (`-t`, `-T`): a bare flag also goes to the
   * hidden option, as this value, and given values get `valuePrefix`.
   */
  bareValue?: string;
  valuePrefix?: string;
}

/** Rewrite `FLAG=VALUE` to `HIDDEN=VALUE` (a bare FLAG stays), leaving everything after `--` alone. */
export function rewriteOptionalValues(
  argv: readonly string[],
  table: readonly OptionalValueFlag[],
): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (token === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const eq = token.indexOf("=");
    const name = eq === -1 ? token : token.slice(0, eq);
    const flag = table.find((f) => f.flags.includes(name));
    if (!flag) {
      out.push(token);
      continue;
    }
    const prefix = flag.valuePrefix ?? "";
    // Attached with `=`: a value that starts with `-` (-T's `-NAME`) is not read as options.
    const hidden = (value: string) => `${flag.hidden}=${value}`;
    if (eq !== -1) out.push(hidden(prefix + token.slice(eq + 1)));
    else if (flag.takesNextToken && i + 1 < argv.length && flag.takesNextToken(argv[i + 1]!)) {
      out.push(hidden(prefix + argv[i + 1]!));
      i += 1;
    } else if (flag.bareValue !== undefined) out.push(hidden(flag.bareValue));
    else out.push(flag.flags.at(-1)!);
  }
  return out;
}

const GLOBAL_WITH_VALUE = new Set(["-w", "--workspace", "-c", "--cfg"]);

/**
 * The command words of an invocation (`conversation compact`), skipping global
 * options and the word `help` (`jp help conversation ls` names `conversation ls`).
 */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const token = argv[i]!;
    if (token === "--") break;
    if (token.startsWith("-")) {
      if (GLOBAL_WITH_VALUE.has(token)) i += 1;
      if (words.length > 0) break;
      continue;
    }
    if (token !== "help") words.push(token);
  }
  return words;
}
