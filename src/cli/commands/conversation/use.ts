// `jp conversation use ID`: make a conversation the active one.
import type { Command } from "commander";
import type { Context } from "../../context.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("use <id>")
    .description("make the conversation with this id (or unique id prefix) the active one")
    .action((id: string) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      store.setActive(ref.id);
      const title = store.metadata(ref).title;
      ctx.out(`Active conversation: ${ref.id}${title ? ` (${title})` : ""}`);
    });
}
