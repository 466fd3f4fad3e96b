// Owns reading the work out of a conversation's events for the record
// (record.ts): the user's requests and rules in their own words, the files a
// tool read or wrote, the commands run and how they ended, the errors seen
// and whether a later run of the same command got past them, and the URLs,
// dates and identifiers the user gave. Every pattern here is linear in its
// input (no nested quantifier can backtrack on a long token). Pure.
import { isKind, type Event, type JsonObject } from "../events/index.js";
import { trimEndOf } from "../trim.js";

/** One line of the record, with the turns (0-based) that name it. */
export interface RecordItem {
  text: string;
  /** The first and the last turn that named it, and how many times it was named. */
  first: number;
  last: number;
  refs: number;
}

/** An error seen in a command's output or an error result, and the turn of a later clean run of that command. */
export interface RecordError extends RecordItem {
  code: string;
  command: string;
  resolvedAt?: number;
}

/** A command run, with how its newest run ended. */
export interface RecordCommand extends RecordItem {
  failed: boolean;
}

/** The longest a quoted request, rule or error line is in the record, in characters. */
const QUOTE_MAX = 240;
/** The most distinct items of one kind the reader keeps (the oldest, least named go first). */
const KIND_MAX = 400;

/**
 * Cut `text` to `max` characters at a word, marking the cut, its runs of
 * white space made one space. Only as much of `text` is read as the cut
 * needs (a question of a megabyte is clipped from its first few hundred
 * characters; a long run of white space is read once).
 */
export function clipped(text: string, max = QUOTE_MAX): string {
  const flat = flatStart(text, max + 1);
  return flat.length <= max ? flat : cut(flat, max);
}

/**
 * The start of `text` trimmed and its runs of white space (what `\s` matches)
 * made one space, read until it holds `limit` characters or the text ends.
 * Words parted by one plain space are taken as they stand, so most texts
 * give one slice of themselves: a regular expression's replace, or a string
 * built word by word, cost several times as much as the rest of the record.
 */
function flatStart(text: string, limit: number): string {
  const n = text.length;
  let out = "";
  let i = skipWhite(text, 0);
  let from = i;
  while (i < n && out.length + (i - from) < limit) {
    const c = text.charCodeAt(i);
    if (!isWhite(c) || (c === 32 && i + 1 < n && !isWhite(text.charCodeAt(i + 1)))) {
      i++;
      continue;
    }
    out += text.slice(from, i);
    i = skipWhite(text, i);
    if (i < n) out += " ";
    from = i;
  }
  return out + text.slice(from, i);
}

function skipWhite(text: string, from: number): number {
  let i = from;
  while (i < text.length && isWhite(text.charCodeAt(i))) i++;
  return i;
}

