// `jp completion bash|zsh|fish`: a completion script for every command, its
// subcommands and its options, made from the same command table `jp --help` uses.
import { Command } from "commander";
import type { Context } from "../context.js";
import { UsageError } from "../../errors.js";
import { COMMANDS, type CommandEntry } from "./index.js";

/** One command path (`conversation compact`) with what may follow it. */
interface Node {
  path: string[];
  words: string[];
  options: string[];
}

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];
const isShell = (name: string): name is Shell => SHELLS.some((shell) => shell === name);

/** The options a command's module registers (loaded for that alone; nothing runs). */
async function optionsOf(entry: CommandEntry, ctx: Context): Promise<string[]> {
  if (!entry.load) return [];
  const scratch = new Command();
  (await entry.load()).register(scratch, ctx);
  const command = scratch.commands[0];
  if (!command) return [];
  return command.options
    .filter((o) => !o.hidden)
    .flatMap((o) => [o.short, o.long].filter((f) => f !== undefined));
}

async function nodes(entries: readonly CommandEntry[], path: string[], ctx: Context): Promise<Node[]> {
  const out: Node[] = [{ path, words: entries.flatMap((e) => [e.name, ...(e.aliases ?? [])]), options: [] }];
  for (const entry of entries) {
    const options = [...(await optionsOf(entry, ctx)), "--help"];
    for (const name of [entry.name, ...(entry.aliases ?? [])]) {
      const below = entry.subcommands ? await nodes(entry.subcommands, [...path, name], ctx) : [];
      out.push(...below.slice(0, 1).map((n) => ({ ...n, options })));
      out.push(...below.slice(1));
      if (!entry.subcommands) out.push({ path: [...path, name], words: [], options });
    }
  }
  return out;
}

function bash(all: readonly Node[]): string {
  const cases = all
    .map((n) => `    "${n.path.join(" ")}") words="${[...n.words, ...n.options].join(" ")}" ;;`)
    .join("\n");
  return `# jp completion for bash: eval "$(jp completion bash)" in ~/.bashrc
_jp_complete() {
  local cur path="" word i words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    [[ "$word" == -* ]] && continue
    case "\${path:+$path }$word" in
${all
  .filter((n) => n.path.length > 0)
  .map((n) => `      "${n.path.join(" ")}") path="${n.path.join(" ")}" ;;`)
  .join("\n")}
    esac
  done
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _jp_complete jp
`;
}

function zsh(all: readonly Node[]): string {
  return `# jp completion for zsh: eval "$(jp completion zsh)" in ~/.zshrc
autoload -U +X bashcompinit && bashcompinit
${bash(all).split("\n").slice(1).join("\n")}`;
}

function fish(all: readonly Node[]): string {
  const lines = ["# jp completion for fish: jp completion fish > ~/.config/fish/completions/jp.fish"];
  const seen = (path: string[]) =>
    path.length === 0
      ? "__fish_use_subcommand"
      : `__fish_seen_subcommand_from ${path.at(-1)}; and not __fish_seen_subcommand_from ${all
          .filter(
            (n) => n.path.length === path.length + 1 && n.path.slice(0, -1).join(" ") === path.join(" "),
          )
          .map((n) => n.path.at(-1))
          .join(" ")}`;
  for (const n of all) {
    const condition = seen(n.path).replace(/; and not __fish_seen_subcommand_from $/, "");
    if (n.words.length) lines.push(`complete -c jp -f -n '${condition}' -a '${n.words.join(" ")}'`);
    for (const option of n.options) {
      const flag = option.startsWith("--") ? `-l ${option.slice(2)}` : `-s ${option.slice(1)}`;
      lines.push(`complete -c jp -n '${condition}' ${flag}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

export function register(program: Command, ctx: Context): void {
  program
    .command("completion <shell>")
    .description("print a completion script for bash, zsh or fish (commands, subcommands and their options)")
    .addHelpText(
      "after",
      '\nbash: eval "$(jp completion bash)" in ~/.bashrc; zsh: the same with zsh in ~/.zshrc;\nfish: jp completion fish > ~/.config/fish/completions/jp.fish',
    )
    .action(async (shell: string) => {
      if (!isShell(shell))
        throw new UsageError(`no completion for '${shell}'`, `give one of ${SHELLS.join(", ")}`);
      const all = await nodes(COMMANDS, [], ctx);
      const script = { bash, zsh, fish }[shell](all);
      ctx.out(script.trimEnd());
    });
}
