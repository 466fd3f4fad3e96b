// `jp conversation use ID`: make a conversation the active one.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { conversationOrPick } from "../../pick.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("use [id]")
    .description(
      "make the conversation with this id (or unique id prefix) the active one; without one, on a terminal, choose it from a list",
    )
    .action(async (id: string | undefined) => {
      const store = ctx.store();
      const ref = await conversationOrPick(ctx, id, "Use which conversation?", { always: true });
      if (!ref) return;
      store.setActive(ref.id);
      const title = store.metadata(ref).title;
      ctx.out(`Active conversation: ${ref.id}${title ? ` (${title})` : ""}`);
    });
}
