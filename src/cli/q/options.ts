// Owns what `jp q` takes on its command line: its options and their help.
import { Option, type Command } from "commander";
import { type SpecOptions } from "../compact-options.js";

export interface QOptions extends SpecOptions {
  new?: boolean;
  id?: string;
  model?: string;
  toolOp?: string[];
  toolUse?: string;
  edit?: boolean;
  retry?: boolean;
  persist: boolean;
  json?: boolean;
  /** -r (true) or -R (false); absent, the config decides. */
  reasoning?: boolean;
  reasoningEffort?: string;
  hideReasoning?: boolean;
  hideToolCalls?: boolean;
  /** --fork ("all") or --fork=N: ask in a fork of the conversation. */
  forkLast?: string;
  /** --title's words, or false with --no-title; absent, the first question titles a new conversation. */
  title?: string | false;
  /** What -a names: files, globs, URLs. */
  attachment?: string[];
}

export function defineCommand(program: Command): Command {
  return program
    .command("q [query...]")
    .alias("query")
    .description("ask in the active conversation (or a new one); the model may call tools")
    .option("-n, --new", "start a new conversation for this query")
    .option("--id <id>", "ask in this conversation instead of the active one")
    .option("-m, --model <id>", "model for this query, as provider/name")
    .option(
      "-t, --tool",
      "offer every tool; -t NAME (or -t=NAME) offers NAME (applied left to right with -T)",
    )
    .option("-T, --no-tool", "offer no tools; -T NAME (or -T=NAME) withholds NAME")
    .addOption(
      new Option("--tool-op <op>")
        .hideHelp()
        .argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    )
    .option("-u, --tool-use <name>", "make the model call this tool first (implies -t=NAME)")
    .option(
      "-r, --reasoning",
      "let the model think for this query (its configured effort, else medium); -r EFFORT at that effort (low … max)",
    )
    .addOption(new Option("--reasoning-effort <effort>").hideHelp())
    .option("-R, --no-reasoning", "no thinking for this query")
    .option("--hide-reasoning", "do not show the reasoning as it streams (it is recorded all the same)")
    .option("--hide-tool-calls", "do not show tool calls and their results as they run (prompts still ask)")
    .option("--fork", "ask in a fork of the conversation (all its turns); --fork=N keeps its last N turns")
    .addOption(new Option("--fork-last <n>").hideHelp())
    .option("--title <title>", "title the conversation (a new one, or the one asked in)")
    .option(
      "--no-title",
      "leave a new conversation without a title (none from its first question, none generated)",
    )
    .option(
      "-a, --attachment <source>",
      "attach a file, a glob's files or an http(s) URL to the question (repeatable): text, images, PDFs",
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option("-e, --edit", "write the query in $EDITOR")
    .option("--retry", "ask the conversation's last failed question again (one that got no answer)")
    .option("--no-persist", "do not record this turn in the conversation")
    .option(
      "--json",
      "print each event as it is recorded, one JSON object per line (the log's own form), and no answer text",
    )
    .addHelpText(
      "after",
      [
        "",
        "The query is the words after the options. Text piped on stdin is added after",
        "them (or is the whole query without words), so `git diff | jp q review this`",
        "asks about the diff; -e opens the result in $EDITOR before it is sent.",
        "",
        "At an approval prompt one key answers: y run, n decline, Y/N the same for the",
        "rest of the turn, r decline with a reason, e edit, p print, ? help.",
      ].join("\n"),
    );
}
