// Quotes the model copies across one turn's event boundaries, sampled from the
// recorded JP conversations: from the end of an assistant message into the
// tool output after it, and from a tool output into the next message. Each
// must resolve to its turn (it may be ambiguous, never not found). Up to 10 per conversation.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveAnchor } from "../../src/compaction/index.js";
import { groupTurns, isKind, type Event } from "../../src/events/index.js";
import { convertJpConversation, findJpConversations } from "../../src/store/import-jp.js";
import { FIXTURES_DIR } from "../support/workspace.js";

const present = fs.existsSync(FIXTURES_DIR);

/** The text a quote takes from each side of a boundary: a few whole words. */
const tail = (text: string) => text.trim().split(/\s+/).slice(-6).join(" ");
const head = (text: string) => text.trim().split(/\s+/).slice(0, 6).join(" ");

/** Quotes spanning a message and the next tool output, or an output and the next message, in one turn. */
function boundaryQuotes(events: Event[], perConversation: number): { turn: number; quote: string }[] {
  const quotes: { turn: number; quote: string }[] = [];
  for (const turn of groupTurns(events)) {
    let lastText: string | undefined;
    for (const e of turn.events) {
      const text =
        isKind(e, "chat_response") && typeof e.message === "string"
          ? e.message
          : isKind(e, "tool_call_response")
            ? e.content
            : undefined;
      if (isKind(e, "chat_request")) lastText = undefined;
      if (text === undefined) continue;
      // Adjacent texts only, each long enough for a distinctive half of the quote.
      const words = (t: string) => t.trim().split(/\s+/).length;
      if (
        lastText !== undefined &&
        words(lastText) >= 6 &&
        words(text) >= 6 &&
        quotes.length < perConversation
      )
        quotes.push({ turn: turn.index, quote: `${tail(lastText)} ${head(text)}` });
      lastText = text;
    }
  }
  return quotes;
}

describe.skipIf(!present)("quotes across one turn, sampled from the recorded conversations", () => {
  it("resolve to their turn: none is not found", () => {
    let sampled = 0;
    const missed: string[] = [];
    for (const dir of findJpConversations(FIXTURES_DIR)) {
      const converted = convertJpConversation(dir);
      if ("reason" in converted) continue;
      for (const { turn, quote } of boundaryQuotes(converted.events, 10)) {
        sampled += 1;
        const result = resolveAnchor(converted.events, quote);
        if (result.ok ? result.turn !== turn : result.error.kind === "not_found")
          missed.push(`${path.basename(dir)} turn ${turn + 1}: "${quote}"`);
      }
    }
    // The three bundled conversations alone give more than ten.
    expect(sampled).toBeGreaterThan(10);
    expect(missed).toEqual([]);
  });
});
