// `jp conversation label ID [LABEL...]`: add labels to a conversation (or --remove them); `ls --label` finds them.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../../errors.js";
import { visible } from "../../../render/visible.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("label <id> [labels...]")
    .description(
      "add labels to a conversation, or with --remove take them off; without labels, print its labels",
    )
    .option("--remove", "take the labels given off")
    .option("--json", 'print { "id", "labels" }')
    .action((id: string, labels: string[], opts: { remove?: boolean; json?: boolean }) => {
      const bad = labels.find((l) => l.trim() === "" || /[\s,]/.test(l));
      if (bad !== undefined)
        throw new UsageError(`'${bad}' is not a label`, "a label is one word (no spaces or commas)");
      const store = ctx.store();
      const ref = store.resolve(id);
      const labelsOf = (m: { labels?: unknown }) =>
        Array.isArray(m.labels) ? m.labels.filter((l): l is string => typeof l === "string") : [];
      const { after } = store.updateMetadata(ref, (metadata) => {
        if (!labels.length) return undefined;
        const current = labelsOf(metadata);
        const next = opts.remove
          ? current.filter((l) => !labels.includes(l))
          : [...new Set([...current, ...labels])];
        return { ...metadata, labels: next };
      });
      const next = labelsOf(after);
      if (opts.json) ctx.out(JSON.stringify({ id: ref.id, labels: next }));
      else ctx.out(`${ref.id}: ${next.length ? next.map(visible).join(", ") : "(no labels)"}`);
    });
}
