// `jp completion bash|zsh|fish`: a completion script for every command, its
// subcommands and its options, made from the same command table `jp --help` uses.
// Values (conversation ids, model ids, tools, labels, config keys) are asked
// of `jp __complete` when Tab is pressed, so they are the workspace's own.
import { Command, type Option } from "commander";
import type { Context } from "../context.js";
import { UsageError } from "../../errors.js";
import type { CompletionKind } from "./complete.js";
import { COMMANDS, type CommandEntry } from "./index.js";

/** An option whose value completion offers, by its spellings. */
interface ValueOption {
  flags: string[];
  kind: CompletionKind;
}

/** One command path (`conversation compact`) with what may follow it. */
interface Node {
  path: string[];
  words: string[];
  options: string[];
  values: ValueOption[];
  /** What the command's arguments are, when completion can offer them. */
  positional?: CompletionKind;
}

const SHELLS = ["bash", "zsh", "fish"] as const;
type Shell = (typeof SHELLS)[number];
const isShell = (name: string): name is Shell => SHELLS.some((shell) => shell === name);

/** Options whose values jp can offer, by their long name, on whichever command has them. */
const VALUE_KINDS: Readonly<Record<string, CompletionKind>> = {
  "--id": "conversation",
  "--model": "model",
  "--tool": "tool",
  "--no-tool": "tool",
  "--tool-use": "tool",
  "--label": "label",
};
/** The global `-c`, on every command: a persona (a file by name) or a config key. */
const GLOBAL_VALUES: ValueOption[] = [{ flags: ["-c", "--cfg"], kind: "cfg" }];

const flagsOf = (o: Option) => [o.short, o.long].filter((f) => f !== undefined);

