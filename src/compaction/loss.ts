// Owns the loss report: the facts a compaction takes out of the model's view
// that nothing left in view still holds. Facts are what a model needs back
// verbatim and cannot guess: URLs, file paths, error codes, identifiers and
// numbers. Deterministic text analysis in one pass over each view; no model
// call. Pure.
import { isKind, type Event } from "../events/index.js";
import { trimEndOf } from "../trim.js";

export const FACT_KINDS = ["url", "path", "error_code", "identifier", "number"] as const;
export type FactKind = (typeof FACT_KINDS)[number];

export interface Fact {
  kind: FactKind;
  text: string;
}

// The kinds are looked for in this order, and what one kind took is not looked at again.
const PATTERNS: readonly [FactKind, RegExp][] = [
  ["url", /\b(?:https?|ftp):\/\/[^\s<>"'`)\]]+/g],
  // A path has a slash between two names, or is a file name with a known extension. Each
  // looks only from the start of a run of the characters it is made of (the lookbehinds):
  // tried from every character of a 300 KB hex dump, each try read on to the dump's end.
  [
    "path",
    /(?<![\w@.~/-])(?:~|\.{1,2})?\/*(?:[\w@.-]+\/+)+[\w@.-]*\w|\b(?<=(?:^|[^\w-])-*)[\w-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|rs|go|java|rb|c|h|cc|cpp|hpp|cs|swift|kt|json|toml|ya?ml|md|txt|csv|sh|sql|lock|log|pem|env|html|css)\b/g,
  ],
  // ENOENT, TS2322, E0308, ERR_MODULE_NOT_FOUND, ERR_4711, TypeError, HTTP 404, 0xc00000fd.
  [
    "error_code",
    /\b(?:E[A-Z]{3,}|[A-Z]{1,4}\d{3,5}|ERR_[A-Z0-9_]*[A-Z0-9]|[A-Z][a-z]+Error|HTTP [1-5]\d\d|0x[0-9a-fA-F]{4,16})\b/g,
  ],
  // What is quoted as code, paths of modules (ptr::NonNull), dotted names (assistant.model.id),
  // camelCase, PascalCase with a hump, snake_case and UPPER_CASE constants.
  [
    "identifier",
    new RegExp(
      [
        /`[^`\s]{2,80}`/,
        /\b[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+\b/,
        /\b[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+\b/,
        /\b[a-z]+(?:[A-Z][a-z0-9]*)+\b/,
        /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/,
        /\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b/,
        /\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/,
      ]
        .map((r) => r.source)
        .join("|"),
      "g",
    ),
  ],
  // Numbers of two digits or more, versions and decimals.
  ["number", /\b\d+(?:\.\d+)+\b|\b\d{2,}\b/g],
];

/**
 * Ids a provider or jp generated (`toolu_01…`, `call_7`, `fc_3`): a name
 * nobody needs back, though it looks like snake_case. The suffix holds a digit,
 * so `call_count` stays an identifier.
 */
const GENERATED_ID = /^(?:toolu|srvtoolu|call|fc|msg|resp|rs|chatcmpl)_(?=[A-Za-z0-9]*\d)[A-Za-z0-9]+$/;

/** Runs of hex digits long enough to be a hash (a commit, a digest, an address). */
const HEX_RUN = /[0-9a-fA-F]{7,}/g;
/** A number this long is a timestamp, an address or a size a program printed, not one a person gives. */
const LONG_NUMBER = /^\d{9,}$/;

/** Whether `value` holds a hash: a run of hex digits with both letters and digits (`55e0b9ef`). */
function holdsHash(value: string): boolean {
  for (const m of value.matchAll(HEX_RUN)) if (/\d/.test(m[0]) && /[a-fA-F]/.test(m[0])) return true;
  return false;
}

/** Whether a match is a fact: not an empty quote, a bare fraction or date (`1/30`), nor a generated id. */
function isFact(kind: FactKind, value: string): boolean {
  if (!/[A-Za-z0-9]/.test(value)) return false;
  if (kind === "path" && /^[\d./]+$/.test(value)) return false;
  // A URL and an error code (`0xc00000fd`) are facts whatever digits they hold.
  if (kind !== "url" && kind !== "error_code" && (holdsHash(value) || LONG_NUMBER.test(value))) return false;
  return !GENERATED_ID.test(value);
}

/** Without the punctuation a sentence puts after a URL or a path. */
const trimEnd = (s: string) => trimEndOf(s, ".,;:!?");

/**
 * A path as grep and compilers print it, without what follows the file
 * name: a context line's `-21-use …` (`lib.rs-21-use`), a match's `:21:`.
 * The path is the fact; the line number and the line are not.
 */
const LINE_SUFFIX = /(\.[A-Za-z][A-Za-z0-9]{0,9})[-:]\d+(?:[-:][^/]*)?$/;
const pathOnly = (s: string) => s.replace(LINE_SUFFIX, "$1");

/** The facts `text` holds, each once, in the order of the kinds. */
export function factsOf(text: string): Fact[] {
  const found = new Map<string, Fact>();
  let rest = text;
  for (const [kind, pattern] of PATTERNS) {
    for (const match of rest.matchAll(pattern)) {
      const raw = kind === "identifier" ? match[0].replace(/^`|`$/g, "") : match[0];
      const value = kind === "url" ? trimEnd(raw) : kind === "path" ? pathOnly(trimEnd(raw)) : raw;
      if (!found.has(value) && isFact(kind, value)) found.set(value, { kind, text: value });
    }
    // What this kind took is not read again (a URL's path is not also a path).
    rest = rest.replace(pattern, " ");
  }
  return [...found.values()];
}

/** The texts of a view the model reads: questions, answers, reasoning, tool calls and results. */
function viewTexts(events: readonly Event[]): string[] {
  const texts: string[] = [];
  for (const e of events) {
    if (isKind(e, "chat_request")) texts.push(e.content);
    else if (isKind(e, "chat_response")) {
      if (typeof e.message === "string") texts.push(e.message);
      if (typeof e.reasoning === "string") texts.push(e.reasoning);
    } else if (isKind(e, "tool_call_request")) texts.push(`${e.name} ${JSON.stringify(e.arguments)}`);
    else if (isKind(e, "tool_call_response")) texts.push(e.content);
  }
  return texts;
}

/** The tool call ids of a view: names a provider or a tool generated, which nobody needs back. */
function* callIdsOf(events: readonly Event[]): Generator<string> {
  for (const e of events) if (isKind(e, "tool_call_request")) yield e.id;
}

/** What a change of view does to the facts of the texts that leave it. */
export interface LossReport {
  /** How many distinct facts the texts that leave the view hold. */
  leaving: number;
  /** Those of them no text that stays holds (the summary and the record of the work among them). */
  atRisk: Fact[];
}

/**
 * The facts at risk when the view goes from `before` to `after`: the facts
 * of the texts that leave the view that are facts of no text that stays (the
 * summary among them), each once, URLs first and numbers last. Linear in
 * the size of both views: each text is read once.
 */
export function factsAtRisk(before: readonly Event[], after: readonly Event[]): Fact[] {
  return lossReport(before, after).atRisk;
}

/** The loss report of a change of view: how many facts leave with the texts it drops, and which of them stay nowhere. */
export function lossReport(before: readonly Event[], after: readonly Event[]): LossReport {
  const remaining = viewTexts(after);
  const stays = new Set(remaining);
  // Tool call ids (`fs_read_file_0`) are never facts: counted as kept, they are never listed.
  const callIds = new Set<string>(callIdsOf(before));
  const kept = new Set<string>(callIds);
  for (const text of remaining) for (const fact of factsOf(text)) kept.add(fact.text);
  const atRisk = new Map<string, Fact>();
  const leaving = new Set<string>();
  for (const text of viewTexts(before)) {
    if (stays.has(text)) continue;
    for (const fact of factsOf(text)) {
      if (callIds.has(fact.text)) continue;
      leaving.add(fact.text);
      if (!kept.has(fact.text) && !atRisk.has(fact.text)) atRisk.set(fact.text, fact);
    }
  }
  const rank = (f: Fact) => FACT_KINDS.indexOf(f.kind);
  return { leaving: leaving.size, atRisk: [...atRisk.values()].sort((a, b) => rank(a) - rank(b)) };
}
