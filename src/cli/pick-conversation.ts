// Owns choosing a conversation interactively when a command that takes one is
// run on a terminal without it: a list to move through with the arrow keys.
// The prompt library loads only here, when it is used.
import { UsageError } from "../errors.js";
import { visible } from "../render/visible.js";
import type { ConversationRef } from "../store/conversations.js";
import type { Context } from "./context.js";

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
  const choices = [...refs].reverse().map((ref) => {
    const title = store.metadata(ref).title;
    return {
      value: ref.id,
      name: `${ref.id}${ref.id === active ? " *" : "  "} ${title ? visible(title) : ctx.color.dim("(untitled)")}`,
    };
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
