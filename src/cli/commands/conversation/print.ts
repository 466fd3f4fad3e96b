// `jp conversation print [ID]`: the full history, readable.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { groupTurns } from "../../../events/index.js";
import { renderHistory } from "../../../render/history.js";
import { page } from "../../../render/pager.js";

export function registerPrint(parent: Command, ctx: Context): void {
  parent
    .command("print [id]")
    .description(
      "print the full history of a conversation (default: the active one), with 1-based turn numbers",
    )
    .option("--json", 'print { "id", "turns": [ { "turn", "events" } ] } with events as stored')
    .action(async (id: string | undefined, opts: { json?: boolean }) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      const events = store.readEvents(ref);
      if (opts.json) {
        const turns = groupTurns(events).map((t) => ({ turn: t.index + 1, events: t.events }));
        ctx.out(JSON.stringify({ id: ref.id, turns }, null, 2));
        return;
      }
      const text = events.length === 0 ? "(no events yet)" : renderHistory(events, { color: ctx.color });
      await page(ctx, text);
    });
}
