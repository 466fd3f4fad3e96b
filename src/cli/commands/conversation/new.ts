// `jp conversation new`: start a conversation and make it active.
import type { Command } from "commander";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("new")
    .description("start a new conversation and make it the active one")
    .option("--title <title>", "title of the conversation (also names its folder)")
    .option("--json", "print the new conversation as JSON")
    .action((opts: { title?: string; json?: boolean }) => {
      const store = ctx.store();
      const ref = store.create({ title: opts.title });
      store.setActive(ref.id);
      if (opts.json) ctx.out(JSON.stringify({ id: ref.id, title: opts.title ?? null, path: ref.dir }));
      else
        ctx.out(`Created conversation ${ref.id}${opts.title ? ` (${opts.title})` : ""}; it is now active.`);
    });
}
