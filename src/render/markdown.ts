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
  const marked = terminalMarked(width);
  let pending = "";
  // A paragraph line drawn in part already (a long line streams in pieces that close their markers).
  let midLine = false;
  let block: string[] = [];
  let kind: "none" | "fence" | "table" = "none";
  let fence = "";

  // Text from outside jp: control characters made visible before marked adds its own styling.
  const draw = (markdown: string, indent = "") => {
    const rendered = marked.parse(visible(markdown), { async: false });
    const shown = (color ? rendered : rendered.replace(STYLING, "")).replace(/\n+$/, "");
    out.write(`${indent ? shown.replace(/^/gm, indent) : shown}\n`);
  };
  const drawInline = (markdown: string) => {
    const rendered = marked.parseInline(visible(markdown), { async: false });
    out.write(color ? rendered : rendered.replace(STYLING, ""));
  };
  /** Draw what of a growing paragraph line is safe to draw now: up to its last space, markers closed. */
  const drawPart = () => {
    if (kind !== "none" || (!midLine && (pending.length < 4 || BLOCK_START.test(pending)))) return;
    const cut = pending.lastIndexOf(" ");
    if (cut <= 0 || !balanced(pending.slice(0, cut + 1))) return;
    drawInline(pending.slice(0, cut + 1));
    pending = pending.slice(cut + 1);
    midLine = true;
  };
  const closeBlock = () => {
    if (block.length) draw(block.join("\n"));
    block = [];
    kind = "none";
  };
  const line = (text: string) => {
    if (midLine) {
      drawInline(text);
      out.write("\n");
      midLine = false;
      return;
    }
    if (kind === "fence") {
      block.push(text);
      if (text.trim().startsWith(fence)) closeBlock();
      return;
    }
    if (kind === "table") {
      if (TABLE_ROW.test(text)) {
        block.push(text);
        return;
      }
      closeBlock();
    }
    const opening = FENCE.exec(text);
    if (opening) {
      kind = "fence";
      fence = opening[1]!;
      block = [text];
      return;
    }
    if (TABLE_ROW.test(text)) {
      kind = "table";
      block = [text];
      return;
    }
    const indent = /^[ \t]*/.exec(text)![0];
    if (text.trim() === "") out.write("\n");
    // An indented line (a nested list item, an item's second paragraph) alone would be code to
    // marked, or lose its place: it is drawn as it reads and set in at its indentation.
    else if (indent) draw(text.slice(indent.length), indent);
    else draw(text);
  };
  return {
    write(delta) {
      pending += delta;
      let at: number;
      while ((at = pending.indexOf("\n")) !== -1) {
        line(pending.slice(0, at));
        pending = pending.slice(at + 1);
      }
      drawPart();
    },
    end() {
      if (pending || midLine) line(pending);
      pending = "";
      // An unclosed fence or a table at the very end is drawn as it stands.
      closeBlock();
    },
  };
}
