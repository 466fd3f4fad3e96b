// Owns what `recall` reads back from the raw log: whole turns, one tool
// call's output in a range, or a search in what the view no longer shows
// (summarised or stripped by compaction, or cut from a long output). Never
// changes the log; every answer is bounded, with a note when more remains. Pure.
import { isKind, NO_TURN, TurnCounter, type Event } from "../events/index.js";
import { project } from "./project.js";
import { capToolOutputs, type OutputCap } from "./tool-output.js";
import { grouped } from "../numbers.js";

export interface RecallRequest {
  /** Raw turns, 1-based as the markers and `print` number them: "4" or "2-5". */
  turns?: string;
  /** A tool call id: its arguments and its recorded output, from `offset` for `length` characters. */
  call?: string;
  offset?: number;
  length?: number;
  /** Words searched, case-insensitively, in what the view does not show. */
  query?: string;
}

/** The most an answer holds, in characters, its notes included. */
export const RECALL_LIMIT = 16_000;
/** The most words a query searches for: each is looked for in every hidden piece. */
export const RECALL_QUERY_WORDS = 32;
/** The most characters of a call's arguments an answer about its output shows. */
const ARGUMENTS_SHOWN = 2_000;
/** Room kept for a note naming what to ask for next. */
const NOTE_ROOM = 200;

export type RecallAnswer = { ok: true; text: string } | { ok: false; error: string };

/** One piece of text of a log, as recall shows it and grep searches it. */
export interface Piece {
  turn: number;
  label: string;
  text: string;
  /** The tool call it belongs to, when it does. */
  call?: string;
}

/**
 * Every piece of text a log holds, in order, with its 0-based turn (from
 * `firstTurn` on, for a part of a log). One at a time, so a log read as it
 * streams is searched in bounded memory.
 */
export function* textPieces(events: Iterable<Event>, firstTurn = 0): Generator<Piece> {
  const counter = new TurnCounter();
  const names = new Map<string, string>();
  for (const e of events) {
    const local = counter.next(e);
    if (local === NO_TURN) continue;
    const turn = local + firstTurn;
    if (isKind(e, "chat_request")) {
      yield { turn, label: "user", text: e.content };
      for (const a of e.attachments ?? [])
        if ("text" in a) yield { turn, label: `attachment ${a.source}`, text: a.text };
    } else if (isKind(e, "chat_response")) {
      if (typeof e.reasoning === "string") yield { turn, label: "reasoning", text: e.reasoning };
      else if (typeof e.message === "string") yield { turn, label: "assistant", text: e.message };
    } else if (isKind(e, "tool_call_request")) {
      names.set(e.id, e.name);
      yield { turn, label: `tool call ${e.name} ${e.id}`, text: JSON.stringify(e.arguments), call: e.id };
    } else if (isKind(e, "tool_call_response")) {
      const name = names.get(e.id) ?? "unknown";
      const label = `tool result ${name} ${e.id}${e.is_error ? " (error)" : ""}`;
      yield { turn, label, text: e.content, call: e.id };
    }
  }
}

const pieces = (events: readonly Event[]): Piece[] => [...textPieces(events)];

const render = (p: Piece) => `${p.label}:\n${p.text}`;

/** `text` within the limit, with a note naming what to ask for next when it is not. */
function bounded(text: string, next: string): string {
  if (text.length <= RECALL_LIMIT) return text;
  const kept = RECALL_LIMIT - NOTE_ROOM;
  const more = text.length - kept;
  return `${text.slice(0, kept)}\n[… ${grouped(more)} more characters: ${next}]`;
}

function recallTurns(all: Piece[], spec: string, turnCount: number): RecallAnswer {
  const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(spec.trim());
  if (!match)
    return { ok: false, error: `turns must be one turn or a range, as "4" or "2-5": got "${spec}"` };
  const from = Number(match[1]);
  const to = Number(match[2] ?? match[1]);
  if (from < 1 || to < from || to > turnCount)
    return { ok: false, error: `turns ${spec} are not in this conversation: it has turns 1-${turnCount}` };
  const chosen = all.filter((p) => p.turn + 1 >= from && p.turn + 1 <= to);
  const byTurn: string[] = [];
  let current = -1;
  for (const p of chosen) {
    if (p.turn !== current) byTurn.push(`── turn ${p.turn + 1} ──`);
    current = p.turn;
    byTurn.push(render(p));
  }
  const text = byTurn.join("\n\n") || `turns ${spec} hold no text`;
  return { ok: true, text: bounded(text, `ask for fewer turns, or for one call's output with its id`) };
}

function recallCall(all: Piece[], request: RecallRequest & { call: string }): RecallAnswer {
  const parts = all.filter((p) => p.call === request.call);
  if (parts.length === 0) return { ok: false, error: `no tool call ${request.call} in this conversation` };
  const result = parts.find((p) => p.label.startsWith("tool result"));
  const call = parts.find((p) => p.label.startsWith("tool call"));
  const output = result?.text ?? "";
  // The arguments (the model's own words, possibly megabytes of them) are shown in part: the answer stays bounded.
  const args =
    call && call.text.length > ARGUMENTS_SHOWN
      ? `${call.label}:\n${call.text.slice(0, ARGUMENTS_SHOWN)}\n[… ${grouped(call.text.length - ARGUMENTS_SHOWN)} more characters of arguments]`
      : call && render(call);
  const turn = `── turn ${(call ?? result)!.turn + 1} ──`;
  const room =
    RECALL_LIMIT - NOTE_ROOM - turn.length - (args ? args.length : 0) - (result?.label.length ?? 0) - 40;
  const offset = Math.min(request.offset ?? 0, output.length);
  const length = Math.min(request.length ?? room, room);
  const slice = output.slice(offset, offset + length);
  const end = offset + slice.length;
  const header = [
    turn,
    args || undefined,
    result ? `${result.label}, characters ${offset}-${end} of ${output.length}:` : "(no result recorded)",
  ].filter((line) => line !== undefined);
  const rest =
    end < output.length
      ? `\n[… ${grouped(output.length - end)} more characters: recall ${JSON.stringify({ call: request.call, offset: end })}]`
      : "";
  return { ok: true, text: `${header.join("\n")}\n${slice}${rest}` };
}

