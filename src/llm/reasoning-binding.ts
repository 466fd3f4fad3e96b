// Owns which earlier reasoning goes back to a model that binds each reasoning
// block to the request it was written in (Anthropic's preserved thinking,
// from Claude Fable 5.1 on). As the platform docs state it
// (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking):
// a block is valid only while its prefix (the system prompt, the tools and
// every earlier message, earlier thinking not included) is as it was sent
// then; thinking may be removed from the start of the history, from its end,
// or all of it, but a gap, or a block put back, invalidates what follows. So
// each block records digests of its prefix and where it stood among the
// thinking sent with it when it is written (`bindReasoning`), and every request
// leaves out the blocks that would fail (`boundReasoning`). The log keeps them
// all. Every provider's request is built from what this leaves in: one
// decision for all of them.
import type { Hash } from "node:crypto";
import {
  ASKED_FOR_TOOL_KEY,
  type ChatResponse,
  type Event,
  isJsonObject,
  isKnown,
  isSent,
  type JsonObject,
  OPENAI_REASONING_ITEM_KEY,
  PROVIDER_SUMMARY_KEY,
  REASONING_BINDING_KEY,
  REASONING_LEFT_OUT_KEY,
  REASONING_SIGNATURE_KEY,
  REDACTED_REASONING_KEY,
  TOOL_CHANGES_KEY,
  TOOL_IMAGES_KEY,
  CITATIONS_KEY,
  GEMINI_SIGNATURE_KEY,
  REASONING_DETAILS_KEY,
} from "../events/index.js";
import { capToolOutputs, project, type OutputCap, type Projection } from "../compaction/index.js";
import type { TokenCounter } from "../tokens/count.js";
import type { ToolDefinition } from "./types.js";

/**
 * Why a reasoning block is not sent back: `history`, what came before it
 * changed (a compaction); `order`, thinking before it was left out while
 * older thinking still goes (a gap) or thinking it was written without was put
 * back; `header`, the system prompt or the tools changed;
 * `unbound`, it has no record of its prefix (an older log) and something
 * before it may have changed (it comes after where the view differs from the
 * log as it was, or the provider refused such reasoning); `refused`, the
 * provider refused the request it was in.
 */
export type LeftOutReason = "history" | "order" | "header" | "unbound" | "refused";

/**
 * What a reasoning block records of the request it was written in: the
 * digests of its header and of its history, and the thinking sent before it
 * (how many blocks, and the last one's id). A jp before the order was recorded
 * digested the history with the thinking in it (`order` absent).
 */
export interface ReasoningBinding {
  header: string;
  history: string;
  order?: ThinkingOrder;
}

/** The thinking sent before a block when it was written: how many blocks, and the last one's id ("" for none). */
export interface ThinkingOrder {
  count: number;
  after: string;
}

const isReasoning = (e: Event): e is ChatResponse =>
  e.type === "chat_response" && typeof e.reasoning === "string";

const metadataOf = (e: Event): JsonObject => (isKnown(e) && isJsonObject(e.metadata) ? e.metadata : {});

/**
 * What of an event reaches the model, as tagged texts: its text, calls and
 * results, and the signatures and encrypted content a provider checks, in
 * every provider's terms (a provider maps it the same way each time, so a
 * change here is a change there). Timestamps, usage and jp's own notes are
 * left out: they are never sent. Long texts stand as they are, so hashing
 * them costs no copy.
 */
function sentParts(e: Event): [string, string][] | undefined {
  if (!isSent(e)) return undefined;
  const m = metadataOf(e);
  const json = (value: unknown[]) => JSON.stringify(value);
  switch (e.type) {
    case "chat_request": {
      const parts: [string, string][] = [
        ["q", e.content],
        ["a", json([e.attachments ?? [], m[ASKED_FOR_TOOL_KEY] ?? null])],
      ];
      // The tools it changed, said after it (a part only where there is one, so older logs digest as they did).
      if (m[TOOL_CHANGES_KEY] !== undefined) parts.push(["u", json([m[TOOL_CHANGES_KEY]])]);
      return parts;
    }
    case "chat_response":
      if (typeof e.reasoning === "string")
        return [
          ["r", e.reasoning],
          [
            "s",
            json([
              m[REASONING_SIGNATURE_KEY] ?? null,
              m[REDACTED_REASONING_KEY] ?? null,
              m[OPENAI_REASONING_ITEM_KEY] ?? null,
              m[GEMINI_SIGNATURE_KEY] ?? null,
            ]),
          ],
        ];
      if (typeof e.message === "string")
        return [
          ["m", e.message],
          [
            "x",
            json([
              m[CITATIONS_KEY] ?? null,
              m[GEMINI_SIGNATURE_KEY] ?? null,
              m[REASONING_DETAILS_KEY] ?? null,
              m[PROVIDER_SUMMARY_KEY] ?? null,
            ]),
          ],
        ];
      return [["d", json([e.data ?? null])]];
    case "tool_call_request":
      return [["c", json([e.id, e.name, e.arguments, m[GEMINI_SIGNATURE_KEY] ?? null])]];
    case "tool_call_response":
      return [
        ["t", e.id],
        ["o", e.content],
        ["e", json([e.is_error, m[TOOL_IMAGES_KEY] ?? null])],
      ];
  }
}