/** Whether a UTF-16 unit is white space as `\s` says (ECMAScript's WhiteSpace and LineTerminator). */
function isWhite(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The first `max` characters of `flat` (longer), cut at a word when one ends in the second half. */
function cut(flat: string, max: number): string {
  const at = flat.lastIndexOf(" ", max - 1);
  return `${flat.slice(0, at > max / 2 ? at : max - 1)}…`;
}

// A rule the user sets: a sentence that binds what is done from now on.
const RULE_WORDS =
  /\b(?:never|always|must(?:n't)?|do not|don't|does not|should(?:n't| not)|only|make sure|required?|avoid|keep|every commit|deadline|due|by (?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;
// What an answer says is next, still failing, or left to do.
const OPEN_POINT =
  /\b(?:todo|next step|still (?:fail|open|broken|to do)|not yet|remaining|left to|open question|follow[- ]up|blocked)\b/i;
/** The most open points the record keeps from the newest answer. */
const OPEN_POINTS_MAX = 5;
const URL = /\b(?:https?|ftp):\/\/[^\s<>"'`)\]]+/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?Z?)?\b/g;
const MONTH_DATE =
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]{0,6}\.? \d{1,2}(?:, \d{4})?\b/g;
// Ticket and issue ids (JP-4411, #123) and what is quoted as code.
const TICKET = /\b[A-Z][A-Z0-9]{1,9}-\d{1,7}\b|(?<![\w#])#\d{1,7}\b/g;
const CODE = /`[^`\n]{1,120}`/g;
// ENOENT, TS2322, ERR_4711, TypeError, HTTP 404, exit code 2.
const ERROR_CODE =
  /\b(?:E[A-Z]{3,12}|[A-Z]{1,4}\d{3,5}|ERR_[A-Z0-9_]{1,40}|[A-Z][A-Za-z]{0,30}Error|HTTP [45]\d\d|exit (?:code|status) [1-9]\d{0,2})\b/g;
// Output that says a run failed: a count of failures, a panic, a non-zero exit.
const FAILED_RUN = /\b[1-9]\d{0,5} (?:failed|failing|errors?)\b|\bpanicked\b|\bexit (?:code|status) [1-9]/i;
const FAIL_LINE = /^ {0,8}(?:FAIL|FAILED) [^\n]{1,200}$/gm;
/** The most error codes one output adds: a long log names the same few. */
const CODES_PER_OUTPUT = 12;
const WRITES = /write|edit|create|patch|replace|apply|save|insert|append|move|rename|delete|remove/i;
const PATH_KEY =
  /^(?:path|paths|file|files|file_?path|filename|target|source|dest|destination|dir|directory)$/i;
const COMMAND_KEY = /^(?:command|cmd|script|args|argv)$/i;

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/**
 * A sentence ends at a line break (which is left out) or at a stop followed by
 * white space (which is kept, the white space left out): where the sentence
 * that ends at `at` ends, and where the next one starts; undefined if none
 * ends at `at`.
 */
function sentenceEndAt(text: string, at: number): { end: number; next: number } | undefined {
  const c = text[at];
  if (c === "\n") return { end: at, next: at + 1 };
  if ((c === "." || c === "!" || c === "?") && isSpace(text[at + 1])) return { end: at + 1, next: at + 2 };
  return undefined;
}

/**
 * The first `limit` matches of a global `pattern` in `text`, found with the
 * pattern itself: `matchAll` copies the pattern on every call, which costs
 * more than searching a short text. Not re-entrant for one pattern.
 */
function matchesOf(pattern: RegExp, text: string, limit = Infinity): { text: string; index: number }[] {
  const out: { text: string; index: number }[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null && out.length < limit; m = pattern.exec(text)) {
    out.push({ text: m[0], index: m.index });
    if (m[0] === "") pattern.lastIndex++;
  }
  pattern.lastIndex = 0;
  return out;
}

/** Each pattern's global copy, made once: a search walks a text from where the last match ended. */
const searches = new WeakMap<RegExp, RegExp>();
function searchingFor(pattern: RegExp): RegExp {
  let search = searches.get(pattern);
  if (!search) {
    search = new RegExp(pattern.source, `${pattern.flags.replace("g", "")}g`);
    searches.set(pattern, search);
  }
  return search;
}

/**
 * The sentences of `text` (trimmed) in which `pattern` occurs, the first
 * `limit` of them. The pattern is searched in the whole text, and only a
 * sentence it occurs in is cut out: a text of a megabyte in short lines is a
 * third of a million sentences, and cutting and testing each took ten times
 * as long as reading the text. `pattern` must match within a sentence (no
 * line break, no stop followed by white space) and start and end at a word
 * boundary, as it would in the sentence alone.
 */
export function sentencesMatching(text: string, pattern: RegExp, limit = Infinity): string[] {
  const search = searchingFor(pattern);
  const out: string[] = [];
  let from = 0;
  while (out.length < limit) {
    search.lastIndex = from;
    const match = search.exec(text);
    if (!match) break;
    let start = from;
    for (let i = match.index - 1; i >= from; i--) {
      const end = sentenceEndAt(text, i);
      if (end) {
        start = end.next;
        break;
      }
    }
    let stop = { end: text.length, next: text.length };
    for (let i = match.index; i < text.length; i++) {
      const end = sentenceEndAt(text, i);
      if (end) {
        stop = end;
        break;
      }
    }
    out.push(text.slice(start, stop.end).trim());
    from = stop.next;
  }
  return out;
}

/**
 * What a user text gives that a model cannot guess: URLs, dates, ticket ids,
 * code; the first KIND_MAX of each kind, as many as the record keeps of it
 * (a megabyte of short lines of code is a quarter of a million code spans,
 * and noting each took five times as long as reading the text).
 */
export function givenIn(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [URL, ISO_DATE, MONTH_DATE, TICKET, CODE])
    for (const m of matchesOf(pattern, text, KIND_MAX)) found.push(trimEndOf(m.text, ".,;:!?"));
  return found;
}

/** Items of one kind by a key (their text, or an error's code), kept to KIND_MAX: when full, the oldest, least named item goes. */
class ItemTable<T extends RecordItem> {
  readonly items = new Map<string, T>();

  note(key: string, turn: number, make: () => T): T {
    const known = this.items.get(key);
    if (known) {
      known.last = Math.max(known.last, turn);
      known.refs += 1;
      return known;
    }
    if (this.items.size >= KIND_MAX) this.evict();
    const made = make();
    this.items.set(key, made);
    return made;
  }

  /** Drops the oldest, least named quarter at once, so a long log pays for a sort now and then, not a scan per item. */
  private evict(): void {
    const ranked = [...this.items].sort(([, a], [, b]) => a.last - b.last || a.refs - b.refs);
    for (const [key] of ranked.slice(0, KIND_MAX / 4)) this.items.delete(key);
  }
}

const item = (text: string, turn: number): RecordItem => ({ text, first: turn, last: turn, refs: 1 });

/**
 * The string values of a tool call's arguments under `keys`, whole or from an
 * array (joined, for an `args` array). Read key by key: Object.entries made
 * an array per key of every call, most of what the record allocated.
 */
function valuesUnder(args: JsonObject, keys: RegExp): string[] {
  const out: string[] = [];
  for (const key in args) {
    if (!keys.test(key)) continue;
    const value = args[key];
    if (typeof value === "string") out.push(value);
    else if (Array.isArray(value)) {
      const strings = value.filter((v): v is string => typeof v === "string");
      out.push(...(key.toLowerCase().startsWith("arg") ? [strings.join(" ")] : strings));
    }
  }
  return out;
}

/** A word every failed run's end holds; one case-blind scan, cheaper than lowering the text. */
const FAILURE_WORD = /fail|error|panicked|exit /i;

/** Whether an output's end says its run failed; most say none of the words, which is found first. */
function saysFailed(end: string): boolean {
  return FAILURE_WORD.test(end) && FAILED_RUN.test(end);
}

/** How much of the end of a tool output says how the run ended. */
const SUMMARY_READ = 1_500;
/** How much of each end of a long tool output the record reads. */
const END_READ = 6_000;

/** A long text's two ends (joined by a line break), or the text when it is short. */
function endsOf(text: string): string {
  return text.length <= END_READ * 2 ? text : `${text.slice(0, END_READ)}\n${text.slice(-END_READ)}`;
}

/** The line of `text` around position `at`, clipped. */
function lineAt(text: string, at: number): string {
  const start = text.lastIndexOf("\n", at) + 1;
  const end = text.indexOf("\n", at);
  return clipped(text.slice(start, end === -1 ? text.length : end), 160);
}

/** The work of a run of turns, read event by event (`add`) in stream order. */
export class WorkReader {
  readonly asks = new ItemTable<RecordItem>();
  readonly rules = new ItemTable<RecordItem>();
  readonly given = new ItemTable<RecordItem>();
  readonly read = new ItemTable<RecordItem>();
  readonly written = new ItemTable<RecordItem>();
  readonly commands = new ItemTable<RecordCommand>();
  readonly errors = new ItemTable<RecordError>();
  /** The newest answer: only its open points are kept, so only its text is read for them. */
  private newestAnswer: { text: string; turn: number } | undefined;
  private readonly calls = new Map<string, { command: string }>();
  /** The commands an error was last seen under: only a clean run of one of these resolves any. */
  private readonly withOpenErrors = new Set<string>();
  first = Number.POSITIVE_INFINITY;
  last = -1;

  add(e: Event, turn: number): void {
    this.first = Math.min(this.first, turn);
    this.last = Math.max(this.last, turn);
    if (isKind(e, "chat_request")) this.question(e.content, turn);
    else if (isKind(e, "chat_response") && typeof e.message === "string")
      this.newestAnswer = { text: e.message, turn };
    else if (isKind(e, "tool_call_request")) this.call(e.id, e.name, e.arguments, turn);
    else if (isKind(e, "tool_call_response")) this.result(e.id, e.content, e.is_error, turn);
  }

  private question(text: string, turn: number): void {
    const ask = clipped(text);
    if (ask) this.asks.note(ask, turn, () => item(ask, turn));
    for (const s of sentencesMatching(text, RULE_WORDS)) {
      const rule = clipped(s);
      this.rules.note(rule, turn, () => item(rule, turn));
    }
    for (const g of givenIn(text)) this.given.note(g, turn, () => item(g, turn));
  }

  /** Open points the newest answer named: what it says is next, still failing, or left to do. */
  get openPoints(): RecordItem[] {
    const answer = this.newestAnswer;
    if (!answer) return [];
    return sentencesMatching(answer.text, OPEN_POINT, OPEN_POINTS_MAX).map((s) =>
      item(clipped(s), answer.turn),
    );
  }

  private call(id: string, name: string, args: JsonObject, turn: number): void {
    const command = valuesUnder(args, COMMAND_KEY)[0];
    const paths = valuesUnder(args, PATH_KEY);
    const files = WRITES.test(name) ? this.written : this.read;
    for (const p of paths) {
      const path = clipped(p, 160);
      files.note(path, turn, () => item(path, turn));
    }
    if (command !== undefined || paths.length === 0) {
      const text = clipped(command ?? `${name} ${JSON.stringify(args)}`, 160);
      this.calls.set(id, { command: text });
      this.commands.note(text, turn, () => ({ ...item(text, turn), failed: false }));
    }
  }

  private result(id: string, whole: string, isError: boolean, turn: number): void {
    const command = this.calls.get(id)?.command;
    // How a run ended is said at its end (a runner's summary, a panic, an exit status).
    const failed = isError || saysFailed(whole.slice(-SUMMARY_READ));
    if (command !== undefined) {
      const run = this.commands.items.get(command);
      if (run) run.failed = failed;
      // A clean run of the command resolves the errors an earlier run of it saw.
      if (!failed && this.withOpenErrors.delete(command))
        for (const err of this.errors.items.values())
          if (err.command === command && err.resolvedAt === undefined) err.resolvedAt = turn;
    }
    if (!failed) return;
    // A long output is read at its ends, where runners and compilers say how a run ended:
    // the record's cost per output is bounded, whatever its size.
    const content = endsOf(whole);
    const codes = new Map<string, number>();
    for (const m of matchesOf(ERROR_CODE, content)) {
      if (codes.size >= CODES_PER_OUTPUT) break;
      if (!codes.has(m.text)) codes.set(m.text, m.index);
    }
    // A test runner's failing file (`FAIL test/a.test.ts`) is an error of its own, named by its line.
    // Found first as a plain string (a fast search), as most error outputs have no such line.
    for (const m of content.includes("FAIL") ? matchesOf(FAIL_LINE, content) : []) {
      if (codes.size >= CODES_PER_OUTPUT) break;
      codes.set(m.text.trim(), m.index);
    }
    for (const [code, at] of codes) {
      const text = lineAt(content, at);
      const err = this.errors.note(code, turn, () => ({
        ...item(text, turn),
        code,
        command: command ?? "",
      }));
      err.resolvedAt = undefined;
      if (command !== undefined) {
        err.command = command;
        this.withOpenErrors.add(command);
      }
    }
  }
}
