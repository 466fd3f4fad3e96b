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
import { trimEndOf } from "../trim.js";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const TABLE_ROW = /^\s*\|/;
/**
 * A line that starts a block of its own (heading, list item, quote, table, fence, rule): drawn
 * whole. An ordered item's number has at most 9 digits (CommonMark), so a line of digits is not read on.
 */
const BLOCK_START = /^\s{0,3}(#|[-*+](\s|$)|\d{1,9}[.)]|>|\||`{3}|~{3}|_{3}|-{3})/;
/** As many characters of a line as BLOCK_START reads. */
const HEAD = 16;

/**
 * The most inline markers one call of marked is given. Its emphasis and link
 * rules read on from each marker to the end of the text for a closing one
 * (seconds for 20 KB of `a_a_a_`, and pieces of 64 markers took three times
 * what as much prose takes), so a line with more is drawn in pieces that hold
 * at most this many, cut where the markers are closed when it can be.
 */
const MARKERS_PER_PIECE = 32;
/**
 * Inline text with more pieces than this (more than a thousand markers, with
 * no space where they all close) is no prose a reader wants styled (a line of
 * `*a*a*a`, a dump): it is drawn as it reads. marked's cost is per marker, some
 * ten times what a character of prose costs.
 */
const MAX_PIECES = 32;
/** The characters whose rules in marked read ahead for a partner. */
const MARKERS = new Set(["*", "_", "~", "`", "[", "]", "(", ")", "<", "!", "\\"]);
/**
 * Quotes and list items nested deeper than this in one line are drawn as
 * plain text: marked parses each level again from its start (and a few
 * thousand levels overflow its stack).
 */
const MAX_NESTING = 16;

/**
 * The inline markers of a line read so far: where it can be cut (just after
 * a space, when every marker before is closed), and how many markers came.
 * Fed a piece at a time, so a line that streams in thousands of pieces is
 * read once.
 */
class MarkerCount {
  /** Just after the last space; -1 before the first. */
  cut = -1;
  /** Whether the inline markers before `cut` are all closed: it can be drawn as it is, and more follows. */
  cutBalanced = false;
  /** Just after the last space with every marker before it closed; -1 before the first. */
  balancedCut = -1;
  markers = 0;
  private length = 0;
  private ticks = 0;
  private stars = 0;
  /** Pairs of underscores (`__`, as `split` counts them); a run's are added when it ends. */
  private underscorePairs = 0;
  private underscores = 0;
  private opened = 0;
  private closed = 0;

  add(text: string): void {
    for (let i = 0; i < text.length; i++) this.addChar(text[i]!);
  }

  addChar(ch: string): void {
    this.length += 1;
    if (ch === "_") this.underscores += 1;
    else {
      this.underscorePairs += this.underscores >> 1;
      this.underscores = 0;
    }
    if (ch === "`") this.ticks += 1;
    else if (ch === "*") this.stars += 1;
    else if (ch === "[") this.opened += 1;
    else if (ch === "]") this.closed += 1;
    if (MARKERS.has(ch)) this.markers += 1;
    if (ch !== " ") return;
    this.cut = this.length;
    // An odd `*` is an open emphasis (or a bold's half); `**` counts twice, so this covers both.
    this.cutBalanced =
      this.ticks % 2 === 0 &&
      this.stars % 2 === 0 &&
      this.underscorePairs % 2 === 0 &&
      this.opened === this.closed;
    if (this.cutBalanced) this.balancedCut = this.cut;
  }
}

/**
 * `text` in pieces of at most MARKERS_PER_PIECE inline markers each, cut at the
 * last space with every marker before it closed where there is one, else
 * before the marker past the count. Text with fewer markers is one piece.
 */
function markerPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let count = new MarkerCount();
  for (let i = 0; i < text.length; i++) {
    count.addChar(text[i]!);
    if (count.markers <= MARKERS_PER_PIECE) continue;
    const cut = count.balancedCut > 0 ? start + count.balancedCut : i;
    pieces.push(text.slice(start, cut));
    start = cut;
    // What follows the cut is read again as the next piece's: at most once, since that piece ends further on.
    i = cut - 1;
    count = new MarkerCount();
  }
  pieces.push(text.slice(start));
  return pieces;
}

