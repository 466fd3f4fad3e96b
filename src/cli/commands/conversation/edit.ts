// `jp conversation edit [ID]`: change what is said of a conversation (its title); its events are never edited.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../../errors.js";
import { visible } from "../../../render/visible.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("edit [id]")
    .description("change a conversation's title (default: the active one); its events stay as they are")
    .option("--title <title>", "the new title")
    .option("--no-title", "remove the title")
    .option("--json", 'print { "id", "title" }')
    .action((id: string | undefined, opts: { title?: string | false; json?: boolean }) => {
      if (opts.title === undefined)
        throw new UsageError("nothing to change", "give --title TITLE or --no-title");
      if (opts.title !== false && opts.title.trim() === "")
        throw new UsageError("the title is empty", "give words, or --no-title to remove it");
      const store = ctx.store();
      const ref = store.resolve(id);
      const title = opts.title === false ? undefined : opts.title.trim();
      store.updateMetadata(ref, ({ title: _old, ...rest }) => ({
        ...rest,
        ...(title !== undefined ? { title } : {}),
      }));
      if (opts.json) ctx.out(JSON.stringify({ id: ref.id, title: title ?? null }));
      else ctx.out(title ? `Titled ${ref.id} "${visible(title)}"` : `Removed the title of ${ref.id}`);
    });
}
