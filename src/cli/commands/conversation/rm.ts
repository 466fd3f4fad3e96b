// `jp conversation rm ID`: move a conversation to the trash; nothing is deleted.
import type { Command } from "commander";
import * as path from "node:path";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("rm <id>")
    .description("move a conversation to .jp/conversations/.trash/ (nothing is deleted)")
    .action((id: string) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      const target = store.trash(ref);
      ctx.out(`Moved conversation ${ref.id} to ${path.relative(ctx.cwd, target) || target}`);
      ctx.info(ctx.color.dim(`jp conversation restore ${ref.id} brings it back`));
    });
}