/** The parts as one line, to compare two events by what they send. */
function sentForm(e: Event): string | undefined {
  const parts = sentParts(e);
  return parts && JSON.stringify(parts);
}

const short = (hash: Hash): string => hash.digest("base64url").slice(0, 22);

/** A SHA-256 hash; node:crypto loads only for a model that binds its reasoning (it costs a start 2.5 ms). */
const sha256 = (): Hash => process.getBuiltinModule("node:crypto").createHash("sha256");

/** The digest of a request's header: its system prompt and its tools loaded up front, in order. */
export function headerDigest(system: string | undefined, tools: readonly ToolDefinition[]): string {
  const loaded = tools.filter((t) => t.deferred !== true);
  return short(
    sha256().update(JSON.stringify([system ?? "", loaded.map((t) => [t.name, t.description, t.parameters])])),
  );
}

/**
 * The digest of a history as sent, event by event, its thinking left out
 * (earlier thinking is no part of a block's prefix; `withReasoning`: in, as
 * a jp before the order was recorded digested it). Turn by turn it is a chain
 * (each turn's link the digest of the one before and the turn's events), so
 * it can go on from a recorded point: after a summary the provider wrote,
 * from the history the summary stands for, as the provider itself goes on
 * from it. Within a turn one hash runs on (read at any point without a
 * boundary), so reading it where a block is checked changes nothing.
 */
class HistoryChain {
  /** The digest at the end of the last turn. */
  private before = "";
  /** The turn in progress: the hash of `before` and its events so far; none while it has none. */
  private turn: Hash | undefined;

  constructor(private readonly withReasoning = false) {}

  get value(): string {
    return this.turn ? short(this.turn.copy()) : this.before;
  }

  add(e: Event): void {
    if (e.type === "turn_start") {
      if (this.turn) this.before = short(this.turn);
      this.turn = undefined;
      return;
    }
    if (!this.withReasoning && isReasoning(e)) return;
    const parts = sentParts(e);
    if (!parts) return;
    const hash = (this.turn ??= sha256().update(this.before));
    // Each text with its tag and length: no two histories read alike.
    for (const [tag, text] of parts) hash.update(`${tag}${text.length}:`).update(text);
    const provider = metadataOf(e)[PROVIDER_SUMMARY_KEY];
    if (isJsonObject(provider) && typeof provider.continues === "string") {
      this.before = provider.continues;
      this.turn = undefined;
    }
  }
}

/**
 * The digest of a history as sent (what a summary the provider writes of it
 * stands for); `withReasoning`, as a jp before the order was recorded digested it.
 */
export function historyDigest(events: readonly Event[], withReasoning = false): string {
  const chain = new HistoryChain(withReasoning);
  for (const e of events) chain.add(e);
  return chain.value;
}

/** A reasoning block's id, as a later block's order names it: the digest of what it sends. */
const reasoningId = (e: ChatResponse): string => short(sha256().update(sentForm(e) ?? ""));

function bindingOf(e: Event): ReasoningBinding | undefined {
  const b = metadataOf(e)[REASONING_BINDING_KEY];
  if (!isJsonObject(b) || typeof b.header !== "string" || typeof b.history !== "string") return undefined;
  const o = b.order;
  const order =
    isJsonObject(o) && typeof o.count === "number" && typeof o.after === "string"
      ? { count: o.count, after: o.after }
      : undefined;
  return { header: b.header, history: b.history, ...(order ? { order } : {}) };
}

/**
 * Whether thinking sent before a block (`sent`, their ids in order) is what
 * it may follow: none at all (every earlier block removed, oldest first), or
 * at most as many as when it was written, ending with the one it was written
 * after. A block left out between (a gap) or put back before breaks that.
 */
function inOrder(sent: readonly string[], order: ThinkingOrder): boolean {
  return sent.length === 0 || (sent.length <= order.count && sent.at(-1) === order.after);
}

