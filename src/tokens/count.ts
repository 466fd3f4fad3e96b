// Owns counting the tokens of what a model is sent. The tokenizer is loaded
// lazily, only by commands that count; counts are cached per event object, so
// the projections of one conversation (which share unchanged events) are
// counted once.
import { binaryKind, isBinaryAttachment, isKind, questionWithDocuments } from "../events/index.js";
import type { Event } from "../events/index.js";
import { tokensOfChars } from "../compaction/estimate.js";
import { splitModelId } from "../config/models.js";
import { grouped } from "../numbers.js";

export type Estimate = "tokenizer" | "chars";

export interface TokenCounter {
  /** Whether counts are approximate (shown as ≈): for this model, or since a pathological text was cut. */
  readonly approximate: boolean;
  /** How counts are made, for display: `o200k`, `o200k (approximation)` or `chars/4`. */
  method: string;
  event(event: Event): number;
  /** Tokens of a plain text (a system prompt, tool definitions). */
  text(text: string): number;
  events(events: readonly Event[]): number;
}

/** Tokens a provider adds per message for roles and framing. */
const PER_MESSAGE = 4;

/** The text of an event as a provider receives it; global entries are not sent. */
export function sentText(event: Event): string | undefined {
  if (isKind(event, "chat_request")) return questionWithDocuments(event.content, event.attachments);
  if (isKind(event, "chat_response")) {
    if (typeof event.message === "string") return event.message;
    if (typeof event.reasoning === "string") return event.reasoning;
    return JSON.stringify(event.data ?? null);
  }
  if (isKind(event, "tool_call_request")) return `${event.name} ${JSON.stringify(event.arguments)}`;
  if (isKind(event, "tool_call_response")) return event.content;
  return undefined;
}

/**
 * An estimate of what a question's images and PDFs cost, which no text
 * tokenizer counts: an image as Anthropic's largest (about 1,600 tokens), a
 * PDF as its text and page images (about 1,500 tokens per 100 KB).
 */
function binaryTokens(event: Event): number {
  if (!isKind(event, "chat_request")) return 0;
  let tokens = 0;
  for (const a of (event.attachments ?? []).filter(isBinaryAttachment))
    tokens += binaryKind(a) === "pdf" ? Math.ceil(((a.data.length * 3) / 4 / 100_000) * 1500) : 1600;
  return tokens;
}

/** Short texts recur (placeholders of stripped tool calls, say), so they are cached by content too. */
const SHORT_TEXT = 256;

/**
 * Texts with a run longer than this of spaces, or of other characters, are cut
 * before the tokenizer: the tokenizer's pieces never cross from one to the
 * other, and byte-pair merging of one huge piece (a megabyte of one character,
 * base64, a megabyte of blank lines) is quadratic, minutes for a megabyte. Cut
 * counts are approximate.
 */
const MAX_RUN = 1000;

/**
 * Of a cut text's pieces, one in this many is counted, and the others are
 * estimated at the rate of those counted. A long run without a space (a hex
 * dump, a digest list) is pieces of one to three characters, each counted
 * alone: counting every one took five to eight times as long as as much prose.
 */
const SAMPLE_EVERY = 4;

/**
 * How many pieces the counter keeps counted. The tokenizer's own cache (off
 * here) moves a piece to its end on each use, and its Map slows down with
 * each such move once other texts have filled it: a megabyte of short `code`
 * lines took seconds after a megabyte of hex, against 0.05 s for prose. This
 * one is emptied when full.
 */
const PIECES_KEPT = 1 << 16;

/**
 * Whether `text` has a run of more than MAX_RUN spaces or non-spaces. A
 * character outside ASCII may be either (U+3000 is a space), so it counts
 * towards both runs.
 */
function hasLongRun(text: string): boolean {
  let spaces = 0;
  let others = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13;
    spaces = space || c === 11 || c === 12 || c > 127 ? spaces + 1 : 0;
    others = space ? 0 : others + 1;
    if (spaces > MAX_RUN || others > MAX_RUN) return true;
  }
  return false;
}

/** Whether a character is white space to the tokenizer's split, or may be (outside ASCII). */
const maybeSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c > 127;

/**
 * Whether no piece of the tokenizer's split holds both the character before
 * `at` and the one at it: a space or a tab after a character that is not white
 * space (a piece holds white space only first, or only white space), or a
 * printable ASCII character but `/` after a line break (a piece of punctuation
 * may end in line breaks and slashes). The split reads no character behind
 * where it is, so the text on either side splits as it does in the whole.
 */
