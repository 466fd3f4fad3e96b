// Owns which conversation `jp q` asks in and what it keeps there: the
// configuration for the query, the model and persona the conversation keeps,
// a new or an unsaved conversation, and an interrupted turn answered.
import { JP_EFFORT_NAMES, jpEffortLevel } from "../../config/jp-efforts.js";
import { setValueAt, valueAt } from "../../config/paths.js";
import type { Config } from "../../config/schema.js";
import { UsageError } from "../../errors.js";
import { isJsonObject, repairInterruptedTurn, type Event } from "../../events/index.js";
import { counted } from "../../render/words.js";
import { forkConversation } from "../../service/fork.js";
import { idForTime, type ConversationRef } from "../../store/conversations.js";
import type { Context } from "../context.js";
import { titleFrom } from "./after.js";
import type { QOptions } from "./options.js";

/** The configuration of this query, read once: the conversation's, with -m, -r and -R on top. */
export async function configForQuery(ctx: Context, existing: ConversationRef | undefined, opts: QOptions) {
  return ctx.config({
    conversation: existing,
    flags: (before: Config) => queryFlags(opts, before),
    askTrust: true,
  });
}

/** What -m, -r and -R set; a bare -r thinks at the configured effort, or at medium where none is configured. */
function queryFlags(opts: QOptions, before: Config): Record<string, unknown> | undefined {
  const model = opts.model ? { model: { id: opts.model } } : {};
  if (opts.reasoningEffort !== undefined) {
    const effort = jpEffortLevel(opts.reasoningEffort);
    if (effort === undefined)
      throw new UsageError(
        `-r ${opts.reasoningEffort} is not an effort`,
        `the efforts are ${JP_EFFORT_NAMES.join(", ")}; -r alone thinks at the configured one (a one-word question goes before -r)`,
      );
    return { assistant: { ...model, reasoning: { effort, budget_tokens: 0 } } };
  }
  if (opts.reasoning === false)
    return { assistant: { ...model, reasoning: { effort: "none", budget_tokens: 0 } } };
  const configured = before.assistant?.reasoning;
  const thinking = (configured?.effort && configured.effort !== "none") || configured?.budget_tokens;
  if (opts.reasoning && !thinking) return { assistant: { ...model, reasoning: { effort: "medium" } } };
  return opts.model ? { assistant: model } : undefined;
}

/**
 * Which model a turn uses, by one rule: -m, else the model the conversation
 * recorded (a -m before it, or a JP conversation's config), else the user's
 * config. A model that is not the user's configured one is named on the
 * turn's first line; -m is recorded (a config delta, as JP does) so the
 * conversation keeps it.
 */
export function keepModel(
  ctx: Context,
  ref: ConversationRef,
  existing: ConversationRef | undefined,
  opts: QOptions,
  modelId: string,
  origin: string | undefined,
  beforeFlags: Config,
): void {
  // Said when the model changes: not on every turn of a conversation that keeps answering with it.
  if (origin?.startsWith("conversation") && existing && lastAnsweredBy(ctx, existing) !== modelId)
    ctx.info(ctx.color.dim(`${modelId}: this conversation's model, as it recorded it (-m changes it)`));
  if (!opts.model) return;
  const recorded = existing ? beforeFlags.assistant?.model?.id : undefined;
  if (recorded === modelId) return;
  ctx.info(
    ctx.color.dim(
      `${modelId}: given with -m${opts.persist ? ", and kept for this conversation's next turns" : ""}`,
    ),
  );
  if (!opts.persist) return;
  ctx.store().append(ref, [
    {
      type: "config_delta",
      timestamp: ctx.clock.now().toISOString(),
      delta: { assistant: { model: { id: modelId } } },
    },
  ]);
}

/**
 * What `-c` gave this query's assistant (a persona's model, prompt, reasoning)
 * is recorded as a config delta, as JP records the CLI's config, so that the
 * conversation's next `jp q` keeps the persona. Only `assistant` settings: a
 * conversation's recorded tools are the user's config's to allow (trust.ts).
 */
