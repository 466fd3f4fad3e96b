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
      const { before } = store.updateMetadata(ref, ({ archived_at: archived, ...rest }) =>
        archived === undefined ? undefined : rest,
      );
      if (before.archived_at === undefined) {
        ctx.out(`${ref.id} is not archived`);
        return;
      }
      ctx.out(`Unarchived ${ref.id}`);
    });
}
