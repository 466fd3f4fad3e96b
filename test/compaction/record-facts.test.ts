// The record's readers of a user's text: the clip of a question, the sentences a pattern
// occurs in and what a text gives read only as far as they need, with the answers of
// reading the whole text.
import { describe, expect, it } from "vitest";
import { clipped, givenIn, sentencesMatching } from "../../src/compaction/record-facts.js";

/** The clip as a reading of the whole text makes it. */
function clippedWhole(text: string, max = 240): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(" ", max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

/** The sentences `pattern` occurs in, from a split of the whole text into its sentences. */
function sentencesWhole(text: string, pattern: RegExp): string[] {
  const all: string[] = [];
  let start = 0;
  for (const m of text.matchAll(/[.!?](?=\s)|\n/g)) {
    const end = m.index + (m[0] === "\n" ? 0 : 1);
    all.push(text.slice(start, end).trim());
    start = end + 1;
  }
  all.push(text.slice(start).trim());
  return all.filter((s) => s && pattern.test(s));
}

/** Texts of words, spaces, stops and line breaks, with long runs of white space among them. */
function texts(): string[] {
  let seed = 11;
  const random = (n: number) => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed % n;
  };
  const parts = ["never", "do not", "todo", "a", "word", ".", "!", "?", " ", "\n", "\t", "  ", "\u00a0"];
  const out: string[] = [];
  for (let i = 0; i < 400; i++) {
    let text = "";
    const length = random(300);
    for (let j = 0; j < length; j++) {
      text += random(40) === 0 ? " ".repeat(random(2000)) : parts[random(parts.length)]!;
      if (random(3) === 0) text += " ";
    }
    out.push(text);
  }
  return out;
}

describe("clipped", () => {
  it("is the clip of the whole text, for short and long texts and long runs of white space", () => {
    const cases = [
      ...texts(),
      "",
      "   ",
      `${" ".repeat(100_000)}after a long run`,
      `${"word ".repeat(100)}${" ".repeat(10_000)}end`,
      "x".repeat(1000),
      `${"a".repeat(239)} ${" ".repeat(5000)}b`,
      `${"a".repeat(240)}${" ".repeat(5000)}`,
      `${"a ".repeat(120)}${"\n".repeat(3000)}b`,
      // Every white space \s knows, and two characters it does not (U+180E, U+200B).
      "\u00a0a\tb\vc\fd\re\u1680f\u2000g\u200ah\u2028i\u2029j\u202fk\u205fl\u3000m\ufeffn\u180eo\u200bp\u00a0",
    ];
    for (const text of cases)
      for (const max of [240, 160, 3]) expect(clipped(text, max)).toBe(clippedWhole(text, max));
  });
});

describe("sentencesMatching", () => {
  it("gives the sentences a pattern occurs in, as a split of the whole text does", () => {
    const rule = /\b(?:never|do not)\b/i;
    for (const text of texts()) expect(sentencesMatching(text, rule)).toEqual(sentencesWhole(text, rule));
  });

  it("finds a rule among a third of a million short lines, and stops at its limit", () => {
    const lines = "ab\n".repeat(300_000);
    const text = `${lines}Never push on Fridays. Do not squash! ${lines}todo: one.\ntodo two\ntodo three`;
    expect(sentencesMatching(text, /\b(?:never|do not)\b/i)).toEqual([
      "Never push on Fridays.",
      "Do not squash!",
    ]);
    expect(sentencesMatching(text, /\btodo\b/i, 2)).toEqual(["todo: one.", "todo two"]);
  });
});

describe("givenIn", () => {
  it("gives each kind's first 400 of a text", () => {
    const spans = Array.from({ length: 1000 }, (_, i) => `\`span${i}\``).join("\n");
    const given = givenIn(`See https://example.com/a. ${spans} due 2026-11-03`);
    expect(given.filter((g) => g.startsWith("`"))).toEqual(
      Array.from({ length: 400 }, (_, i) => `\`span${i}\``),
    );
    expect(given).toContain("https://example.com/a");
    expect(given).toContain("2026-11-03");
  });
});
