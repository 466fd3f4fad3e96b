// Owns the list of commands, in the order `jp --help` shows them, and how
// each one's module is loaded. The commands load (together: see runtime.ts)
// only when one of them runs or shows its own help; `jp --help` lists them by
// name and summary alone.
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
  /** Left out of help and completion: a command scripts call, not people. */
  hidden?: boolean;
}

/** The conversation commands, with JP's short forms of them (jp_cli's aliases: `c s`, `c p`, `c u`…). */
const conversation: CommandEntry[] = [
  {
    name: "new",
    summary: "start a new conversation and make it the active one",
    load: async () => (await import("../runtime.js")).conversationNew,
  },
  {
    name: "ls",
    aliases: ["list"],
    summary: "list the conversations of the workspace, oldest first",
    load: async () => (await import("../store-runtime.js")).conversationLs,
  },
  {
    name: "use",
    aliases: ["u"],
    args: "<id>",
    summary: "make a conversation the active one",
    load: async () => (await import("../runtime.js")).conversationUse,
  },
  {
    name: "show",
    aliases: ["s"],
    args: "[id]",
    summary: "show a conversation's details and compactions",
    load: async () => (await import("../runtime.js")).conversationShow,
  },
  {
    name: "print",
    aliases: ["p"],
    args: "[id]",
    summary: "print the history, or with --compacted what the model sees",
    load: async () => (await import("../runtime.js")).conversationPrint,
  },
  {
    name: "grep",
    aliases: ["rg", "g"],
    args: "<pattern> [ids...]",
    summary: "search conversations for a regular expression, as stored or as the model sees them",
    load: async () => (await import("../runtime.js")).conversationGrep,
  },
  {
    name: "edit",
    aliases: ["e"],
    args: "[id]",
    summary: "change a conversation's title",
    load: async () => (await import("../runtime.js")).conversationEdit,
  },
  {
    name: "label",
    // As JP's: `c l` is label (ls has no short form there).
    aliases: ["l", "labels"],
    args: "[id] [labels...]",
    summary: "add labels to a conversation (or --remove them); JP's add|a|set, rm|r, ls",
    load: async () => (await import("../runtime.js")).conversationLabel,
  },
  {
    name: "archive",
    aliases: ["a"],
    args: "<id>",
    summary: "set a conversation aside: ls leaves it out",
    load: async () => (await import("../runtime.js")).conversationArchive,
  },
  {
    name: "unarchive",
    aliases: ["ua"],
    args: "<id>",
    summary: "bring an archived conversation back into ls",
    load: async () => (await import("../runtime.js")).conversationUnarchive,
  },
  {
    name: "fork",
    aliases: ["f"],
    args: "[id]",
    summary: "copy a conversation into a new one",
    load: async () => (await import("../runtime.js")).conversationFork,
  },
  {
    name: "rm",
    aliases: ["remove", "rem", "delete", "del"],
    args: "<id>",
    summary: "move a conversation to the trash (nothing is deleted)",
    load: async () => (await import("../runtime.js")).conversationRm,
  },
  {
    name: "restore",
    args: "<id>",
    summary: "move a conversation back from the trash",
    load: async () => (await import("../runtime.js")).conversationRestore,
  },
  {
    name: "pin",
    args: "[id]",
    summary: "pin a turn: no compaction changes it",
    load: async () => (await import("../runtime.js")).conversationPin,
  },
  {
    name: "unpin",
    args: "[id]",
    summary: "undo a pin",
    load: async () => (await import("../runtime.js")).conversationUnpin,
  },
  {
    name: "import",
    args: "<paths...>",
    summary: "import JP conversations, or jp conversation folders from another workspace",
    load: async () => (await import("../runtime.js")).conversationImport,
  },
  {
    name: "doctor",
    args: "[id]",
    summary: "check logs and repair what can be repaired",
    load: async () => (await import("../runtime.js")).conversationDoctor,
  },
  {
    name: "compact",
    args: "[ids...]",
    summary: "compact conversations (or undo with --reset)",
    load: async () => (await import("../runtime.js")).conversationCompact,
  },
];