function cutsBetween(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  const before = text.charCodeAt(at - 1);
  if (c === 32 || c === 9) return !maybeSpace(before);
  return before === 10 && c > 32 && c < 127 && c !== 47;
}

/** How long a text between two cuts is kept counted. */
const SEGMENT_KEPT = 64;

/**
 * Exact counts of texts as the tokenizer splits them (`split`, a global
 * pattern) and counts each piece (`countPiece`). A text is counted between
 * the places where no piece crosses (`cutsBetween`: a word with the space
 * before it, a line), each such part and each piece counted once: a megabyte
 * of short list items is three quarters of a million pieces, and looking each
 * up took four times as long as prose. The text's special tokens
 * (`<|endoftext|>`) are counted as the text they are, as a provider counts
 * what a user wrote.
 */
function pieceCounter(split: RegExp, countPiece: (piece: string) => number): (text: string) => number {
  const pieces = new Map<string, number>();
  const segments = new Map<string, number>();
  const kept = (cache: Map<string, number>, key: string, count: (key: string) => number): number => {
    let n = cache.get(key);
    if (n === undefined) {
      n = count(key);
      if (cache.size >= PIECES_KEPT) cache.clear();
      cache.set(key, n);
    }
    return n;
  };
  const countPieces = (text: string): number => {
    let total = 0;
    for (const [piece] of text.matchAll(split)) total += kept(pieces, piece, countPiece);
    return total;
  };
  const countSegment = (segment: string): number =>
    segment.length > SEGMENT_KEPT ? countPieces(segment) : kept(segments, segment, countPieces);
  return (text) => {
    let total = 0;
    let start = 0;
    for (let at = 1; at < text.length; at++) {
      if (!cutsBetween(text, at)) continue;
      total += countSegment(text.slice(start, at));
      start = at;
    }
    return total + countSegment(text.slice(start));
  };
}

function makeCounter(count: (text: string) => number, method: string, approximate: boolean): TokenCounter {
  const cache = new WeakMap<object, number>();
  const short = new Map<string, number>();
  let cut = false;
  const bounded = (text: string): number => {
    if (text.length <= MAX_RUN || !hasLongRun(text)) return count(text);
    cut = true;
    // Pieces of MAX_RUN characters, the first of every SAMPLE_EVERY counted.
    let tokens = 0;
    let chars = 0;
    for (let i = 0; i < text.length; i += MAX_RUN * SAMPLE_EVERY) {
      const piece = text.slice(i, i + MAX_RUN);
      tokens += count(piece);
      chars += piece.length;
    }
    return Math.round((tokens * text.length) / chars);
  };
  const countText = (text: string): number => {
    if (text.length > SHORT_TEXT) return bounded(text);
    let n = short.get(text);
    if (n === undefined) {
      n = count(text);
      short.set(text, n);
    }
    return n;
  };
  const event = (e: Event): number => {
    const cached = cache.get(e);
    if (cached !== undefined) return cached;
    const text = sentText(e);
    const n = text === undefined ? 0 : countText(text) + PER_MESSAGE + binaryTokens(e);
    cache.set(e, n);
    return n;
  };
  return {
    // Once a pathological text was cut, counts are approximate even for an exact tokenizer.
    get approximate() {
      return approximate || cut;
    },
    method,
    event,
    text: countText,
    events: (events) => {
      let total = 0;
      for (const e of events) total += event(e);
      return total;
    },
  };
}

/**
 * A counter for a model: the o200k encoding, exact for current OpenAI models
 * and an approximation for every other provider; or the cheap chars/4 estimate.
 */
export async function createTokenCounter(
  modelId: string,
  estimate: Estimate = "tokenizer",
): Promise<TokenCounter> {
  if (estimate === "chars") return makeCounter((text) => tokensOfChars(text.length), "chars/4", true);
  const [{ countTokens, setMergeCacheSize }, { O200K_TOKEN_SPLIT_REGEX }] = await Promise.all([
    import("gpt-tokenizer/encoding/o200k_base"),
    import("gpt-tokenizer/encodingParams/constants"),
  ]);
  setMergeCacheSize(0);
  const exact = splitModelId(modelId)?.provider === "openai";
  const count = pieceCounter(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "gu"), countTokens);
  return makeCounter(count, exact ? "o200k" : "o200k (approximation)", !exact);
}

/** `12,345` or `≈12,345`. */
export function formatTokens(n: number, approximate: boolean): string {
  return `${approximate ? "≈" : ""}${grouped(n)}`;
}