/** A command's arguments as completion can offer them: conversation ids, or a model's. */
function positionalOf(path: readonly string[], entry: CommandEntry): CompletionKind | undefined {
  if (!entry.args || !/^[<[]ids?\b/.test(entry.args)) return undefined;
  return path[0] === "model" ? "model" : "conversation";
}

/** The options a command's module registers (loaded for that alone; nothing runs). */
async function optionsOf(entry: CommandEntry, ctx: Context): Promise<Option[]> {
  if (!entry.load) return [];
  const scratch = new Command();
  (await entry.load()).register(scratch, ctx);
  return scratch.commands[0]?.options.filter((o) => !o.hidden) ?? [];
}

async function nodes(entries: readonly CommandEntry[], path: string[], ctx: Context): Promise<Node[]> {
  const shown = entries.filter((e) => !e.hidden);
  const out: Node[] = [
    { path, words: shown.flatMap((e) => [e.name, ...(e.aliases ?? [])]), options: [], values: [] },
  ];
  for (const entry of shown) {
    const registered = await optionsOf(entry, ctx);
    const options = [...registered.flatMap(flagsOf), "--help"];
    const values = registered.flatMap((o) => {
      const kind = o.long !== undefined ? VALUE_KINDS[o.long] : undefined;
      return kind ? [{ flags: flagsOf(o), kind }] : [];
    });
    for (const name of [entry.name, ...(entry.aliases ?? [])]) {
      const here = [...path, name];
      const below = entry.subcommands ? await nodes(entry.subcommands, here, ctx) : [];
      out.push(...below.slice(0, 1).map((n) => ({ ...n, options, values })));
      out.push(...below.slice(1));
      if (!entry.subcommands) {
        const positional = positionalOf(here, entry);
        out.push({ path: here, words: [], options, values, ...(positional ? { positional } : {}) });
      }
    }
  }
  return out;
}

const spelled = (n: Node) => n.path.join(" ");

/**
 * The `case` arms bash and zsh share: walking the words typed to the command
 * they name (`cmdpath`: `path` is the search path to zsh), then what the word
 * under the cursor is (`kind`: a value jp offers) or may be (`choices`).
 */
function caseArms(all: readonly Node[]): {
  walk: string;
  values: string;
  positional: string;
  choices: string;
} {
  const arms = (lines: string[]) => lines.join("\n");
  return {
    walk: arms(
      all.filter((n) => n.path.length > 0).map((n) => `      "${spelled(n)}") cmdpath="${spelled(n)}" ;;`),
    ),
    values: arms(
      all.flatMap((n) =>
        n.values.map((v) => `    ${v.flags.map((f) => `"${spelled(n)} ${f}"`).join("|")}) kind=${v.kind} ;;`),
      ),
    ),
    positional: arms(
      all.flatMap((n) => (n.positional ? [`      "${spelled(n)}") kind=${n.positional} ;;`] : [])),
    ),
    choices: arms(
      all.map((n) => `    "${spelled(n)}") choices="${[...n.words, ...n.options].join(" ")}" ;;`),
    ),
  };
}

/** The shell code that finds `cmdpath` and `kind` from the words before the cursor (`$1` is the first word's index). */
function walkWords(all: readonly Node[], first: number): string {
  const arms = caseArms(all);
  const global = GLOBAL_VALUES.map((v) => `    ${v.flags.join("|")}) kind=${v.kind} ;;`).join("\n");
  return `  for ((i = ${first}; i < cword; i++)); do
    word="\${cwords[i]}"
    [[ "$word" == -* ]] && continue
    case "\${cmdpath:+$cmdpath }$word" in
${arms.walk}
    esac
  done
  case "$prev" in
${global}
  esac
  case "$cmdpath $prev" in
${arms.values}
  esac
  if [[ -z "$kind" && "$cur" != -* ]]; then
    case "$cmdpath" in
${arms.positional}
    esac
  fi
  case "$cmdpath" in
${arms.choices}
  esac`;
}

function bash(all: readonly Node[]): string {
  return `# jp completion for bash: eval "$(jp completion bash)" in ~/.bashrc
# Values come from \`jp __complete KIND PREFIX\` (value<TAB>description lines):
# alone, the value; several, each beside its description, padded to one width.
_jp_values() {
  local line i width=0 values=() descriptions=()
  while IFS= read -r line; do
    values+=("\${line%%$'\\t'*}")
    if [[ "$line" == *$'\\t'* ]]; then descriptions+=("\${line#*$'\\t'}"); else descriptions+=(""); fi
  done < <(command jp __complete "$1" -- "$2" 2>/dev/null)
  COMPREPLY=()
  if ((\${#values[@]} == 1)); then
    COMPREPLY=("\${values[0]}")
    # A config key ends in =: its value follows without a space.
    [[ "\${values[0]}" == *= ]] && compopt -o nospace
    return
  fi
  for ((i = 0; i < \${#values[@]}; i++)); do ((\${#values[i]} > width)) && width=\${#values[i]}; done
  for ((i = 0; i < \${#values[@]}; i++)); do
    if [[ -n "\${descriptions[i]}" ]]; then
      COMPREPLY+=("$(printf '%-*s  (%s)' "$width" "\${values[i]}" "\${descriptions[i]}")")
    else
      COMPREPLY+=("\${values[i]}")
    fi
  done
}
_jp_complete() {
  local cur prev cmdpath="" word i kind="" choices="" cword=$COMP_CWORD cwords=("\${COMP_WORDS[@]}")
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
${walkWords(all, 1)}
  if [[ -n "$kind" ]]; then
    _jp_values "$kind" "$cur"
    return
  fi
  COMPREPLY=($(compgen -W "$choices" -- "$cur"))
}
complete -o default -F _jp_complete jp
`;
}

function zsh(all: readonly Node[]): string {
  return `#compdef jp
# jp completion for zsh: eval "$(jp completion zsh)" in ~/.zshrc (after compinit)
# Values come from \`jp __complete KIND PREFIX\`, each shown with its description.
_jp() {
  local cur="\${words[CURRENT]}" prev="\${words[CURRENT-1]}" cmdpath="" word i kind="" choices=""
  local cword=$CURRENT
  local value line
  local -a cwords lines values shown keys keys_shown
  cwords=("\${words[@]}")
${walkWords(all, 2)}
  if [[ -n "$kind" ]]; then
    lines=("\${(@f)$(command jp __complete "$kind" -- "$cur" 2>/dev/null)}")
    for word in "\${lines[@]}"; do
      [[ -z "$word" ]] && continue
      value="\${word%%$'\\t'*}"
      if [[ "$word" == *$'\\t'* ]]; then line="$value  -- \${word#*$'\\t'}"; else line="$value"; fi
      # A config key ends in =: its value follows without a space.
      if [[ "$value" == *= ]]; then keys+=("$value"); keys_shown+=("$line"); else values+=("$value"); shown+=("$line"); fi
    done
    # Two lists, so that only keys go without a space; no bell where either is empty.
    compadd -l -d shown -a values
    compadd -S '' -l -d keys_shown -a keys
    return 0
  fi
  compadd -- \${=choices} || _files
}
if (( $+functions[compdef] )); then compdef _jp jp; else autoload -Uz compinit && compinit && compdef _jp jp; fi
`;
}

function fish(all: readonly Node[]): string {
  const lines = ["# jp completion for fish: jp completion fish > ~/.config/fish/completions/jp.fish"];
  // Every word of the path seen (`show` alone would also be `model show`), and none of its subcommands yet.
  const seen = (path: string[]) => {
    if (path.length === 0) return "__fish_use_subcommand";
    const below = all
      .filter((n) => n.path.length === path.length + 1 && n.path.slice(0, -1).join(" ") === path.join(" "))
      .map((n) => n.path.at(-1));
    return [
      ...path.map((word) => `__fish_seen_subcommand_from ${word}`),
      ...(below.length ? [`not __fish_seen_subcommand_from ${below.join(" ")}`] : []),
    ].join("; and ");
  };
  // Values from jp itself, as value<TAB>description lines, which fish shows as they are.
  const asked = (kind: CompletionKind) => `'(command jp __complete ${kind} -- (commandline -ct))'`;
  const flag = (option: string) =>
    option.startsWith("--") ? `-l ${option.slice(2)}` : `-s ${option.slice(1)}`;
  for (const v of GLOBAL_VALUES)
    lines.push(`complete -c jp ${v.flags.map(flag).join(" ")} -x -a ${asked(v.kind)}`);
  for (const n of all) {
    const condition = seen(n.path);
    if (n.words.length) lines.push(`complete -c jp -f -n '${condition}' -a '${n.words.join(" ")}'`);
    if (n.positional) lines.push(`complete -c jp -f -n '${condition}' -a ${asked(n.positional)}`);
    const valued = new Map(n.values.flatMap((v) => v.flags.map((f) => [f, v.kind] as const)));
    for (const option of n.options) {
      const kind = valued.get(option);
      lines.push(`complete -c jp -n '${condition}' ${flag(option)}${kind ? ` -x -a ${asked(kind)}` : ""}`);
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
