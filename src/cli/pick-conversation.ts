// Owns choosing a conversation interactively when a command that takes one is
// run on a terminal without it: a list to move through with the arrow keys.
// The prompt library loads only here, when it is used.
import { UsageError } from "../errors.js";
import { visible } from "../render/visible.js";
import type { ConversationRef } from "../store/conversations.js";
import type { Context } from "./context.js";

/**
 * A conversation as the list shows it: when it was last written to, its
 * turns, the model that answered last, its title and the start of its last
 * question (six conversations titled "say hello" are told apart by what was
 * asked), cut to the terminal's width.
 */
function pickerRow(ctx: Context, ref: ConversationRef, width: number): string {
  const store = ctx.store();
  const metadata = store.metadata(ref);
  let stats: { turns: number; last_event_at?: string; last_model?: string; last_question?: string };
  try {
    stats = store.stats(ref);
  } catch {
    // An unreadable log still lists, by its title.
    stats = { turns: 0 };
  }
  const when = visible((stats.last_event_at ?? metadata.created_at).slice(0, 16).replace("T", " "));
  const turns = `${stats.turns} turn${stats.turns === 1 ? "" : "s"}`;
  const model = stats.last_model ? visible(stats.last_model.replace(/^[^/]*\//, "")) : "";
  const title = metadata.title ? visible(metadata.title) : "(untitled)";
  const question = stats.last_question ? ` · ${visible(stats.last_question)}` : "";
  const facts = [when, turns.padEnd(9), model].filter(Boolean).join("  ");
  const line = `${facts}  ${title}${question}`;
  const shown = line.length > width ? `${line.slice(0, width - 1)}…` : line;
  return metadata.title ? shown : shown.replace("(untitled)", ctx.color.dim("(untitled)"));
}

/** The conversation the person chose, newest first in the list; undefined when they left with Ctrl-C or Esc. */
export async function pickConversation(ctx: Context, message: string): Promise<ConversationRef | undefined> {
  const store = ctx.store();
  const refs = store.list().filter((ref) => typeof store.metadata(ref).archived_at !== "string");
  if (refs.length === 0)
    throw new UsageError(
      "there is no conversation to choose",
      "start one with `jp q -n …` or `jp conversation new`",
    );
  const active = store.activeId();
  const width = Math.max(60, (ctx.stdout.columns ?? 100) - 4);
  const choices = [...refs].reverse().map((ref) => {
    const row = pickerRow(ctx, ref, width);
    return { value: ref.id, name: `${ref.id}${ref.id === active ? " *" : "  "} ${row}` };
  });
  const { default: select } = await import("@inquirer/select");
  try {
    const id = await select(
      { message, choices, ...(active ? { default: active } : {}), pageSize: 12 },
      { input: ctx.stdin, output: ctx.stderr },
    );
    return store.resolve(id);
  } catch (error) {
    if (error instanceof Error && (error.name === "ExitPromptError" || error.name === "AbortPromptError"))
      return undefined;
    throw error;
  }
}
