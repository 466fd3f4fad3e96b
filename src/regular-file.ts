// Owns reading a small file that someone else may have planted: only a
// regular file is read, of bounded size, opened once without blocking (a FIFO
// never waits for a writer) and, unless asked, without following a link.
import * as fs from "node:fs";
import { errnoCode, JpError } from "./errors.js";

/** A file that is a link, a FIFO, a device, a folder, or larger than its reader takes. */
export class UnreadableFileError extends JpError {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super("file.unreadable", `${file} ${why}`, {
      hint: "jp reads only regular files here; move the one in the way aside",
    });
  }
}

/**
 * The text of `file`, or undefined when there is none. Throws
 * UnreadableFileError when it is not a regular file of at most `maxBytes`
 * (or, without `followLinks`, when it is a symbolic link).
 */
export function readRegularFile(
  file: string,
  maxBytes: number,
  options: { followLinks?: boolean } = {},
): string | undefined {
  const flags =
    fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (options.followLinks ? 0 : fs.constants.O_NOFOLLOW);
  let fd: number;
  try {
    fd = fs.openSync(file, flags);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    if (errnoCode(error) === "ELOOP") throw new UnreadableFileError(file, "is a symbolic link");
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new UnreadableFileError(file, "is not a regular file");
    if (stat.size > maxBytes) throw new UnreadableFileError(file, `holds more than ${maxBytes} bytes`);
    // Read no more than the bound, though the file grow while it is read.
    const buffer = Buffer.alloc(stat.size);
    let read = 0;
    while (read < buffer.length) {
      const n = fs.readSync(fd, buffer, read, buffer.length - read, read);
      if (n === 0) break;
      read += n;
    }
    return buffer.subarray(0, read).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}