export const COMMANDS: CommandEntry[] = [
  {
    name: "q",
    aliases: ["query"],
    args: "[query...]",
    summary: "ask in the active conversation (or a new one); the model may call tools",
    load: async () => (await import("../runtime.js")).q,
  },
  {
    name: "init",
    args: "[dir]",
    summary: "create a jp workspace (.jp/) in DIR (default: --workspace or the current folder)",
    load: async () => (await import("../runtime.js")).init,
  },
  {
    name: "conversation",
    aliases: ["c"],
    summary:
      "manage conversations: new, ls, use, show, print, grep, edit, label, archive, fork, rm, pin, import, doctor, compact",
    subcommands: conversation,
  },
  {
    name: "doctor",
    args: "[id]",
    summary: "short for `jp conversation doctor`: check logs and repair what can be repaired",
    load: async () => (await import("../runtime.js")).conversationDoctor,
  },
  {
    name: "config",
    aliases: ["cfg"],
    summary: "inspect configuration",
    subcommands: [
      {
        name: "show",
        summary: "show the resolved configuration and where each value came from",
        load: async () => (await import("../runtime.js")).configShow,
      },
    ],
  },
  {
    name: "workspace",
    summary: "whether jp trusts a workspace's configuration: trust, untrust, status",
    subcommands: [
      {
        name: "trust",
        args: "[dir]",
        summary: "trust a workspace: its configuration may run commands and send your keys where it says",
        load: async () => (await import("../runtime.js")).workspaceTrust,
      },
      {
        name: "untrust",
        args: "[dir]",
        summary: "stop trusting a workspace: read it as data",
        load: async () => (await import("../runtime.js")).workspaceUntrust,
      },
      {
        name: "status",
        args: "[dir]",
        summary: "whether a workspace is trusted, and what its configuration would run and send keys to",
        load: async () => (await import("../runtime.js")).workspaceStatus,
      },
    ],
  },
  {
    name: "model",
    summary: "what jp knows of models: show",
    subcommands: [
      {
        name: "show",
        args: "[id]",
        summary: "show what jp knows of a model and where each figure came from",
        load: async () => (await import("../runtime.js")).modelShow,
      },
    ],
  },
  {
    name: "completion",
    args: "<shell>",
    summary: "print a completion script for bash, zsh or fish",
    load: async () => (await import("../runtime.js")).completion,
  },
  {
    name: "mcp",
    summary: "MCP servers: ls, tools",
    subcommands: [
      {
        name: "ls",
        summary: "list the MCP servers of the configuration and whether each starts",
        load: async () => (await import("../runtime.js")).mcpLs,
      },
      {
        name: "tools",
        args: "<server>",
        summary: "list an MCP server's tools and which of them are offered",
        load: async () => (await import("../runtime.js")).mcpTools,
      },
    ],
  },
  {
    name: "__complete",
    args: "<kind> [prefix]",
    summary: "the values a completion script offers",
    // Beside ls, not in runtime.ts: a keystroke loads the store alone.
    load: async () => (await import("../store-runtime.js")).complete,
    hidden: true,
  },
  {
    name: "__refresh-prices",
    summary: "fetch the maintained price data into the user's cache",
    load: async () => (await import("../runtime.js")).refreshPrices,
    hidden: true,
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
      const added = parent.commands.at(-1);
      added?.summary(entry.summary);
      // The short forms the table gives that the module did not register itself.
      for (const alias of entry.aliases ?? [])
        if (added && !added.aliases().includes(alias)) added.alias(alias);
      optionalValues = module.optionalValues ?? [];
      continue;
    }
    const command = parent
      .command(entry.args ? `${entry.name} ${entry.args}` : entry.name, { hidden: entry.hidden ?? false })
      .aliases(entry.aliases ?? [])
      .description(entry.summary);
    if (entry.subcommands) {
      const found = await addCommands(command, entry.subcommands, targeted ? words.slice(1) : [], ctx);
      if (targeted) optionalValues = found;
    }
  }
  return optionalValues;
}