export function keepPersona(
  ctx: Context,
  ref: ConversationRef,
  opts: QOptions,
  config: Config,
  origins: ReadonlyMap<string, string>,
): void {
  if (!opts.persist || ctx.cfg.length === 0) return;
  const delta: Record<string, unknown> = {};
  for (const [key, layer] of origins) {
    // Layers are named `-c SPEC`, or for a JP workspace "JP workspace (…, -c SPEC, read as JP's)".
    // The tools a persona turns on stay on too, as in JP (applied again only in a trusted workspace).
    const kept = key.startsWith("assistant.") || /^conversation\.tools\.[^.]+\.enable$/.test(key);
    if (!kept || !/(^|[ (,])-c /.test(layer)) continue;
    const keys = key.split(".");
    setValueAt(delta, keys, valueAt(config, keys));
  }
  if (Object.keys(delta).length === 0) return;
  ctx.store().append(ref, [{ type: "config_delta", timestamp: ctx.clock.now().toISOString(), delta }]);
}

/** The model the conversation's last answer names (its metadata), if any. */
function lastAnsweredBy(ctx: Context, ref: ConversationRef): string | undefined {
  const events = ctx.store().readEvents(ref);
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    if (e.type !== "chat_response") continue;
    const model = isJsonObject(e.metadata) ? e.metadata.model : undefined;
    return typeof model === "string" ? model : undefined;
  }
  return undefined;
}

/**
 * The conversation asked in: --id's, else the active one; none with --new or
 * when none is active. With --fork, a fork of it (made active), as JP does.
 */
export function existingConversation(ctx: Context, opts: QOptions): ConversationRef | undefined {
  const store = ctx.store();
  if (opts.new) return undefined;
  const asked = opts.id ? store.resolve(opts.id) : store.activeId() ? store.resolve() : undefined;
  if (opts.forkLast === undefined || !opts.persist) return asked;
  if (!asked) throw new UsageError("--fork needs a conversation to fork", "give --id ID, or make one active");
  const last = opts.forkLast === "all" ? undefined : Number(opts.forkLast);
  if (last !== undefined && (!Number.isInteger(last) || last < 1))
    throw new UsageError(`--fork=${opts.forkLast} takes a positive number of turns`);
  const { ref } = forkConversation(store, asked, last !== undefined ? { last } : {});
  store.setActive(ref.id);
  ctx.info(ctx.color.dim(`forked ${asked.id} into ${ref.id}; asking there`));
  return ref;
}

/**
 * The conversation the turn goes into: the existing one (titled by its first
 * question, made active unless --id named it), a new one, or with
 * --no-persist one that exists only in memory.
 */
export function conversationFor(
  ctx: Context,
  existing: ConversationRef | undefined,
  query: string,
  opts: QOptions,
): ConversationRef {
  const store = ctx.store();
  const given = typeof opts.title === "string" ? opts.title.trim() || undefined : undefined;
  const title = opts.title === false ? undefined : (given ?? titleFrom(query));
  const ref = existing ?? (opts.persist ? store.create(title ? { title } : {}) : unsavedConversation(ctx));
  if (!opts.persist) return ref;
  if (!existing) ctx.info(ctx.color.dim(`new conversation ${ref.id}`));
  // --title retitles; a conversation made by `jp conversation new` gets its title from its first question.
  else if (given !== undefined || (title !== undefined && store.metadata(ref).title === undefined))
    store.updateMetadata(ref, (m) => ({ ...m, title }));
  // --id asks in that conversation "instead of the active one": the active one stays.
  if (opts.id === undefined) store.setActive(ref.id);
  return ref;
}

/** Tools whose `key` (command or source) the conversation's recorded config set: they are always asked for. */
export function setByConversation(
  origins: ReadonlyMap<string, string>,
  key: "command" | "source",
): Set<string> {
  const names = new Set<string>();
  for (const [k, layer] of origins) {
    const [root, tools, name, field] = k.split(".");
    if (
      root === "conversation" &&
      tools === "tools" &&
      name &&
      field === key &&
      layer.startsWith("conversation")
    )
      names.add(name);
  }
  return names;
}

/** A process killed while a tool ran left its call unanswered: answer it, visibly, so the turn can go on. */
export function repairInterruption(
  ctx: Context,
  memory: readonly Event[],
  record: (group: readonly Event[]) => void,
) {
  const repairs = repairInterruptedTurn(memory, ctx.clock.now().toISOString());
  if (repairs.length === 0) return;
  record(repairs);
  const calls = repairs.filter((r) => r.type === "tool_call_response").length;
  if (calls > 0)
    ctx.warn(`${counted(calls, "tool call")} of an interrupted turn had no result; recorded as interrupted`);
  if (calls < repairs.length)
    ctx.warn(
      "the previous question got no answer (interrupted); it is kept in the log but not sent again (`jp q --retry` asks it again)",
    );
}

/** A conversation that is never written: what `jp q -n --no-persist` talks in. */
function unsavedConversation(ctx: Context): ConversationRef {
  const id = idForTime(ctx.clock.now());
  return { id, folder: id, dir: "" };
}