/**
 * A line that is plain text (a letter first, then letters, digits, spaces and
 * `,.;?`, with no `www.` to link), alone or after a heading's or a list item's
 * mark: marked draws its text as it is, in the frame it draws around any
 * text after that mark. So it is drawn in that frame without a call of marked,
 * which costs some 25 µs a line whatever its length: a thousand short list
 * items took eight times what the same size of prose takes.
 */
const PLAIN_LINE = /^(#{1,6} |[-+*] )?([A-Za-z][A-Za-z0-9 ,.;?]*)$/;
const WWW = /www\./i;

/**
 * A paragraph of plain text (as PLAIN_LINE's) and inline code: code spans of
 * one backtick whose text starts with a character that is not a space, and
 * holds printable ASCII but the characters marked-terminal reads again in a
 * paragraph (`&` of an entity, `:` of an emoji, `\`). marked draws it in the
 * paragraph's frame, each code span's text in the frame of inline code, so it
 * is drawn so without a call of marked: a megabyte of short lines of code took
 * four times what as much prose takes, a call of marked each.
 */
const CODE_LINE =
  /^(?:[A-Za-z][A-Za-z0-9 ,.;?]*)?(?:`[!-%'-9;-[\]-_a-~][ !-%'-9;-[\]-_a-~]*`(?:[A-Za-z0-9 ,.;?]+|$))+$/;
/**
 * A line of plain text (as PLAIN_LINE's, ending in a character that is not a
 * space, which a quote drops) in quotes nested at most MAX_NESTING deep: marked
 * draws it in the frame it draws around plain text in as many quotes, reading
 * the line again for each level (a megabyte of lines in quotes a few levels
 * deep took four times what as much prose takes).
 */
const QUOTED_LINE = new RegExp(`^((?:> ){1,${MAX_NESTING}})([A-Za-z](?:[A-Za-z0-9 ,.;?]*[A-Za-z0-9,.;?])?)$`);
/** A code span of CODE_LINE. */
const CODE_SPAN = /`([^`]+)`/g;

/** How many quote and list markers open `line`, counted up to one more than MAX_NESTING. */
function nesting(line: string): number {
  let depth = 0;
  let i = 0;
  while (depth <= MAX_NESTING) {
    while (line[i] === " " || line[i] === "\t") i += 1;
    const ch = line[i];
    if (ch === ">") i += 1;
    else if ((ch === "-" || ch === "*" || ch === "+") && (line[i + 1] === " " || line[i + 1] === undefined))
      i += 1;
    else {
      // An ordered item's number: at most 9 digits, then `.` or `)`.
      let digits = 0;
      while (digits < 10 && line[i + digits]! >= "0" && line[i + digits]! <= "9") digits += 1;
      const mark = line[i + digits];
      if (digits === 0 || digits > 9 || (mark !== "." && mark !== ")")) return depth;
      i += digits + 1;
    }
    depth += 1;
  }
  return depth;
}

const withoutFinalNewlines = (text: string) => trimEndOf(text, "\n");

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
export function terminalMarked(width: number): Marked {
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
            .map((block) => withoutFinalNewlines(this.parser.parse([block])))
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
  /** The line being written, in the pieces it came in (no newline among them): joined once, when drawn. */
  private pending: string[] = [];
  private pendingLength = 0;
  /** Its first HEAD characters, which say whether it starts a block. */
  private head = "";
  private markers = new MarkerCount();
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

  /** Only `delta` is read for newlines and markers: what came before it was read when it came. */
  write(delta: string): void {
    let from = 0;
    let at: number;
    while ((at = delta.indexOf("\n", from)) !== -1) {
      this.pending.push(delta.slice(from, at));
      this.line(this.takeLine());
      from = at + 1;
    }
    if (from < delta.length) this.append(delta.slice(from));
    this.drawPart();
  }

  end(): void {
    if (this.pendingLength > 0 || this.midLine) this.line(this.takeLine());
    // An unclosed fence or a table at the very end is drawn as it stands.
    this.closeBlock();
  }

  private append(text: string): void {
    this.pending.push(text);
    this.pendingLength += text.length;
    if (this.head.length < HEAD) this.head += text.slice(0, HEAD - this.head.length);
    this.markers.add(text);
  }

  private takeLine(): string {
    const text = this.pending.join("");
    this.pending = [];
    this.pendingLength = 0;
    this.head = "";
    this.markers = new MarkerCount();
    return text;
  }

  /** Text from outside jp: control characters made visible before marked adds its own styling. */
  private draw(markdown: string, indent = ""): void {
    const rendered = this.marked.parse(visible(markdown), { async: false });
    const shown = withoutFinalNewlines(this.color ? rendered : rendered.replace(STYLING, ""));
    this.out.write(`${indent ? shown.replace(/^/gm, indent) : shown}\n`);
  }

  /** Inline markdown, in pieces of at most MARKERS_PER_PIECE markers (see there). */
  private drawInline(markdown: string, pieces = markerPieces(markdown)): void {
    if (pieces.length > MAX_PIECES) {
      this.out.write(visible(markdown));
      return;
    }
    for (const piece of pieces) {
      const rendered = this.marked.parseInline(visible(piece), { async: false });
      this.out.write(this.color ? rendered : rendered.replace(STYLING, ""));
    }
  }

  /** Draw what of a growing paragraph line is safe to draw now: up to its last space, markers closed. */
  private drawPart(): void {
    if (this.kind !== "none" || (!this.midLine && (this.pendingLength < 4 || BLOCK_START.test(this.head))))
      return;
    const { cut, cutBalanced } = this.markers;
    if (cut <= 1 || !cutBalanced) return;
    const text = this.takeLine();
    this.drawInline(text.slice(0, cut));
    // The rest holds no space: it is read again once, and drawn with the next space.
    this.append(text.slice(cut));
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

  /**
   * What marked draws around `x` in `markdown` (a style's start and end, a bullet): after each mark
   * of PLAIN_LINE ("" for a paragraph), and inline code (`` `x` ``, drawn inline).
   */
  private readonly frames = new Map<string, [string, string]>();

  private frame(markdown: string, inline = false): [string, string] {
    let frame = this.frames.get(markdown);
    if (!frame) {
      const rendered = inline
        ? this.marked.parseInline(markdown, { async: false })
        : this.marked.parse(markdown, { async: false });
      const [before = "", after = ""] = withoutFinalNewlines(
        this.color ? rendered : rendered.replace(STYLING, ""),
      ).split("x");
      frame = [before, after];
      this.frames.set(markdown, frame);
    }
    return frame;
  }

  /** `text` after `mark`, as marked draws it (see PLAIN_LINE). */
  private drawPlain(mark: string, text: string): void {
    const [before, after] = this.frame(`${mark}x`);
    this.out.write(`${before}${text}${after}\n`);
  }

  /** A CODE_LINE, as marked draws it (see there). */
  private drawCodeLine(text: string): void {
    const [before, after] = this.frame("`x`", true);
    this.drawPlain(
      "",
      text.replace(CODE_SPAN, (_, code: string) => `${before}${code}${after}`),
    );
  }

  private drawLine(text: string): void {
    const plain = PLAIN_LINE.exec(text);
    if (plain && !WWW.test(text)) {
      this.drawPlain(plain[1] ?? "", plain[2]!);
      return;
    }
    const quoted = QUOTED_LINE.exec(text);
    if (quoted && !WWW.test(text)) {
      this.drawPlain(quoted[1]!, quoted[2]!);
      return;
    }
    if (CODE_LINE.test(text) && !WWW.test(text)) {
      this.drawCodeLine(text);
      return;
    }
    const indent = /^[ \t]*/.exec(text)![0];
    const body = text.slice(indent.length);
    const pieces = markerPieces(body);
    if (text.trim() === "") this.out.write("\n");
    // Too deep for marked (see MAX_NESTING): drawn as it reads.
    else if (nesting(body) > MAX_NESTING) this.out.write(`${visible(text)}\n`);
    // Too many markers for one call of marked: drawn inline, in pieces, as a paragraph.
    else if (pieces.length > 1) {
      this.out.write(indent);
      this.drawInline(body, pieces);
      this.out.write("\n");
    }
    // An indented line (a nested list item, an item's second paragraph) alone would be code to
    // marked, or lose its place: it is drawn as it reads and set in at its indentation.
    else if (indent) this.draw(body, indent);
    else this.draw(text);
  }
}
