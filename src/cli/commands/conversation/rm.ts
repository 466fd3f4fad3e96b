// `jp conversation rm ID`: move a conversation to the trash; nothing is deleted.
import type { Command } from "commander";
import * as path from "node:path";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("rm <id>")
    .description("move a conversation to .jp/conversations/.trash/ (nothing is deleted)")
    .option("--json", "print { id, path, was_active } (path: where it is in the trash)")
    .action((id: string, opts: { json?: boolean }) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      const wasActive = store.activeId() === ref.id;
      const target = store.trash(ref);
      if (opts.json) {
        ctx.out(JSON.stringify({ id: ref.id, path: target, was_active: wasActive }, null, 2));
        return;
      }
      ctx.out(`Moved conversation ${ref.id} to ${path.relative(ctx.cwd, target) || target}`);
      ctx.info(ctx.color.dim(`jp conversation restore ${ref.id} brings it back`));
    });
}
