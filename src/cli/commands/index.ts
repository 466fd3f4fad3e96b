// Owns the list of commands, in the order `jp --help` shows them, and how
// each one's module is loaded. A command's module (and everything it imports)
// loads only when that command runs or shows its own help; every other
// command is listed by name and summary alone. `jp conversation ls` so never
// loads the compaction engine, the config schema or a provider SDK.
import type { Command } from "commander";
import type { Context } from "../context.js";
import type { OptionalValueFlag } from "../argv.js";

export type Register = (parent: Command, ctx: Context) => void;

/** What every command module exports. */
export interface CommandModule {
  register: Register;
  /** Flags whose value must be attached with `=` (see argv.ts). */
  optionalValues?: OptionalValueFlag[];
}

export interface CommandEntry {
  name: string;
  aliases?: string[];
  /** Arguments as commander spells them, for the listing (`[query...]`). */
  args?: string;
  /** One line for the parent's command list. */
  summary: string;
  load?: () => Promise<CommandModule>;
  subcommands?: CommandEntry[];
}

const conversation: CommandEntry[] = [
  {
    name: "new",
    summary: "start a new conversation and make it the active one",
    load: () => import("./conversation/new.js"),
  },
  {
    name: "ls",
    summary: "list the conversations of the workspace, oldest first",
    load: () => import("./conversation/ls.js"),
  },
  {
    name: "use",
    args: "<id>",
    summary: "make a conversation the active one",
    load: () => import("./conversation/use.js"),
  },
  {
    name: "show",
    args: "[id]",
    summary: "show a conversation's details and compactions",
    load: () => import("./conversation/show.js"),
  },
  {
    name: "print",
    args: "[id]",
    summary: "print the history, or with --compacted what the model sees",
    load: () => import("./conversation/print.js"),
  },
  {
    name: "fork",
    args: "[id]",
    summary: "copy a conversation into a new one",
    load: () => import("./conversation/fork.js"),
  },
  {
    name: "rm",
    args: "<id>",
    summary: "move a conversation to the trash (nothing is deleted)",
    load: () => import("./conversation/rm.js"),
  },
  {
    name: "restore",
    args: "<id>",
    summary: "move a conversation back from the trash",
    load: () => import("./conversation/restore.js"),
  },
  {
    name: "import",
    args: "<paths...>",
    summary: "import JP conversations, or jp conversation folders from another workspace",
    load: () => import("./conversation/import.js"),
  },
  {
    name: "doctor",
    args: "[id]",
    summary: "check logs and repair what can be repaired",
    load: () => import("./conversation/doctor.js"),
  },
  {
    name: "compact",
    args: "[ids...]",
    summary: "compact conversations (or undo with --reset)",
    load: () => import("./conversation/compact.js"),
  },
];

export const COMMANDS: CommandEntry[] = [
  {
    name: "q",
    aliases: ["query"],
    args: "[query...]",
    summary: "ask in the active conversation (or a new one); the model may call tools",
    load: () => import("./q.js"),
  },
  {
    name: "init",
    args: "[dir]",
    summary: "create a jp workspace (.jp/) in DIR (default: --workspace or the current folder)",
    load: () => import("./init.js"),
  },
  {
    name: "conversation",
    aliases: ["c"],
    summary: "manage conversations: new, ls, use, show, print, fork, rm, restore, import, doctor, compact",
    subcommands: conversation,
  },
  {
    name: "config",
    summary: "inspect configuration",
    subcommands: [
      {
        name: "show",
        summary: "show the resolved configuration and where each value came from",
        load: () => import("./config/index.js"),
      },
    ],
  },
];

const matches = (entry: CommandEntry, word: string | undefined): boolean =>
  word !== undefined && (entry.name === word || (entry.aliases ?? []).includes(word));

/**
 * Add `entries` to `parent`: the one named by `words[0]` in full (loading its
 * module), the others as listings. Returns the optional-value flags of the
 * command that will run.
 */
export async function addCommands(
  parent: Command,
  entries: readonly CommandEntry[],
  words: readonly string[],
  ctx: Context,
): Promise<OptionalValueFlag[]> {
  let optionalValues: OptionalValueFlag[] = [];
  for (const entry of entries) {
    const targeted = matches(entry, words[0]);
    if (targeted && entry.load) {
      const module = await entry.load();
      module.register(parent, ctx);
      parent.commands.at(-1)?.summary(entry.summary);
      optionalValues = module.optionalValues ?? [];
      continue;
    }
    const command = parent
      .command(entry.args ? `${entry.name} ${entry.args}` : entry.name)
      .aliases(entry.aliases ?? [])
      .description(entry.summary);
    if (entry.subcommands) {
      const found = await addCommands(command, entry.subcommands, targeted ? words.slice(1) : [], ctx);
      if (targeted) optionalValues = found;
    }
  }
  return optionalValues;
}
