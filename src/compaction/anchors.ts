// Owns quote anchors: finding the raw turn a verbatim quote comes from, by
// searching the projected stream the assistant was shown and mapping back
// through origins.
import type { Event } from "../events/index.js";
import { turnsLabel, isKind } from "../events/index.js";
import { project } from "./project.js";
import { isWorkRecord } from "./record.js";
import type { TurnOrigin } from "./projector.js";

export interface AnchorCandidate {
  /** 0-based raw turn (for a summary turn, the first turn it covers). */
  turn: number;
  origin: TurnOrigin;
  excerpt: string;
}

export type AnchorError =
  | { kind: "empty" }
  | { kind: "not_found"; closest: AnchorCandidate[] }
  | { kind: "ambiguous"; candidates: AnchorCandidate[] }
  | { kind: "already_compacted"; from: number; to: number; compaction: string };

export type AnchorResult = { ok: true; turn: number; exact: boolean } | { ok: false; error: AnchorError };

const EXCERPT_RADIUS = 40;

/**
 * What of a turn a quote is looked for in: everything it shows a model
 * (requests, messages, tool arguments and results); what it reads as text
 * (tool arguments left out, so a quote runs from a message into a tool's
 * output, or from an output into the next message); or only what was said
 * (requests and messages, so a quote runs over the tool calls between two
 * messages). Event boundaries count as whitespace.
 */
type TextScope = "all" | "read" | "said";

function turnText(events: readonly Event[], scope: TextScope = "all"): string {
  const parts: string[] = [];
  for (const e of events) {
    // A record of the work repeats compacted turns' words: a quote names the turn that said them.
    if (isWorkRecord(e)) continue;
    if (isKind(e, "chat_request")) parts.push(e.content);
    else if (isKind(e, "chat_response") && typeof e.message === "string") parts.push(e.message);
    else if (scope === "said") continue;
    else if (isKind(e, "tool_call_request") && scope === "all") parts.push(JSON.stringify(e.arguments));
    else if (isKind(e, "tool_call_response")) parts.push(e.content);
  }
  return parts.join("\n");
}

/** Fold whitespace runs to one space and typographic quotes to ASCII, keeping a map back to the original. */
function normalize(text: string): { text: string; map: number[] } {
  let out = "";
  const map: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    let c = text[i]!;
    if (/\s/.test(c)) {
      if (inSpace) continue;
      inSpace = true;
      c = " ";
    } else {
      inSpace = false;
      if (c === "\u2018" || c === "\u2019" || c === "\u201b" || c === "\u2032") c = "'";
      else if (c === "\u201c" || c === "\u201d" || c === "\u201f" || c === "\u2033") c = '"';
      else if (c === "\u2013" || c === "\u2014") c = "-";
      else if (c === "\u2026") c = "...";
    }
    out += c;
    for (let k = 0; k < c.length; k++) map.push(i);
  }
  return { text: out, map };
}

function excerpt(text: string, at: number, length: number): string {
  const start = Math.max(0, at - EXCERPT_RADIUS);
  const end = Math.min(text.length, at + length + EXCERPT_RADIUS);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
}

function firstTurnOf(origin: TurnOrigin): number {
  return origin.kind === "kept" ? origin.turn : origin.from;
}

/** A projected turn as a quote is looked for in it. */
interface TurnText {
  origin: TurnOrigin;
  text: string;
}

function findIn(turns: TurnText[], quote: string, fuzzy: boolean): AnchorCandidate[] {
  const needle = fuzzy ? normalize(quote).text.trim() : quote;
  const found: AnchorCandidate[] = [];
  for (const turn of turns) {
    if (fuzzy) {
      const n = normalize(turn.text);
      const at = n.text.indexOf(needle);
      if (at !== -1)
        found.push({
          turn: firstTurnOf(turn.origin),
          origin: turn.origin,
          excerpt: excerpt(turn.text, n.map[at]!, needle.length),
        });
    } else {
      const at = turn.text.indexOf(needle);
      if (at !== -1)
        found.push({
          turn: firstTurnOf(turn.origin),
          origin: turn.origin,
          excerpt: excerpt(turn.text, at, needle.length),
        });
    }
  }
  return found;
}

/** Turns sharing the most words with the quote, for a not-found report. */
function closest(turns: TurnText[], quote: string, limit = 3): AnchorCandidate[] {
  const words = [
    ...new Set(
      normalize(quote)
        .text.toLowerCase()
        .split(/\W+/)
        .filter((w) => w.length > 2),
    ),
  ];
  if (words.length === 0) return [];
  return turns
    .map((turn) => {
      const lower = turn.text.toLowerCase();
      let score = 0;
      let firstAt = -1;
      for (const w of words) {
        const at = lower.indexOf(w);
        if (at !== -1) {
          score += 1;
          if (firstAt === -1) firstAt = at;
        }
      }
      return { turn, score, firstAt };
    })
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || firstTurnOf(a.turn.origin) - firstTurnOf(b.turn.origin))
    .slice(0, limit)
    .map(({ turn, firstAt }) => ({
      turn: firstTurnOf(turn.origin),
      origin: turn.origin,
      excerpt: excerpt(turn.text, firstAt, 0),
    }));
}

/**
 * Resolve a quote to the raw turn holding it. Exact match first; then a match
 * ignoring whitespace and typographic quote differences; then the same over
 * the turn's text without tool arguments (a quote from a message into a tool
 * output or out of one), then over what its messages say, tool traffic left
 * out (a quote across two messages of one turn); only when all fail,
 * not-found with the closest turns.
 */
export function resolveAnchor(events: readonly Event[], quote: string): AnchorResult {
  if (quote.trim() === "") return { ok: false, error: { kind: "empty" } };
  const projected = project(events).turns;
  const turns: TurnText[] = projected.map((t) => ({ origin: t.origin, text: turnText(t.events) }));
  let exact = true;
  let found = findIn(turns, quote, false);
  if (found.length === 0) {
    exact = false;
    found = findIn(turns, quote, true);
  }
  for (const scope of ["read", "said"] as const) {
    if (found.length > 0) break;
    const scoped = projected.map((t) => ({ origin: t.origin, text: turnText(t.events, scope) }));
    found = findIn(scoped, quote, true);
  }
  if (found.length === 0) return { ok: false, error: { kind: "not_found", closest: closest(turns, quote) } };
  if (found.length > 1) return { ok: false, error: { kind: "ambiguous", candidates: found } };
  const origin = found[0]!.origin;
  if (origin.kind === "summary") {
    return {
      ok: false,
      error: { kind: "already_compacted", from: origin.from, to: origin.to, compaction: origin.compaction },
    };
  }
  return { ok: true, turn: origin.turn, exact };
}

/** One readable line per error, in 1-based turns, for a tool error or a message. */
export function describeAnchorError(quote: string, error: AnchorError): string {
  const list = (cs: AnchorCandidate[]) =>
    cs
      .map((c) => `turn ${c.turn + 1}${c.origin.kind === "summary" ? " (summary)" : ""}: "${c.excerpt}"`)
      .join("; ");
  switch (error.kind) {
    case "empty":
      return "the quote is empty; quote a distinctive phrase verbatim";
    case "not_found":
      return `quote not found: "${quote}"${error.closest.length ? `. Closest turns: ${list(error.closest)}` : ""}. Quote the text verbatim.`;
    case "ambiguous":
      return `quote matches ${error.candidates.length} turns: ${list(error.candidates)}. Quote a longer, distinctive passage.`;
    case "already_compacted":
      return `quote lies inside the summary of ${turnsLabel(error.from, error.to)}, which is already compacted; anchor on a turn outside it`;
  }
}
