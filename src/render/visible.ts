// Owns making text from outside jp safe to print on a terminal. A model's
// answer, a tool's output, an imported title or a colleague's committed note
// may hold escape sequences: OSC 52 sets the clipboard, CSI 2J clears the
// screen, bidi overrides reorder what is shown. Such characters are made
// visible in caret notation (ESC as ^[) or as <U+XXXX>, and a carriage return
// is dropped; the log and --json keep them exactly.
import stringWidth from "fast-string-width";

/** C0 controls but tab and newline, DEL, C1 controls, and the bidi embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- control characters are what this module finds
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same set without the global flag: a test that keeps no position between calls. */
const ANY_UNSAFE = new RegExp(UNSAFE.source);

function shown(ch: string): string {
  const code = ch.charCodeAt(0);
  // A carriage return would let text overwrite what is already on the line; \r\n stays a line end.
  if (code === 0x0d) return "";
  if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
  if (code === 0x7f) return "^?";
  return `<U+${code.toString(16).toUpperCase().padStart(4, "0")}>`;
}

/** `text` as it may be printed: tabs and line ends kept (\r dropped), every other control character made visible. */
export function visible(text: string): string {
  return ANY_UNSAFE.test(text) ? text.replace(UNSAFE, shown) : text;
}

/** A name from outside jp (a tool's, say) as a one-line message may quote it: made visible, and cut when long. */
export function quotedName(name: string, max = 40): string {
  const shown = visible(name).replace(/\n/g, "^J");
  return `'${shown.length > max ? `${shown.slice(0, max - 1)}…` : shown}'`;
}

/** `text` cut to `columns` columns of the screen, a CJK character taking two, with … where it was cut. */
export function cutToWidth(text: string, columns: number): string {
  if (stringWidth(text) <= columns) return text;
  let kept = "";
  let used = 0;
  for (const char of text) {
    const width = stringWidth(char);
    if (used + width > columns - 1) break;
    kept += char;
    used += width;
  }
  return `${kept}…`;
}
