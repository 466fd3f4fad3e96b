// `jp conversation restore ID`: move a conversation back from the trash.
import type { Command } from "commander";
import * as path from "node:path";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("restore <id>")
    .description("move a conversation back from .jp/conversations/.trash/ (the one `rm` moved there)")
    .option("--json", "print { id, path }")
    .action((id: string, opts: { json?: boolean }) => {
      const ref = ctx.store().restore(id);
      if (opts.json) ctx.out(JSON.stringify({ id: ref.id, path: ref.dir }, null, 2));
      else ctx.out(`Restored conversation ${ref.id} to ${path.relative(ctx.cwd, ref.dir) || ref.dir}`);
    });
}
