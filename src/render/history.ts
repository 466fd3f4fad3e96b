// Owns the readable rendering of a conversation's history (`print`).
import type { Palette } from "./palette.js";
import {
  isJsonObject,
  isKind,
  isKnown,
  NO_TURN,
  PROVIDER_BLOCK_KEY,
  REDACTED_REASONING_KEY,
  REFUSAL_KEY,
  STREAM_FAILED_KEY,
  TurnCounter,
  turnsLabel,
  type ChatRequest,
  type ChatResponse,
  EDITED_ARGUMENTS_KEY,
  type Event,
  type ToolCallRequest,
} from "../events/index.js";
import {
  FailedQuestions,
  isWorkRecord,
  retryOfRequest,
  type FailedQuestion,
  type TurnOrigin,
} from "../compaction/index.js";
import { counted } from "./words.js";
import { describePolicies } from "./compactions.js";
import { visible } from "./visible.js";
import { assertNever } from "../errors.js";

export interface HistoryOptions {
  color: Palette;
  /** Tool names by call id, for results shown without their request (a dropped-text file of stripped results). */
  toolNames?: ReadonlyMap<string, string>;
}

/** Text from outside jp, indented and made safe to print (render/visible). */
function indent(text: string, prefix = "  "): string {
  return visible(text)
    .split("\n")
    .map((l) => (l === "" ? "" : prefix + l))
    .join("\n");
}

function time(event: Event): string {
  return typeof event.timestamp === "string" ? event.timestamp.slice(0, 19).replace("T", " ") : "";
}

/**
 * Why an answer ends before it was complete, as its last event records it:
 * stopped at the terminal (Ctrl-C), its stream failed, or its output limit
 * reached; undefined for an answer that ended as the model ended it.
 */
function cutNote(metadata: Record<string, unknown>): string | undefined {
  if (metadata.interrupted === true) return "cut: stopped (Ctrl-C) before the answer was complete";
  const failed = metadata[STREAM_FAILED_KEY];
  if (typeof failed === "string") return `cut: its stream failed (${failed})`;
  if (metadata.stop_reason === "max_tokens") return "cut: the answer reached its output limit (max_tokens)";
  return undefined;
}

/** A response block, with a line saying it was cut when it was the last of an answer cut short. */
function renderResponse(e: ChatResponse, c: Palette): string {
  const metadata = isJsonObject(e.metadata) ? e.metadata : {};
  const block = responseBlock(e, metadata, c);
  const cut = cutNote(metadata);
  return cut ? `${block}\n${c.yellow(visible(`  ✂ ${cut}`))}` : block;
}

/** A response block: reasoning (or that it was redacted), text, a refusal, a provider's own block, data. */
function responseBlock(e: ChatResponse, metadata: Record<string, unknown>, c: Palette): string {
  if (e.reasoning !== undefined) {
    if (typeof metadata[REDACTED_REASONING_KEY] === "string")
      return c.dim(c.italic("reasoning (redacted by the provider; kept to be sent back)"));
    return `${c.dim(c.italic("reasoning"))}\n${c.dim(indent(e.reasoning))}`;
  }
  if (e.message !== undefined) {
    const label = metadata[REFUSAL_KEY] === true ? "assistant (refusal)" : "assistant";
    return `${c.bold(c.blue(label))}\n${indent(e.message)}`;
  }
  if (metadata[PROVIDER_BLOCK_KEY] === true && isJsonObject(e.data))
    return `${c.bold(c.blue(`assistant (${visible(String(e.data.type))})`))}\n${indent(JSON.stringify(e.data, null, 2))}`;
  return `${c.bold(c.blue("assistant (data)"))}\n${indent(JSON.stringify(e.data, null, 2))}`;
}

/** The size of `bytes` for people: 512 B, 1.2 KB, 3.4 MB. */
function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A question's attachments, one line each: where it came from, its type and size (the log holds it whole). */
function attachmentLines(e: ChatRequest, c: Palette): string {
  const lines = (e.attachments ?? []).map((a) => {
    const bytes = "text" in a ? Buffer.byteLength(a.text) : Math.floor((a.data.length * 3) / 4);
    return c.dim(`  attached: ${visible(a.source)} (${visible(a.media_type)}, ${size(bytes)})`);
  });
  return lines.length ? `\n${lines.join("\n")}` : "";
}

