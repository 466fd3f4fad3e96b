// `jp conversation ls`: list conversations with their counts.
import { fromSystemError } from "../../../errors.js";
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { renderTable } from "../../../render/table.js";
import { normalizeJpTimestamp } from "../../../store/import-jp.js";
import { visible } from "../../../render/visible.js";
import type { ConversationMetadata, ConversationRef } from "../../../store/conversations.js";

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
      /** Its metadata (read once), labels and whether it is archived; none when it cannot be read (the listing says why). */
      const marksOf = (
        ref: ConversationRef,
      ): Pick<ConversationListItem, "labels" | "archived_at"> & { metadata?: ConversationMetadata } => {
        try {
          const metadata = store.metadata(ref);
          const { labels, archived_at: archived } = metadata;
          return {
            metadata,
            labels: Array.isArray(labels) ? labels.filter((l) => typeof l === "string") : [],
            // JP writes its own time format (`2026-04-17 17:02:57.24`); --json gives every time as RFC 3339.
            archived_at: typeof archived === "string" ? (normalizeJpTimestamp(archived) ?? archived) : null,
          };
        } catch {
          return { labels: [], archived_at: null };
        }
      };
      const listed = store.list().flatMap((ref) => {
        const { metadata: read, ...marks } = marksOf(ref);
        if ((marks.archived_at !== null) !== !!opts.archived) return [];
        return opts.label === undefined || marks.labels.includes(opts.label) ? [{ ref, read, marks }] : [];
      });
      const items: ConversationListItem[] = listed.map(({ ref, read, marks }) => {
        let metadata: { title?: string; created_at: string } = { created_at: "" };
        try {
          metadata = read ?? store.metadata(ref);
          const stats = store.stats(ref);
          return {
            id: ref.id,
            title: metadata.title ?? null,
            turns: stats.turns,
            events: stats.events,
            created_at: metadata.created_at,
            last_event_at: stats.last_event_at ?? null,
            active: ref.id === active,
            ...marks,
          };
        } catch (error) {
          // One unreadable folder never hides the rest of the workspace.
          const described = fromSystemError(error) ?? error;
          const reason = described instanceof Error ? described.message : String(described);
          ctx.warn(`${ref.folder}: cannot be read (${reason}); run \`jp conversation doctor ${ref.id}\``);
          return {
            id: ref.id,
            title: metadata.title ?? null,
            turns: 0,
            events: 0,
            created_at: metadata.created_at,
            last_event_at: null,
            active: ref.id === active,
            ...marks,
            error: reason,
          };
        }
      });
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
      const rows = items.map((i) => [
        i.active ? "*" : " ",
        i.id,
        String(i.turns),
        String(i.events),
        (i.last_event_at ?? i.created_at).slice(0, 16).replace("T", " "),
        (i.error ? "(unreadable)" : visible(i.title ?? "")) +
          (i.labels.length ? ctx.color.dim(` [${i.labels.map(visible).join(", ")}]`) : ""),
      ]);
      ctx.out(renderTable(["", "ID", "TURNS", "EVENTS", "LAST EVENT", "TITLE"], rows));
    });
}
