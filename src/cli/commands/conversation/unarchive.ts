// `jp conversation unarchive ID`: bring an archived conversation back into `ls`.
import type { Command } from "commander";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("unarchive <id>")
    .description("bring an archived conversation back into ls")
    .action((id: string) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      const { archived_at: archived, ...rest } = store.metadata(ref);
      if (archived === undefined) {
        ctx.out(`${ref.id} is not archived`);
        return;
      }
      store.writeMetadata(ref, rest);
      ctx.out(`Unarchived ${ref.id}`);
    });
}