export interface LeftOutReasoning {
  /** Its position in the view it was left out of. */
  index: number;
  reason: LeftOutReason;
}

export interface BoundReasoning {
  /** The view without the reasoning left out. */
  events: Event[];
  leftOut: LeftOutReasoning[];
  /** Where position `i` of the view is in `events` (the count of kept events before it). */
  position: (i: number) => number;
}

/** Where the walk of a view stands: its history digests and the thinking kept so far. */
interface Walk {
  history: HistoryChain;
  /** The history with its thinking, for blocks an older jp bound; only when the view holds one. */
  legacy: HistoryChain | undefined;
  sent: string[];
}

/**
 * The view as a model with preserved thinking accepts it: each reasoning
 * block goes back only if the header and every sent event before it (thinking
 * aside) digest as they did when it was written, and the thinking kept before
 * it is what it may follow (the header is not compared when `header` is
 * undefined). A block with no record of that (an older log, a JP import) goes
 * back only before `unboundUntil` (a position of the view before which nothing
 * can have changed). `refuseAll`: every block is left out (the provider
 * refused them).
 */
export function boundReasoning(
  view: readonly Event[],
  header: string | undefined,
  options: { unboundUntil: number; refuseAll?: boolean },
): BoundReasoning {
  const legacy = view.some(
    (e) => isReasoning(e) && bindingOf(e)?.order === undefined && bindingOf(e) !== undefined,
  );
  const walk: Walk = {
    history: new HistoryChain(),
    legacy: legacy ? new HistoryChain(true) : undefined,
    sent: [],
  };
  const events: Event[] = [];
  const leftOut: LeftOutReasoning[] = [];
  const kept: number[] = [];
  view.forEach((e, index) => {
    kept.push(events.length);
    if (isReasoning(e)) {
      const reason = options.refuseAll ? "refused" : unchanged(e, header, walk, index < options.unboundUntil);
      if (reason !== undefined) {
        leftOut.push({ index, reason });
        return;
      }
      walk.sent.push(reasoningId(e));
    }
    walk.history.add(e);
    walk.legacy?.add(e);
    events.push(e);
  });
  return { events, leftOut, position: (i) => (i < kept.length ? kept[i]! : events.length) };
}

/** Why a block is left out, or undefined when its prefix and its place are as they were. */
function unchanged(
  e: ChatResponse,
  header: string | undefined,
  walk: Walk,
  trustUnbound: boolean,
): LeftOutReason | undefined {
  const binding = bindingOf(e);
  if (!binding) return trustUnbound ? undefined : "unbound";
  if (header !== undefined && binding.header !== header) return "header";
  if (!binding.order) return binding.history === walk.legacy?.value ? undefined : "history";
  if (binding.history !== walk.history.value) return "history";
  return inOrder(walk.sent, binding.order) ? undefined : "order";
}

/**
 * Record on each reasoning block of `responses` what it is bound to: the
 * request's header, its events as sent (thinking aside) and the blocks of
 * the same response before it, and the thinking sent before it.
 */
export function bindReasoning(sent: readonly Event[], header: string, responses: readonly Event[]): void {
  if (!responses.some(isReasoning)) return;
  const chain = new HistoryChain();
  const ids: string[] = [];
  const add = (e: Event) => {
    chain.add(e);
    if (isReasoning(e)) ids.push(reasoningId(e));
  };
  sent.forEach(add);
  for (const e of responses) {
    if (isReasoning(e)) {
      const order = { count: ids.length, after: ids.at(-1) ?? "" };
      e.metadata = { ...metadataOf(e), [REASONING_BINDING_KEY]: { header, history: chain.value, order } };
    }
    // Its own id is taken after the binding is recorded: the binding is never sent.
    add(e);
  }
}

/**
 * Where two views first differ in what they send, as a position in `before`
 * (its length when `after` only appends to it). Every bound reasoning block
 * of `before` from there on stops going back once `after` is what is sent.
 */
export function firstChange(before: readonly Event[], after: readonly Event[]): number {
  const a = before.filter(isSent);
  const b = after.filter(isSent);
  let k = 0;
  while (k < a.length && k < b.length && sentForm(a[k]!) === sentForm(b[k]!)) k++;
  if (k === a.length) return before.length;
  return before.indexOf(a[k]!);
}

/** Whether a reasoning event recorded the prefix it is bound to (a model with preserved thinking wrote it). */
export function isBoundReasoning(e: Event): boolean {
  return isReasoning(e) && bindingOf(e) !== undefined;
}

