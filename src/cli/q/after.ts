// Owns what follows a `jp q` turn: a failed query said, the title written,
// the usage and cost reported, the price data refreshed in the background.
import * as os from "node:os";
import * as path from "node:path";
import { streamShape } from "../../compaction/index.js";
import { PACKAGE_ROOT } from "../../config/package-root.js";
import type { Config } from "../../config/schema.js";
import { UsageError } from "../../errors.js";
import {
  isKind,
  sumUsage,
  turnIndices,
  usageByModel,
  type Attachment,
  type Event,
} from "../../events/index.js";
import { priceOf } from "../../llm/model-info.js";
import { priceDataStale } from "../../llm/price-data.js";
import { estimateTotalCost } from "../../llm/pricing.js";
import { usageLine } from "../../render/usage.js";
import { visible } from "../../render/visible.js";
import { type ConversationRef } from "../../store/conversations.js";
import type { Context } from "../context.js";

/**
 * The question of the conversation's newest failed request, for --retry,
 * unless it was asked again already (a retry's question names the turn it
 * repeats in `metadata.retry_of`): --retry asks once.
 */
export function failedQuery(
  ctx: Context,
  words: string[],
  ref: ConversationRef | undefined,
): { query: string; turn: number; attachments: Attachment[] } {
  if (words.length > 0)
    throw new UsageError("--retry asks the failed question again; give no new one with it");
  if (!ref) throw new UsageError("--retry needs a conversation", "give --id ID, or make one active");
  const events = ctx.store().readEvents(ref);
  const shape = streamShape(events);
  const newest = [...shape.failures, ...shape.cutAnswers].sort((a, b) => a.turn - b.turn).at(-1);
  const turns = turnIndices(events);
  const request = newest && events.find((e, i) => turns[i] === newest.turn && isKind(e, "chat_request"));
  if (!newest || !request || !isKind(request, "chat_request"))
    throw new UsageError("this conversation has no failed question to ask again");
  if (newest.retriedAs !== undefined)
    throw new UsageError(
      `the failed question of turn ${newest.turn + 1} was asked again in turn ${newest.retriedAs + 1}; --retry asks once`,
      "ask it anew with jp q, if you want it asked again",
    );
  return { query: request.content, turn: newest.turn, attachments: request.attachments ?? [] };
}

/**
 * With `conversation.title.generate.model` set, a new conversation's title is
 * written by that model once the first answer is in; when it cannot be, the
 * first question stays the title, and jp says why.
 */
export async function titleByModel(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  query: string,
  turn: readonly Event[],
): Promise<void> {
  const model = config.conversation?.title?.generate?.model?.id;
  if (!model) return;
  const answer = turn.flatMap((e) =>
    isKind(e, "chat_response") && typeof e.message === "string" ? [e.message] : [],
  );
  try {
    const { generateTitle } = await import("../../llm/title.js");
    const title = await generateTitle(query, answer.join("\n"), model, config, ctx.env);
    if (!title) return;
    const store = ctx.store();
    store.updateMetadata(ref, (m) => ({ ...m, title: titleFrom(title) }));
    ctx.info(ctx.color.dim(`titled "${visible(titleFrom(title))}" by ${model}`));
  } catch (error) {
    ctx.warn(
      `${model} could not title the conversation (${error instanceof Error ? error.message : String(error)}); its first question is the title`,
    );
  }
}

/** A title from a question: its first line, at most 60 characters, cut at a word. */
export function titleFrom(query: string): string {
  const line = (query.split("\n").find((l) => l.trim() !== "") ?? "").replace(/\s+/g, " ").trim();
  if (line.length <= 60) return line;
  const cut = line.slice(0, 60);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** One dim line after the turn: what its requests cost, cached input included. */
export function reportUsage(ctx: Context, events: readonly Event[], config: Config): void {
  const byModel = usageByModel(events);
  const total = sumUsage(Object.values(byModel));
  if (total.requests === 0) return;
  // The model is named: a conversation's recorded config may choose another than the user's, at another price.
  const models = Object.keys(byModel).join(", ");
  ctx.info(
    ctx.color.dim(
      `${models} · ${usageLine(
        total,
        estimateTotalCost(byModel, (model) => priceOf(model, config, ctx.env, ctx.clock.now())),
      )}`,
    ),
  );
}

/**
 * Once a week, the maintained price data is fetched by a process of its own,
 * detached, after the answer: no turn waits on the network for it, and a
 * failure only means the copy jp holds is used a day longer.
 */
export async function refreshPricesInBackground(ctx: Context): Promise<void> {
  if (!priceDataStale(ctx.env, ctx.clock.now())) return;
  // Loaded only on the turn that starts it, once a week.
  const { spawn } = await import("node:child_process");
  try {
    spawn(process.execPath, [path.join(PACKAGE_ROOT, "bin/jp"), "__refresh-prices"], {
      detached: true,
      stdio: "ignore",
      env: ctx.env,
      cwd: os.tmpdir(),
    }).unref();
  } catch {
    // Not started (no process left to spawn): the next turn tries again.
  }
}
