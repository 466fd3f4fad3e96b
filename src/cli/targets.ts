// Owns JP's conversation keywords that need the terminal: `?` (choose from a
// list) and `-` (ids read from standard input, one per line). They are turned
// into ids before a command runs, so every command that takes a conversation
// takes them; the keywords the store knows (`.`, `r`, `n`, jp-c…) pass on.
import type { Command } from "commander";
import { UsageError } from "../errors.js";
import type { Context } from "./context.js";

/** Commands whose `id`/`ids` arguments name conversations (`model show [id]` names a model). */
const CONVERSATION_COMMANDS = new Set(["conversation", "doctor"]);

function takesConversations(command: Command): boolean {
  for (let at: Command | null = command; at; at = at.parent)
    if (CONVERSATION_COMMANDS.has(at.name())) return true;
  return false;
}

/** An id as jp and JP write it. */
const ID_WORD = /^(jp-c)?\d+$/;

/**
 * The ids piped in, one per line: a line's only word, or the first word of
 * it that is an id, so that `jp c ls` (its header and its `*`) can be piped back.
 */
async function idsFromStdin(ctx: Context): Promise<string[]> {
  if (await ctx.stdinIsTTY())
    throw new UsageError("`-` reads conversation ids from standard input", "pipe them in, one per line");
  return (await ctx.readStdin()).split("\n").flatMap((line) => {
    const words = line.trim().split(/\s+/).filter(Boolean);
    const id = words.length === 1 ? words[0] : words.find((w) => ID_WORD.test(w));
    return id === undefined ? [] : [id];
  });
}

async function picked(ctx: Context): Promise<string> {
  const terminal = ctx.stdin.isTTY === true && ctx.stderr.isTTY === true;
  if (!terminal)
    throw new UsageError("`?` chooses from a list, which needs a terminal", "give the conversation's id");
  const { pickConversation } = await import("./pick-conversation.js");
  const ref = await pickConversation(ctx, "Choose a conversation");
  if (!ref) throw new UsageError("nothing chosen", "give the conversation's id, or choose one from the list");
  return ref.id;
}

/** One target as ids: `-` may give several, `?` gives the one chosen. */
async function expand(ctx: Context, value: string): Promise<string[]> {
  if (value === "-") return idsFromStdin(ctx);
  if (value === "?") return [await picked(ctx)];
  return [value];
}

/** A target where the command takes one conversation. */
async function single(ctx: Context, value: string, what: string): Promise<string> {
  const ids = await expand(ctx, value);
  if (ids.length !== 1)
    throw new UsageError(
      `${what} takes one conversation, and \`-\` gave ${ids.length}`,
      "pipe in a single id, or use a command that takes several",
    );
  return ids[0]!;
}

/** Turn `?` and `-` in the command's conversation arguments and its --id into ids, in place, before it runs. */
export async function expandTargets(ctx: Context, command: Command): Promise<void> {
  const id: unknown = command.getOptionValue("id");
  if (typeof id === "string" && (id === "-" || id === "?"))
    command.setOptionValue("id", await single(ctx, id, "--id"));
  if (!takesConversations(command)) return;
  const args = command.processedArgs;
  for (const [i, argument] of command.registeredArguments.entries()) {
    if (argument.name() !== "id" && argument.name() !== "ids") continue;
    const value: unknown = args[i];
    if (Array.isArray(value)) {
      const ids: string[] = [];
      for (const item of value) ids.push(...(typeof item === "string" ? await expand(ctx, item) : []));
      args[i] = ids;
    } else if (value === "-" || value === "?") {
      args[i] = await single(ctx, value, `jp ${command.name()}`);
    }
  }
}
