// Owns showing an answer's markdown on a terminal as it streams: headings,
// emphasis, lists, links, tables and code fences with syntax highlighting,
// by marked with marked-terminal. A paragraph streams in pieces that end at a
// space with their markers closed; a heading or list line is drawn when it is
// whole (an indented one set in at its indentation), a table or a code fence
// when it ends. Nothing drawn is ever redrawn.
// Loaded only by `jp q` writing to a terminal.
import { Marked, type Tokens } from "marked";
import { markedTerminal } from "marked-terminal";
import { visible } from "./visible.js";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|/;
/** A line that starts a block of its own (heading, list item, quote, table, fence, rule): drawn whole. */
const BLOCK_START = /^\s{0,3}(#|[-*+](\s|$)|\d+[.)]|>|\||`{3}|~{3}|_{3}|-{3})/;

/** Whether the inline markers of `text` are all closed: it can be drawn as it is, and more follows. */
function balanced(text: string): boolean {
  const count = (mark: string) => text.split(mark).length - 1;
  // An odd `*` is an open emphasis (or a bold's half); `**` counts twice, so this covers both.
  return count("`") % 2 === 0 && count("*") % 2 === 0 && count("__") % 2 === 0 && count("[") === count("]");
}

/** A streaming markdown writer: `write` as text arrives, `end` when the answer is over. */
export interface MarkdownStream {
  write(delta: string): void;
  end(): void;
}

/**
 * marked-terminal hides the colons of inline code behind this placeholder
 * and undoes it in its block renderers only, so text drawn inline (a piece of
 * a streaming line, a tight list item) would show it.
 */
const COLON_PLACEHOLDER = "*#COLON|*";

/**
 * marked with marked-terminal, and two corrections to it: a list keeps its
 * numbers (marked-terminal counts from 1 whatever `start` says), and the text
 * of a tight list item is drawn with its emphasis, code and links (marked-terminal
 * prints it raw).
 */
function terminalMarked(width: number): Marked {
  const marked = new Marked();
  // reflowText off: a line is drawn as it came, never joined with the next (which has not arrived).
  marked.use(markedTerminal({ reflowText: false, width, tab: 2 }));
  marked.use({
    hooks: { postprocess: (drawn) => drawn.replaceAll(COLON_PLACEHOLDER, ":") },
    renderer: {
      text(token) {
        return "tokens" in token && token.tokens ? this.parser.parseInline(token.tokens) : false;
      },
      list(token) {
        let number = typeof token.start === "number" ? token.start : 1;
        const items = token.items.map((item: Tokens.ListItem) => {
          const mark = token.ordered ? `${number++}.` : "*";
          // Each block of the item on a line of its own, under the item's text.
          const body = item.tokens
            .map((block) => this.parser.parse([block]).replace(/\n+$/, ""))
            .filter((drawn) => drawn !== "")
            .join("\n");
          return `  ${mark} ${body.replace(/\n/g, `\n${" ".repeat(mark.length + 3)}`)}`;
        });
        return `${items.join("\n")}\n\n`;
      },
    },
  });
  return marked;
}

/** SGR sequences (colors, bold): what marked-terminal styles with. */
// eslint-disable-next-line no-control-regex -- escape sequences are what this finds
const STYLING = /\u001b\[[0-9;]*m/g;

/** With `color` false (NO_COLOR), the layout is kept (bullets, tables, indentation) and every style dropped. */
export function createMarkdownStream(out: NodeJS.WritableStream, width = 100, color = true): MarkdownStream {
  return new MarkdownStreamer(out, terminalMarked(width), color);
}

/** Markdown drawn line by line as it streams: a fence or a table whole once it closes, a paragraph as it grows. */
class MarkdownStreamer implements MarkdownStream {
  private pending = "";
  /** A paragraph line drawn in part already (a long line streams in pieces that close their markers). */
  private midLine = false;
  private block: string[] = [];
  private kind: "none" | "fence" | "table" = "none";
  private fence = "";

  constructor(
    private readonly out: NodeJS.WritableStream,
    private readonly marked: Marked,
    private readonly color: boolean,
  ) {}

  write(delta: string): void {
    this.pending += delta;
    let at: number;
    while ((at = this.pending.indexOf("\n")) !== -1) {
      this.line(this.pending.slice(0, at));
      this.pending = this.pending.slice(at + 1);
    }
    this.drawPart();
  }

  end(): void {
    if (this.pending || this.midLine) this.line(this.pending);
    this.pending = "";
    // An unclosed fence or a table at the very end is drawn as it stands.
    this.closeBlock();
  }

  /** Text from outside jp: control characters made visible before marked adds its own styling. */
  private draw(markdown: string, indent = ""): void {
    const rendered = this.marked.parse(visible(markdown), { async: false });
    const shown = (this.color ? rendered : rendered.replace(STYLING, "")).replace(/\n+$/, "");
    this.out.write(`${indent ? shown.replace(/^/gm, indent) : shown}\n`);
  }

  private drawInline(markdown: string): void {
    const rendered = this.marked.parseInline(visible(markdown), { async: false });
    this.out.write(this.color ? rendered : rendered.replace(STYLING, ""));
  }

  /** Draw what of a growing paragraph line is safe to draw now: up to its last space, markers closed. */
  private drawPart(): void {
    const { pending } = this;
    if (this.kind !== "none" || (!this.midLine && (pending.length < 4 || BLOCK_START.test(pending)))) return;
    const cut = pending.lastIndexOf(" ");
    if (cut <= 0 || !balanced(pending.slice(0, cut + 1))) return;
    this.drawInline(pending.slice(0, cut + 1));
    this.pending = pending.slice(cut + 1);
    this.midLine = true;
  }

  private closeBlock(): void {
    if (this.block.length) this.draw(this.block.join("\n"));
    this.block = [];
    this.kind = "none";
  }

  private line(text: string): void {
    if (this.midLine) {
      this.drawInline(text);
      this.out.write("\n");
      this.midLine = false;
      return;
    }
    if (this.kind === "fence") {
      this.block.push(text);
      if (text.trim().startsWith(this.fence)) this.closeBlock();
      return;
    }
    if (this.kind === "table") {
      if (TABLE_ROW.test(text)) {
        this.block.push(text);
        return;
      }
      this.closeBlock();
    }
    if (!this.opensBlock(text)) this.drawLine(text);
  }

  /** Whether `text` opens a fence or a table, which are drawn whole once they close. */
  private opensBlock(text: string): boolean {
    const opening = FENCE.exec(text);
    if (opening) this.fence = opening[1]!;
    else if (!TABLE_ROW.test(text)) return false;
    this.kind = opening ? "fence" : "table";
    this.block = [text];
    return true;
  }

  private drawLine(text: string): void {
    const indent = /^[ \t]*/.exec(text)![0];
    if (text.trim() === "") this.out.write("\n");
    // An indented line (a nested list item, an item's second paragraph) alone would be code to
    // marked, or lose its place: it is drawn as it reads and set in at its indentation.
    else if (indent) this.draw(text.slice(indent.length), indent);
    else this.draw(text);
  }
}
