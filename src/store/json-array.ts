// Owns reading a large JSON array from a file one element at a time (JP's
// events.json can be hundreds of MB): the file is read in pieces, and each
// top-level element's text is handed out as soon as it is complete, so the
// whole array never sits in memory as one string or one parsed value. The
// scan works on bytes: every byte JSON's structure turns on is ASCII, which
// no byte of a multi-byte UTF-8 character is, and strings (most of the text)
// are crossed by the native search for the next quote.
import * as fs from "node:fs";
import { UnreadableFileError } from "../regular-file.js";

const PIECE = 8 << 20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class NotAJsonArrayError extends Error {}

/** The position of the quote closing the string `bytes` is in at `from`, or -1 when it is not read yet. */
function closingQuote(bytes: Buffer, from: number): number {
  for (let at = from; ; at++) {
    at = bytes.indexOf(QUOTE, at);
    if (at === -1) return -1;
    let backslashes = 0;
    while (at - 1 - backslashes >= 0 && bytes[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** `file` opened without waiting for a FIFO's writer, and its size; only a regular file is read. */
function openRegular(file: string): { fd: number; size: number } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  const stat = fs.fstatSync(fd);
  if (stat.isFile()) return { fd, size: stat.size };
  fs.closeSync(fd);
  throw new UnreadableFileError(file, "is not a regular file");
}

/**
 * The text of each top-level element of the JSON array in `file`, in order.
 * Only the array's structure is checked here (strings, brackets, commas);
 * each element is for the caller to parse. `progress` gets bytes read of the size.
 */
export function* jsonArrayElements(
  file: string,
  progress?: (done: number, total: number) => void,
  /** Bytes read at a time (small only in tests, to put every boundary everywhere). */
  pieceSize = PIECE,
): Generator<string> {
  const { fd, size } = openRegular(file);
  try {
    let bytes = Buffer.alloc(0);
    let at = 0; // where scanning resumes in `bytes`
    let start = -1; // where the element being read begins in `bytes`
    let depth = 0; // 1 inside the array itself
    let inString = false;
    let opened = false;
    let closed = false;
    // A byte order mark some editors write is not part of the array.
    const head = Buffer.alloc(3);
    fs.readSync(fd, head, 0, 3, 0);
    const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    for (let read = bom; read < size || read === 0;) {
      // The element still being read (usually a small part of a piece) is copied to the front
      // of the next buffer and the piece read in behind it: the piece itself is never copied.
      const kept = at < bytes.length || start !== -1 ? bytes : bytes.subarray(0, 0);
      const wanted = Math.min(pieceSize, Math.max(size - read, 0));
      const next = Buffer.allocUnsafe(kept.length + wanted);
      kept.copy(next, 0);
      const n = wanted ? fs.readSync(fd, next, kept.length, wanted, read) : 0;
      read += n;
      progress?.(read, size);
      bytes = next.subarray(0, kept.length + n);
      for (; at < bytes.length; at++) {
        if (inString) {
          const quote = closingQuote(bytes, at);
          if (quote === -1) {
            at = bytes.length;
            break;
          }
          at = quote;
          inString = false;
          continue;
        }
        const c = bytes[at]!;
        if (isSpace(c)) continue;
        if (closed) throw new NotAJsonArrayError("text after the end of the array");
        if (!opened) {
          if (c !== 0x5b) throw new NotAJsonArrayError("it is not a JSON array");
          opened = true;
          depth = 1;
          continue;
        }
        if (depth === 1 && (c === 0x2c || c === 0x5d)) {
          if (start !== -1) yield bytes.toString("utf8", start, at);
          else if (c === 0x2c) throw new NotAJsonArrayError("an element is missing before a comma");
          start = -1;
          if (c === 0x5d) {
            closed = true;
            depth = 0;
          }
          continue;
        }
        if (start === -1) start = at;
        if (c === QUOTE) inString = true;
        else if (c === 0x5b || c === 0x7b) depth++;
        else if (c === 0x5d || c === 0x7d) depth--;
      }
      // What was handed out is dropped; the element still being read is kept.
      const keep = start === -1 ? at : start;
      bytes = bytes.subarray(keep);
      at -= keep;
      if (start !== -1) start = 0;
      if (n === 0) break;
    }
    if (!closed) throw new NotAJsonArrayError(opened ? "the array does not end" : "the file is empty");
  } finally {
    fs.closeSync(fd);
  }
}
