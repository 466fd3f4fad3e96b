// `jp conversation archive ID`: set a conversation aside; `ls` leaves it out, `ls --archived` lists it.
import type { Command } from "commander";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("archive <id>")
    .description("set a conversation aside: ls leaves it out (ls --archived lists it); nothing is removed")
    .action((id: string) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      const { before } = store.updateMetadata(ref, (metadata) =>
        typeof metadata.archived_at === "string"
          ? undefined
          : { ...metadata, archived_at: ctx.clock.now().toISOString() },
      );
      if (typeof before.archived_at === "string") {
        ctx.out(`${ref.id} is archived already (since ${before.archived_at})`);
        return;
      }
      store.forgetActive(ref.id);
      ctx.out(`Archived ${ref.id}; \`jp conversation unarchive ${ref.id}\` brings it back`);
    });
}
