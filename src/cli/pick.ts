// Owns which conversation a command works on when it may be chosen from a
// list: the one named, else (on a terminal, when no active one is meant) the
// one picked; the picker's module loads only when it is shown.
import { UsageError } from "../errors.js";
import type { ConversationRef } from "../store/conversations.js";
import type { Context } from "./context.js";

/**
 * The conversation `id` names; without one, the active one, or on a terminal
 * a choice from a list (`always`: even when one is active, as `use` wants).
 * Undefined when the person left the list without choosing.
 */
export async function conversationOrPick(
  ctx: Context,
  id: string | undefined,
  message: string,
  options: { always?: boolean } = {},
): Promise<ConversationRef | undefined> {
  const store = ctx.store();
  if (id !== undefined) return store.resolve(id);
  const terminal = ctx.stdin.isTTY === true && ctx.stderr.isTTY === true;
  if (!terminal || (!options.always && store.activeId())) {
    if (options.always)
      throw new UsageError("give the conversation's id", "or run it on a terminal to choose from a list");
    return store.resolve();
  }
  const { pickConversation } = await import("./pick-conversation.js");
  const ref = await pickConversation(ctx, message);
  if (!ref) ctx.info("nothing chosen");
  return ref;
}