/**
 * The bound reasoning that goes back while `before` is what is sent and stops
 * going back once `after` is, though `after` still shows it: the blocks whose
 * prefix the change reaches, and those a gap it makes puts out of order. What
 * the compaction itself removes (a summarised turn's thinking, or stripped
 * thinking) is its range's loss, not this; blocks already left out are not
 * counted; the header is taken as unchanged (a compaction does not touch it).
 */
export function reasoningLost(before: readonly Event[], after: readonly Event[]): ChatResponse[] {
  // Most conversations hold no bound reasoning: they pay for nothing more.
  if (!before.some(isBoundReasoning)) return [];
  const shown = new Set(after);
  // What goes back, before and after: the same decision every request makes, its header taken as unchanged.
  const sent = (view: readonly Event[]) =>
    new Set(boundReasoning(view, undefined, { unboundUntil: 0 }).events);
  const now = sent(before);
  const then = sent(after);
  return before.filter(
    (e): e is ChatResponse => isBoundReasoning(e) && now.has(e) && shown.has(e) && !then.has(e),
  );
}

/** Reasoning a compaction takes from what goes back: the raw turns (0-based) it was in, and its tokens. */
export interface LostReasoning {
  turns: number[];
  tokens: number;
}

/**
 * The reasoning that stops going back when the view `before` becomes
 * `after`: a model with preserved thinking reads a block only while all
 * before it (thinking aside) is unchanged and no thinking before it was left
 * out between, so a change loses the blocks after it, and a gap those after it.
 */
export function lostReasoning(before: Projection, after: Projection, counter: TokenCounter): LostReasoning {
  return lossOf(before, new Set<Event>(reasoningLost(before.events, after.events)), counter);
}

/** The raw turns of `before` that hold `lost` reasoning, and its tokens. */
function lossOf(before: Projection, lost: ReadonlySet<Event>, counter: TokenCounter): LostReasoning {
  const turns: number[] = [];
  for (const { origin, events } of before.turns)
    if (origin.kind === "kept" && events.some((e) => lost.has(e))) turns.push(origin.turn);
  return { turns, tokens: counter.events([...lost]) };
}

/**
 * A response's `input_transformations`, kept as the provider sent them: what
 * it changed in the request before the model read it (Anthropic's dropped
 * thinking blocks, OpenAI's removed reasoning items).
 */
export function inputTransformationsOf(response: object): JsonObject[] {
  const list: unknown = Reflect.get(response, "input_transformations");
  return Array.isArray(list) ? list.filter(isJsonObject) : [];
}

/** Whether the provider refused earlier reasoning in this conversation (recorded as left out, `refused`). */
export function refusedBefore(events: readonly Event[]): boolean {
  return events.some((e) => {
    const leftOut = metadataOf(e)[REASONING_LEFT_OUT_KEY];
    return Array.isArray(leftOut) && leftOut.some((l) => isJsonObject(l) && l.reason === "refused");
  });
}

/**
 * Where reasoning with no record of its prefix (an older log, a JP import)
 * stops going back: the first position of `view` (as shown, long outputs cut)
 * that differs from the log as it was before any compaction, or the start
 * after a refusal; it goes back only before it, where nothing can have changed.
 */
export function unboundUntil(
  events: readonly Event[],
  view: readonly Event[],
  cutOutputs: number,
  outputCap?: OutputCap,
): number {
  // A log all of whose reasoning is bound (any jp's since) pays for nothing more.
  if (!view.some((e) => isReasoning(e) && bindingOf(e) === undefined)) return view.length;
  if (refusedBefore(events)) return 0;
  // Nothing compacted and no output cut: the view is the log as it was.
  if (cutOutputs === 0 && !events.some((e) => e.type === "compaction")) return view.length;
  const raw = project(events.filter((e) => e.type !== "compaction")).events;
  return firstChange(view, outputCap ? capToolOutputs(raw, outputCap).events : raw);
}

/**
 * The reasoning that stops being read when the view `before` becomes `after`
 * on a model whose API drops reasoning after a prefix edit (GPT-6.2 on,
 * `dropsReasoningOnEdit`): "the Responses API drops reasoning items after
 * mid-conversation edits to the conversation history (prefix edits)"
 * (https://developers.openai.com/api/docs/guides/latest-model). jp sends it
 * on; the API drops every item from the first change on.
 */
export function droppedOnEdit(before: Projection, after: Projection, counter: TokenCounter): LostReasoning {
  const change = firstChange(before.events, after.events);
  const shown = new Set(after.events);
  return lossOf(
    before,
    new Set(before.events.filter((e, i) => i >= change && isReasoning(e) && shown.has(e))),
    counter,
  );
}