/** The model's own arguments of a call the user edited before it ran, and who edited them. */
function editOf(e: ToolCallRequest): { proposed: unknown; by: string } | undefined {
  const edit = isJsonObject(e.metadata) ? e.metadata[EDITED_ARGUMENTS_KEY] : undefined;
  if (!isJsonObject(edit) || !("proposed" in edit)) return undefined;
  return { proposed: edit.proposed, by: typeof edit.edited_by === "string" ? edit.edited_by : "user" };
}

/** One event as a few readable lines. */
export function renderEvent(event: Event, c: Palette, toolNames: Map<string, string>): string | undefined {
  // A kind this version does not know is shown by name; its content is kept in the log.
  if (!isKnown(event)) return c.dim(visible(`· ${event.kind} event`));
  const e = event;
  switch (e.type) {
    case "turn_start":
      return undefined;
    case "chat_request": {
      const who = isWorkRecord(e)
        ? "user (record of the work, sent by jp)"
        : e.author && e.author !== "user"
          ? `user (${visible(e.author)})`
          : "user";
      const retryOf = retryOfRequest(e);
      const again =
        retryOf !== undefined ? ` ${c.dim(`(asks turn ${retryOf + 1}'s failed question again)`)}` : "";
      return `${c.bold(c.green(who))}${again}\n${indent(e.content)}${attachmentLines(e, c)}`;
    }
    case "chat_response":
      return renderResponse(e, c);
    case "tool_call_request": {
      toolNames.set(e.id, e.name);
      const call = `${c.bold(c.yellow("tool call"))} ${c.yellow(visible(e.name))} ${c.dim(visible(e.id))}`;
      const args = indent(JSON.stringify(e.arguments, null, 2));
      const edit = editOf(e);
      if (!edit) return `${call}\n${args}`;
      const proposed = indent(JSON.stringify(edit.proposed, null, 2));
      return `${call} ${c.magenta(`(arguments edited by ${visible(edit.by)})`)}\n${args}\n  ${c.dim("the model proposed:")}\n${c.dim(proposed)}`;
    }
    case "tool_call_response": {
      const status = e.is_error ? c.red("error") : c.green("ok");
      return `${c.bold(c.yellow("tool result"))} ${c.yellow(visible(toolNames.get(e.id) ?? "unknown"))} ${c.dim(visible(e.id))} ${status}\n${indent(e.content)}`;
    }
    case "inquiry_request":
    case "inquiry_response":
      return c.dim(
        `${e.type.replace("_", " ")} ${JSON.stringify({ ...e, type: undefined, timestamp: undefined })}`,
      );
    case "config_delta":
      return c.dim(visible(`· configuration changed (${Object.keys(e.delta).join(", ") || "empty"})`));
    case "compaction": {
      const deferred =
        e.deferred_until_turn !== undefined ? `, deferred until turn ${e.deferred_until_turn + 1}` : "";
      const note = e.note ? ` — ${e.note}` : "";
      return c.dim(
        visible(
          `· compaction ${e.id} of ${turnsLabel(e.from_turn, e.to_turn)} by ${e.source} (${describePolicies(e)}${deferred})${note}`,
        ),
      );
    }
    case "compaction_reset":
      return c.dim(visible(`· compaction reset (${e.ids ? e.ids.join(", ") : "all"})`));
    case "pin":
      return c.dim(
        visible(
          `· turn ${e.turn + 1} ${e.pinned ? "pinned: no compaction changes it" : "unpinned"}${e.note ? ` — ${e.note}` : ""}`,
        ),
      );
    case "request_failed":
      return c.yellow(
        visible(
          `✗ the question of turn ${e.turn + 1} failed: ${e.reason}; that turn is not sent to the model`,
        ),
      );
    default:
      return assertNever(e, "event kind");
  }
}

/** The whole history, turn by turn, 1-based, with global entries shown where they sit. */
export function renderHistory(events: readonly Event[], options: HistoryOptions, firstTurn = 0): string {
  return [...historyBlocks(events, options, firstTurn)].join("\n\n");
}

/** The blocks of the history one at a time (a turn header, an event), so a long one can be streamed. */
export function* historyBlocks(
  events: Iterable<Event>,
  options: HistoryOptions,
  firstTurn = 0,
): Generator<string> {
  const c = options.color;
  const toolNames = new Map<string, string>(options.toolNames);
  const counter = new TurnCounter();
  const questions = new FailedQuestions();
  let currentTurn = -1;
  for (const e of events) {
    const turn = counter.next(e);
    questions.add(e, turn === NO_TURN ? NO_TURN : turn + firstTurn);
    if (turn !== NO_TURN && turn + firstTurn !== currentTurn) {
      currentTurn = turn + firstTurn;
      yield c.bold(`── turn ${currentTurn + 1} ${"─".repeat(40)} ${c.dim(time(e))}`);
    }
    const text = renderEvent(e, c, toolNames);
    if (text !== undefined) yield text;
  }
  const failures = questions.finish();
  if (failures.length) yield renderFailures(failures, c);
}

/** What came of a failed question, in the words print and show use. */
export function fateOf(q: FailedQuestion): string {
  return q.retriedAs !== undefined ? `asked again as turn ${q.retriedAs + 1}` : "never answered";
}

/** What came of each failed question: asked again in a later turn, or never answered. */
export function renderFailures(failures: readonly FailedQuestion[], c: Palette): string {
  const lines = failures.map((q) => `  turn ${q.turn + 1}: ${visible(q.reason)} — ${fateOf(q)}`);
  return c.yellow(
    [`${counted(failures.length, "failed question")}, not sent to the model:`, ...lines].join("\n"),
  );
}

export interface CompactedTurn {
  origin: TurnOrigin;
  events: Event[];
}

export interface SummaryInfo {
  source: string;
  note?: string;
  supplied: boolean;
  author?: string;
  /** Who changed the author's text before it was recorded. */
  editedBy?: string;
  model?: string;
  /** Written by the provider's own compaction: its block goes to the model that wrote it. */
  byProvider?: boolean;
}

/**
 * What the model sees, turn by turn, each headed with the raw turn (or raw
 * range) it came from; summaries say who wrote them; stripped tool calls are marked.
 */
export function renderCompacted(
  turns: readonly CompactedTurn[],
  rawToolCalls: ReadonlyMap<string, { arguments: Record<string, unknown>; content?: string }>,
  summaries: ReadonlyMap<string, SummaryInfo>,
  options: HistoryOptions,
  /** Tool names by call id, shared when the view is rendered a turn at a time. */
  toolNames = new Map<string, string>(),
): string {
  const c = options.color;
  const blocks: string[] = [];
  for (const turn of turns) {
    const o = turn.origin;
    if (o.kind === "kept") {
      blocks.push(c.bold(`── turn ${o.turn + 1} ${"─".repeat(40)}`));
    } else {
      const info = summaries.get(o.compaction);
      const who = info
        ? `${info.supplied ? `written by ${info.author ?? "user"}${info.editedBy ? `, edited by ${info.editedBy}` : ""}` : `generated${info.model ? ` by ${info.model}` : ""}${info.byProvider ? " as its own compaction block" : ""}`}, ${info.source} compaction`
        : "";
      blocks.push(
        c.bold(
          c.magenta(`── turns ${o.from + 1}–${o.to + 1} (summary${who ? `, ${who}` : ""}) ${"─".repeat(20)}`),
        ),
      );
      if (info?.note) blocks.push(c.dim(`note: ${info.note}`));
    }
    for (const e of turn.events) {
      if (isKind(e, "tool_call_request")) {
        const raw = rawToolCalls.get(e.id);
        const stripped =
          raw && Object.keys(e.arguments).length === 0 && Object.keys(raw.arguments).length > 0;
        const text = renderEvent(e, c, toolNames);
        if (text) blocks.push(stripped ? `${text} ${c.red("[arguments stripped]")}` : text);
        continue;
      }
      if (isKind(e, "tool_call_response")) {
        const raw = rawToolCalls.get(e.id);
        const stripped =
          raw?.content !== undefined && raw.content !== e.content && e.content.startsWith("[compacted] ");
        const text = renderEvent(e, c, toolNames);
        if (text) blocks.push(stripped ? text.replace(/\n/, ` ${c.red("[result stripped]")}\n`) : text);
        continue;
      }
      const text = renderEvent(e, c, toolNames);
      if (text !== undefined) blocks.push(text);
    }
  }
  return blocks.join("\n\n");
}
