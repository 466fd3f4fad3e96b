// `jp conversation ls`: list conversations with their counts.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { renderTable } from "../../../render/table.js";
import { hasLabel, listConversations } from "../../../store/listing.js";
import { visible } from "../../../render/visible.js";

export interface ConversationListItem {
  id: string;
  title: string | null;
  turns: number;
  events: number;
  created_at: string;
  last_event_at: string | null;
  active: boolean;
  labels: string[];
  archived_at: string | null;
  /** Why this conversation could not be read; the others are listed all the same. */
  error?: string;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command("ls")
    .description("list the conversations of the workspace, oldest first")
    .option("--label <label>", "only the conversations with this label")
    .option("--archived", "only the archived conversations (they are left out otherwise)")
    .option(
      "--json",
      "print an array of { id, title, turns, events, created_at, last_event_at, active, labels, archived_at }",
    )
    .action((opts: { json?: boolean; label?: string; archived?: boolean }) => {
      const store = ctx.store();
      const active = store.activeId();
      const rows = listConversations(store)
        .filter((row) => (row.archived_at !== null) === !!opts.archived)
        .filter((row) => opts.label === undefined || hasLabel(row.labels, opts.label));
      for (const { ref, error } of rows)
        if (error !== undefined)
          ctx.warn(`${ref.folder}: cannot be read (${error}); run \`jp conversation doctor ${ref.id}\``);
      const items: ConversationListItem[] = rows.map(({ ref, ...row }) => ({
        id: ref.id,
        title: row.title,
        turns: row.turns,
        events: row.events,
        created_at: row.created_at,
        last_event_at: row.last_event_at,
        active: ref.id === active,
        labels: row.labels,
        archived_at: row.archived_at,
        ...(row.error !== undefined ? { error: row.error } : {}),
      }));
      if (opts.json) {
        ctx.out(JSON.stringify(items, null, 2));
        return;
      }
      if (items.length === 0) {
        ctx.out(
          opts.label !== undefined || opts.archived
            ? "No conversation matches."
            : "No conversations yet. Start one with `jp conversation new` or `jp conversation import PATH`.",
        );
        return;
      }
      const rowsShown = items.map((i) => [
        i.active ? "*" : " ",
        i.id,
        String(i.turns),
        String(i.events),
        // Dates come from files a repository commits (and JP writes its own format): shown safely too.
        visible((i.last_event_at ?? i.created_at).slice(0, 16).replace("T", " ")),
        (i.error ? "(unreadable)" : visible(i.title ?? "")) +
          (i.labels.length ? ctx.color.dim(` [${i.labels.map(visible).join(", ")}]`) : ""),
      ]);
      ctx.out(renderTable(["", "ID", "TURNS", "EVENTS", "LAST EVENT", "TITLE"], rowsShown));
    });
}
