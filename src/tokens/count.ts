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
 * Whether `text` has a run of more than MAX_RUN spaces or non-spaces. A
 * character outside ASCII may be either (U+3000 is a space), so it counts
 * towards both runs.
 */
/**
 * The pieces the tokenizer keeps merged. Its cache is a Map that, once full,
 * drops its oldest entry for each new piece, and finding the oldest walks past
 * every entry dropped since the Map last grew: with its default of 100,000,
 * each new piece cost some 100,000 steps (a megabyte of short `code` lines, or
 * of link openers, took 8 to 12 s against 0.2 s for prose).
 */
const MERGE_CACHE = 1000;

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

function makeCounter(count: (text: string) => number, method: string, approximate: boolean): TokenCounter {
  const cache = new WeakMap<object, number>();
  const short = new Map<string, number>();
  let cut = false;
  const bounded = (text: string): number => {
    if (text.length <= MAX_RUN || !hasLongRun(text)) return count(text);
    cut = true;
    let total = 0;
    for (let i = 0; i < text.length; i += MAX_RUN) total += count(text.slice(i, i + MAX_RUN));
    return total;
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
  const { countTokens, setMergeCacheSize } = await import("gpt-tokenizer/encoding/o200k_base");
  setMergeCacheSize(MERGE_CACHE);
  const exact = splitModelId(modelId)?.provider === "openai";
  return makeCounter((text) => countTokens(text), exact ? "o200k" : "o200k (approximation)", !exact);
}

/** `12,345` or `≈12,345`. */
export function formatTokens(n: number, approximate: boolean): string {
  return `${approximate ? "≈" : ""}${grouped(n)}`;
}
