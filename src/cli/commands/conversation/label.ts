// `jp conversation label ID [LABEL...]`: add labels to a conversation (or --remove them); `ls --label` finds them.
// JP's form works too: `label add|rm|ls [LABEL...] --id ID` (--id anywhere; without it, the active conversation),
// with JP's verbs as jp_cli names them (add|a|set, rm|r|remove|del|delete, ls|list): `rm` alone removes every label.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../../errors.js";
import { visible } from "../../../render/visible.js";
import { labelsOf } from "../../../store/listing.js";

/** JP's verbs: what follows them is labels, and the conversation is --id's or the active one. */
type Verb = "add" | "remove" | "list";
const VERBS = new Map<string, Verb>([
  ["add", "add"],
  ["a", "add"],
  ["set", "add"],
  ["rm", "remove"],
  ["r", "remove"],
  ["remove", "remove"],
  ["del", "remove"],
  ["delete", "remove"],
  ["ls", "list"],
  ["list", "list"],
]);
const verbOf = (word: string | undefined): Verb | undefined =>
  word === undefined ? undefined : VERBS.get(word);

/** Which conversation and labels the words name, in jp's form or JP's. */
function parse(words: string[], opts: { id?: string; remove?: boolean }) {
  const verb = verbOf(words[0]);
  const rest = verb ? words.slice(1) : words;
  // jp's form names the conversation first, unless --id does; with no words at all, JP's: the active one's labels.
  const id = opts.id ?? (verb ? undefined : rest.shift());
  const remove = verb === "remove" || opts.remove === true;
  // JP's `rm` with no keys removes every label.
  const all = verb === "remove" && rest.length === 0;
  return { id, labels: verb === "list" ? [] : rest, remove, all };
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command("label [words...]")
    .usage("ID [LABEL...] | add|a|set|rm|r|ls [LABEL...] [--id ID]")
    .description(
      "add labels to a conversation, or with --remove (or rm) take them off; without labels, print its labels",
    )
    .option("--id <id>", "the conversation (JP's form; default: the active one)")
    .option("--remove", "take the labels given off")
    .option("--json", 'print { "id", "labels" }')
    .action((words: string[], opts: { id?: string; remove?: boolean; json?: boolean }) => {
      const { id, labels, remove, all } = parse(words, opts);
      const bad = labels.find((l) => l.trim() === "" || /[\s,]/.test(l));
      if (bad !== undefined)
        throw new UsageError(
          `'${bad}' is not a label`,
          "a label is one word (no spaces or commas), or KEY=VALUE",
        );
      const store = ctx.store();
      const ref = store.resolve(id);
      const { after } = store.updateMetadata(ref, (metadata) => {
        if (!labels.length && !all) return undefined;
        const current = labelsOf(metadata.labels);
        // A key removes its label whatever its value (`rm review` takes `review=later` off), as JP's keys do.
        const named = (l: string) => labels.some((key) => l === key || l.startsWith(`${key}=`));
        const next = all
          ? []
          : remove
            ? current.filter((l) => !named(l))
            : [...new Set([...current, ...labels])];
        return { ...metadata, labels: next };
      });
      const next = labelsOf(after.labels);
      if (opts.json) ctx.out(JSON.stringify({ id: ref.id, labels: next }));
      else ctx.out(`${ref.id}: ${next.length ? next.map(visible).join(", ") : "(no labels)"}`);
    });
}