/** The texts the view shows, each with the labels it is shown under. */
function visibleTexts(events: readonly Event[], capOf: OutputCap | undefined): Map<string, Set<string>> {
  const view = project(events).events;
  const shown = capOf ? capToolOutputs(view, capOf).events : view;
  // Keyed by the text itself (already one string in memory), never by a copy joined with its label.
  const visible = new Map<string, Set<string>>();
  for (const p of textPieces(shown)) {
    const labels = visible.get(p.text) ?? new Set<string>();
    labels.add(p.label);
    visible.set(p.text, labels);
  }
  return visible;
}

/** Said by a step that was told to stop. */
const STOPPED = Symbol("stopped");

/**
 * Where `words` (case-insensitive patterns of the query's words) all occur in
 * `text`: the first one's index, or -1. It yields between words: one piece can
 * be a 100 MB output. Searched in the text as it is: lowering a whole text
 * first cost ten times the search for text outside ASCII, and moved the
 * indexes of letters whose lower case is longer (İ).
 */
function* findAll(
  text: string,
  words: RegExp[],
): Generator<void, number | typeof STOPPED, boolean | undefined> {
  let first = -1;
  for (const w of words) {
    if (yield) return STOPPED;
    const at = text.search(w);
    if (at < 0) return -1;
    if (first < 0 || at < first) first = at;
  }
  return first;
}

const CONTEXT = 300;
const MAX_MATCHES = 10;

/**
 * A recall done in steps: it yields between pieces of the log, and the
 * driver answers each yield with `true` to stop there (Ctrl-C, or the time
 * budget spent), when a search answers with what it found so far.
 */
export type RecallSteps = Generator<void, RecallAnswer, boolean | undefined>;

function* recallQuery(events: readonly Event[], query: string, capOf: OutputCap | undefined): RecallSteps {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return { ok: false, error: "query is empty" };
  if (words.length > RECALL_QUERY_WORDS)
    return {
      ok: false,
      error: `the query has ${grouped(words.length)} words; recall searches for at most ${RECALL_QUERY_WORDS} (all must occur): give the few that matter`,
    };
  const patterns = words.map((w) => new RegExp(w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu"));
  const visible = visibleTexts(events, capOf);
  const found: string[] = [];
  let matches = 0;
  let stoppedAt: number | undefined;
  for (const p of textPieces(events)) {
    if (visible.get(p.text)?.has(p.label)) continue;
    const at = yield* findAll(p.text, patterns);
    if (at === STOPPED) {
      stoppedAt = p.turn;
      break;
    }
    if (at < 0) continue;
    matches += 1;
    if (found.length >= MAX_MATCHES) continue;
    const start = Math.max(0, at - CONTEXT);
    const end = Math.min(p.text.length, at + CONTEXT);
    const excerpt = `${start > 0 ? "…" : ""}${p.text.slice(start, end)}${end < p.text.length ? "…" : ""}`;
    const where = p.call ? `, recall {"call":"${p.call}","offset":${start}} reads on` : "";
    found.push(`── turn ${p.turn + 1}, ${p.label}${where} ──\n${excerpt}`);
  }
  const stopped =
    stoppedAt === undefined
      ? ""
      : `\n[the search stopped at turn ${stoppedAt + 1} before reading the rest of the log: give fewer or rarer words, or read turns]`;
  if (matches === 0)
    return { ok: true, text: `nothing that compaction took from view matches "${query}"${stopped}` };
  const more = matches > found.length ? `\n[… ${matches - found.length} more matches: narrow the query]` : "";
  return { ok: true, text: bounded(found.join("\n\n") + more, "narrow the query") + stopped };
}

/** What `recall` answers for `request` from the raw log, in steps (see `RecallSteps`). */
export function* recallSteps(
  events: readonly Event[],
  request: RecallRequest,
  capOf?: OutputCap,
): RecallSteps {
  const asked = [request.turns, request.call, request.query].filter((v) => v !== undefined).length;
  if (asked !== 1) return { ok: false, error: "give exactly one of turns, call or query" };
  if ((request.offset !== undefined || request.length !== undefined) && request.call === undefined)
    return { ok: false, error: "offset and length go with call" };
  if (request.query !== undefined) return yield* recallQuery(events, request.query, capOf);
  const all = pieces(events);
  if (request.call !== undefined) return recallCall(all, { ...request, call: request.call });
  const counter = new TurnCounter();
  for (const e of events) counter.next(e);
  return recallTurns(all, request.turns ?? "", counter.count);
}

/** What `recall` answers for `request` from the raw log, at once. */
export function recall(events: readonly Event[], request: RecallRequest, capOf?: OutputCap): RecallAnswer {
  const steps = recallSteps(events, request, capOf);
  for (;;) {
    const step = steps.next(false);
    if (step.done) return step.value;
  }
}
