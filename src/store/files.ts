// Owns small-file writes that must never be seen half-done.
import { errnoCode, JpError } from "../errors.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { uniqueToken } from "./unique.js";
import { LogWriteError, SymlinkRefusedError } from "./errors.js";
import { grouped } from "../numbers.js";
import { removeFile } from "../remove-file.js";

/**
 * Replace `file` atomically: write a temp file beside it, fsync, rename, fsync
 * the folder. `data` may come in pieces (a large log), written as they come.
 * `exclusive` never replaces a file that exists (it is linked into place, not
 * renamed): false means another process wrote `file` first, and it is kept.
 */
export function writeFileAtomic(
  file: string,
  data: string | Buffer | Iterable<string>,
  options: { exclusive?: boolean } = {},
): boolean {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${uniqueToken()}.tmp`);
  const fd = fs.openSync(tmp, "w", 0o644);
  try {
    const pieces = typeof data === "string" || Buffer.isBuffer(data) ? [data] : data;
    for (const piece of pieces) {
      const bytes = typeof piece === "string" ? Buffer.from(piece) : piece;
      // A write may be cut short (a size limit, a full disk) without an error: finish it or fail.
      for (let written = 0; written < bytes.length;)
        written += fs.writeSync(fd, bytes, written, bytes.length - written);
    }
    fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    removeFile(tmp);
    // Data made as it is written (an import) may fail on its own: that error is its own, not the disk's.
    if (error instanceof JpError || errnoCode(error) === undefined) throw error;
    throw new LogWriteError(file, error, "write");
  }
  fs.closeSync(fd);
  try {
    if (options.exclusive) fs.linkSync(tmp, file);
    else fs.renameSync(tmp, file);
  } catch (error) {
    removeFile(tmp);
    if (options.exclusive && errnoCode(error) === "EEXIST") return false;
    throw error;
  } finally {
    if (options.exclusive) removeFile(tmp);
  }
  try {
    const dirFd = fs.openSync(path.dirname(file), "r");
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  }
  return true;
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, JSON.stringify(value, null, 2) + "\n");
}

/** The most a state or cache file jp reads may hold; a larger one is not jp's. */
export const MAX_JSON_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A JSON file of jp's own (state, caches) that is not one: a link, a device, a
 * FIFO, a folder, or larger than any jp writes. A repository can commit any of
 * these under `.jp/`; each is read as unreadable, never through.
 */
export class NotJpsFileError extends Error {}

/**
 * The JSON of one of jp's own files, or undefined when there is none. Opened
 * once without following a link and without blocking (a FIFO), checked to be
 * a regular file of at most MAX_JSON_FILE_BYTES before a byte is read.
 */
// The caller names the shape it expects of its own file (and checks what matters).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function readJsonFile<T>(file: string): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return undefined;
    if (errnoCode(error) === "ELOOP") throw new NotJpsFileError(`${file} is a symbolic link`);
    throw error;
  }
  let text: string;
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new NotJpsFileError(`${file} is not a regular file`);
    if (stat.size > MAX_JSON_FILE_BYTES)
      throw new NotJpsFileError(`${file} holds ${grouped(stat.size)} bytes, more than jp writes`);
    text = fs.readFileSync(fd, "utf8");
  } finally {
    fs.closeSync(fd);
  }
  try {
    // Cast: the caller names the shape of its own file (see the type parameter's note above).
    return JSON.parse(text) as T;
  } catch (error) {
    // Name the file: "Unexpected token" alone does not say which one.
    if (error instanceof SyntaxError) throw new SyntaxError(`${file}: ${error.message}`);
    throw error;
  }
}

/**
 * The first symbolic link on the way from `root` (not itself) down to
 * `target` (included), or undefined: where a write under `root` would leave
 * the workspace. A part that does not exist yet ends the walk.
 */
export function symlinkBelow(root: string, target: string): string | undefined {
  const relative = path.relative(root, target);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  let at = root;
  for (const part of relative.split(path.sep)) {
    at = path.join(at, part);
    try {
      if (fs.lstatSync(at).isSymbolicLink()) return at;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** `mkdir -p dir` inside `root`, never through a symbolic link. */
export function makeDirWithin(root: string, dir: string): void {
  const link = symlinkBelow(root, dir);
  if (link) throw new SymlinkRefusedError(link);
  fs.mkdirSync(dir, { recursive: true });
}
