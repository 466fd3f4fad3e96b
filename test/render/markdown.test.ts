// An answer drawn as it streams, cut at every position: the same text, its numbers and styles, no placeholder.
/* eslint-disable no-control-regex -- terminal output is checked for its escape sequences */
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CODE_ANSWER } from "../support/code-answer.js";

// marked-terminal styles with chalk, which decides at load whether to colour: this test draws both ways.
process.env.FORCE_COLOR = "1";
const { createMarkdownStream, terminalMarked } = await import("../../src/render/markdown.js");

const plain = (drawn: string) => drawn.replace(/\u001b\[[0-9;]*m/g, "");

/** What the stream draws for `pieces` written one after another. */
function drawn(pieces: string[], color: boolean): string {
  let out = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      out += chunk.toString();
      done();
    },
  });
  const stream = createMarkdownStream(sink, 100, color);
  for (const piece of pieces) stream.write(piece);
  stream.end();
  return out;
}

const piecesOf = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe("markdown while it streams", () => {
  const whole = drawn([CODE_ANSWER], true);

  it("draws inline code with colons, URLs and list items with no placeholder, numbered as written", () => {
    for (const color of [true, false]) {
      const text = plain(drawn(piecesOf(CODE_ANSWER, 40), color));
      expect(text).not.toContain("#COLON|");
      expect(text).toContain("std::fs::read_to_string");
      expect(text).toContain("http://127.0.0.1:8080");
      expect(text).toContain("./app --port=8080:80");
      expect(text).toMatch(/^ {2}3\. Build the parser with care$/m);
      expect(text).toMatch(/^ {2}4\. Run cargo test and read the log/m);
      expect(text).toMatch(/^ {2}5\. Ship it$/m);
      expect(text).toMatch(/^ {5}\* a nested point$/m);
      expect(text).toMatch(/│ run\s+│ \.\/app --port=8080:80\s+│/);
      expect(text).not.toMatch(/\*\*|`/);
      expect(text).toContain("a < b && c > d.");
    }
  });

  it("styles emphasis, code and links inside list items, tables and headings with colour", () => {
    const colored = drawn(piecesOf(CODE_ANSWER, 40), true);
    expect(colored).toMatch(/\u001b\[1mBuild\u001b\[22m/);
    expect(colored).toMatch(/\u001b\[3mcare\u001b\[23m/);
    expect(colored).toMatch(/\u001b\[3mpoint\u001b\[23m/);
    expect(colored).toMatch(/\u001b\[33mcargo test\u001b\[39m/);
    expect(colored).toMatch(/\u001b\[1mrun\u001b\[22m/);
    expect(colored).toMatch(/\u001b\[33mstd::fs\u001b\[39m/);
    expect(colored).toMatch(/\u001b\[1mgreen\u001b\[22m/);
    expect(drawn(piecesOf(CODE_ANSWER, 40), false)).not.toContain("\u001b[");
  });

  it("draws the same text wherever the stream is cut", () => {
    const expected = plain(whole);
    for (let at = 1; at < CODE_ANSWER.length; at++) {
      const pieces = [CODE_ANSWER.slice(0, at), CODE_ANSWER.slice(at)];
      expect(plain(drawn(pieces, true)), `cut at ${at}`).toBe(expected);
    }
    // And in pieces of every size from 1 to 40 characters.
    for (let size = 1; size <= 40; size++)
      expect(plain(drawn(piecesOf(CODE_ANSWER, size), false))).toBe(expected);
  });
});

describe("lines drawn without a call of marked", () => {
  const marked = terminalMarked(100);
  /** A whole line as marked draws it alone. */
  const byMarked = (line: string, color: boolean) => {
    const rendered = marked.parse(line, { async: false });
    return `${(color ? rendered : plain(rendered)).replace(/\n+$/, "")}\n`;
  };

  it("draws plain text with inline code, and plain text in quotes, as marked draws it", () => {
    const lines = [
      "`a`",
      "`npm test` runs the suite",
      "Run `a b` now.",
      "`a `",
      "`a`b",
      "`a` `b`",
      "x `<div>` y, `a*b_c` and `[a](b)`",
      "`#x` `1. a` `- a` `>a` `a|b` `~a~` `!` `'s'` `\"q\"`",
      "a  `b`  ",
      "`x`,",
      "`a`?",
      "> a",
      "> > a b",
      `${"> ".repeat(16)}deep`,
      "> Word, then more; ok?",
      "> > a.",
    ];
    for (const color of [true, false])
      for (const line of lines) expect(drawn([`${line}\n`], color), line).toBe(byMarked(line, color));
  });

  it("draws a line of more than a thousand inline markers as it reads", () => {
    const line = "*a".repeat(2000);
    expect(drawn([line], true)).toBe(`${line}\n`);
    expect(drawn(piecesOf(line, 16), false)).toBe(`${line}\n`);
  });
});
