// Owns the append-only JSONL event log of one conversation: chunked reading
// that tolerates a torn last line, locked group appends with one write and one
// fsync, and quarantine of torn or malformed bytes (never dropped).
//
// A group is all or nothing, even when its writer is killed in the middle of
// the write: the writer first records where the group starts and ends (the
// pending file), and removes the record once the group is written. While a
// record says a group is unfinished, readers stop where it starts, and the
// next writer moves its bytes to the quarantine file. Without the record, a
// kill that lands between two lines of a group would leave its first lines
// looking committed.
import { errnoCode, messageOf } from "../errors.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { readRegularFile } from "../regular-file.js";
import { validateEvent, type Event } from "../events/index.js";
import { LogWriteError, MalformedLogError, SpecialFileError, SymlinkRefusedError } from "./errors.js";
import { acquireLock, type HeldLock, type LockOptions } from "./lock.js";
import { removeFile } from "../remove-file.js";

export const LOG_FILE = "events.jsonl";
export const QUARANTINE_FILE = "events.quarantine";
export const PENDING_FILE = "events.pending";
/** The most a pending record may hold: four numbers on a line. */
const MAX_PENDING_BYTES = 256;
const LOCK_FILE = "events.lock";
const CHUNK_SIZE = 1 << 20;
const NEWLINE = 0x0a;

export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** Byte offset just past the line's newline: where the next line starts. */
  end: number;
  text: string;
}

export interface LogScan {
  /** Complete lines (terminated by a newline), in order. */
  lines: Generator<RawLine>;
}

/**
 * The record of a group being written: the log it belongs to (device and
 * inode, so a record copied along with a folder, or left in a clone, names
 * no log here) and where the group starts and ends.
 */
function pendingRecord(log: fs.Stats, start: number, end: number): string {
  return `${log.dev} ${log.ino} ${start} ${end}\n`;
}

/**
 * Where the committed part of a log ends: where a group whose write has not
 * finished starts, else at the end of the file.
 */
function committedEnd(file: string, log: fs.Stats): number {
  let text: string;
  try {
    // A record jp wrote is one short line: a FIFO, device or anything larger is not one.
    const read = readRegularFile(path.join(path.dirname(file), PENDING_FILE), MAX_PENDING_BYTES);
    if (read === undefined) return log.size;
    text = read;
  } catch {
    return log.size;
  }
  const [dev, ino, start, end] = text.trim().split(" ").map(Number);
  const mine = dev === log.dev && ino === log.ino;
  return mine && start !== undefined && end !== undefined && start <= log.size && log.size < end
    ? start
    : log.size;
}

/**
 * Stream the complete lines of a file in fixed-size chunks, never building one
 * string of the whole file. A trailing fragment without a newline is a torn
 * append, and so is a group whose write has not finished (see above); both are
 * reported through `onTorn` (where they start, how many bytes) and not yielded.
 */
export function* readLines(
  file: string,
  options: { from?: number; onTorn?: (offset: number, bytes: number) => void } = {},
): Generator<RawLine> {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO in the log's place must not hang the reader; for a regular file it changes nothing.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    // A folder fails on read with its own message (EISDIR); a FIFO or device is refused here.
    if (!stat.isFile() && !stat.isDirectory()) throw new SpecialFileError(file);
    const size = stat.size;
    const limit = committedEnd(file, stat);
    const chunk = Buffer.allocUnsafe(CHUNK_SIZE);
    let position = options.from ?? 0;
    // The start of a line that spans chunks, kept as parts and joined once at its newline.
    let carry: Buffer[] = [];
    let carryBytes = 0;
    let carryOffset = position;
    let lineNumber = 0;
    for (;;) {
      if (carryBytes > CHUNK_SIZE) {
        // A line longer than a chunk is read straight into one buffer: copying each
        // chunk and joining the copies touched every byte twice more.
        const long = readLongLine(fd, carry, carryOffset, limit);
        carry = [];
        carryBytes = 0;
        if (long === undefined) {
          options.onTorn?.(carryOffset, size - carryOffset);
          return;
        }
        lineNumber += 1;
        yield { line: lineNumber, offset: carryOffset, end: long.end + 1, text: long.bytes.toString("utf8") };
        position = long.end + 1;
        carryOffset = position;
        continue;
      }
      const read =
        position < limit ? fs.readSync(fd, chunk, 0, Math.min(CHUNK_SIZE, limit - position), position) : 0;
      if (read === 0) break;
      const view = chunk.subarray(0, read);
      let start = 0;
      let nl = view.indexOf(NEWLINE, start);
      while (nl !== -1) {
        let text: string;
        let offset: number;
        if (carry.length > 0) {
          text = Buffer.concat([...carry, view.subarray(start, nl)]).toString("utf8");
          offset = carryOffset;
          carry = [];
          carryBytes = 0;
        } else {
          text = view.toString("utf8", start, nl);
          offset = position + start;
        }
        lineNumber += 1;
        yield { line: lineNumber, offset, end: position + nl + 1, text };
        start = nl + 1;
        nl = view.indexOf(NEWLINE, start);
      }
      if (start < read) {
        if (carry.length === 0) carryOffset = position + start;
        carry.push(Buffer.from(view.subarray(start, read)));
        carryBytes += read - start;
      }
      position += read;
    }
    if (carry.length > 0) options.onTorn?.(carryOffset, size - carryOffset);
    else if (position < size) options.onTorn?.(position, size - position);
  } catch (error) {
    throw withPath(error, file);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The rest of a line whose first bytes (in `carry`) start at `offset`: its
 * bytes without the newline and the newline's offset, or undefined when no
 * newline comes before `limit`, the committed end of the file.
 */
function readLongLine(
  fd: number,
  carry: readonly Buffer[],
  offset: number,
  limit: number,
): { bytes: Buffer; end: number } | undefined {
  const buffer = Buffer.allocUnsafe(limit - offset);
  let filled = 0;
  for (const part of carry) filled += part.copy(buffer, filled);
  while (offset + filled < limit) {
    const want = Math.min(limit - offset - filled, 16 * CHUNK_SIZE);
    const read = fs.readSync(fd, buffer, filled, want, offset + filled);
    // The file was cut shorter while it was read.
    if (read === 0) return undefined;
    const nl = buffer.subarray(filled, filled + read).indexOf(NEWLINE);
    if (nl !== -1) return { bytes: buffer.subarray(0, filled + nl), end: offset + filled + nl };
    filled += read;
  }
  return undefined;
}

function statSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

/** Errors of calls on a descriptor (EISDIR, EIO from `read`) do not say which file; name it. */
function withPath(error: unknown, file: string): unknown {
  if (error instanceof Error && "syscall" in error && !("path" in error && error.path !== undefined))
    Object.assign(error, { path: file });
  return error;
}

export interface ReadResult {
  events: Event[];
  /** Byte length of the complete lines (where the next append lands once a torn tail is quarantined). */
  size: number;
  /** A torn last line, if any, still in the file until the next locked write moves it. */
  torn?: { offset: number; bytes: number };
}

export interface ReadOptions {
  conversationId?: string;
  /** Start at this byte offset (must be a line start). */
  from?: number;
  /** Bytes read so far of the file's size, now and then (every few megabytes), for a progress line. */
  onProgress?: (done: number, total: number) => void;
}

const PROGRESS_STEP = 4 * 1024 * 1024;

/** Read every event of a log. A malformed line other than a torn tail fails with file:line. */
export function readLog(file: string, options: ReadOptions = {}): ReadResult {
  const events: Event[] = [];
  let torn: ReadResult["torn"];
  let size = options.from ?? 0;
  const total = options.onProgress ? statSize(file) : 0;
  let reported = size;
  for (const { event, end } of streamLog(file, {
    ...options,
    onTorn: (offset, bytes) => (torn = { offset, bytes }),
  })) {
    size = end;
    events.push(event);
    if (options.onProgress && end - reported >= PROGRESS_STEP) {
      reported = end;
      options.onProgress(end, total);
    }
  }
  // The end, so a progress line that was drawn is cleared.
  if (options.onProgress && reported !== (options.from ?? 0)) options.onProgress(total, total);
  return torn ? { events, size, torn } : { events, size };
}

/**
 * The events of a log one at a time, for readers that need not hold them all
 * (printing a 600 MB conversation); the same checks as readLog.
 */
export function* streamLog(
  file: string,
  options: ReadOptions & { onTorn?: (offset: number, bytes: number) => void } = {},
): Generator<{ event: Event; end: number }> {
  for (const raw of readLines(file, {
    from: options.from,
    onTorn: options.onTorn,
  })) {
    const event = parseLine(raw.text);
    if (event === null) continue;
    if (typeof event === "string") throw new MalformedLogError(file, raw.line, event, options.conversationId);
    yield { event, end: raw.end };
  }
}

/** Parse one line: an event, null for a blank line, or the reason it is malformed. */
export function parseLine(text: string): Event | string | null {
  // A byte order mark (an editor saved the log) is not part of the event; doctor removes it.
  if (text.charCodeAt(0) === BOM) text = text.slice(1);
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${messageOf(error)})`;
  }
  // JSON.parse takes any depth; validateEvent refuses what would overflow the stack later.
  const result = validateEvent(value);
  return result.ok ? result.event : result.reason;
}

export function serialize(events: readonly Event[]): string {
  let out = "";
  for (const e of events) out += JSON.stringify(e) + "\n";
  return out;
}

/** The lines of `events` in pieces of about `size` characters: a large log is written without one huge string. */
export function* serializedPieces(events: Iterable<Event>, size = 4 << 20): Generator<string> {
  let out = "";
  for (const e of events) {
    out += JSON.stringify(e) + "\n";
    if (out.length >= size) {
      yield out;
      out = "";
    }
  }
  if (out) yield out;
}

const WRITE_FLAGS = fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW;

export function isSymlink(target: string): boolean {
  try {
    return fs.lstatSync(target).isSymbolicLink();
  } catch {
    return false;
  }
}

/** U+FEFF, the byte order mark some editors put at the start of a file. */
export const BOM = 0xfeff;

export interface AppendOptions extends LockOptions {
  /** Called when a torn tail was moved to the quarantine file. */
  onQuarantine?: (bytes: number) => void;
  /** Progress of reading a large log (see ReadOptions.onProgress). */
  onReadProgress?: (done: number, total: number) => void;
}

/**
 * The log of one conversation folder. All writes go through `withLock`, which
 * first moves any torn tail into the quarantine file so appends always start
 * on a line boundary. Its lock is a file in the folder, made before the write
 * and removed after it, so the folder's time tells that the log changed
 * (`ls` relies on it: store/listing.ts).
 */
export class EventLog {
  readonly file: string;
  readonly lockFile: string;
  readonly quarantineFile: string;
  readonly pendingFile: string;

  constructor(
    readonly dir: string,
    readonly conversationId?: string,
  ) {
    this.file = path.join(dir, LOG_FILE);
    this.lockFile = path.join(dir, LOCK_FILE);
    this.quarantineFile = path.join(dir, QUARANTINE_FILE);
    this.pendingFile = path.join(dir, PENDING_FILE);
  }

  read(from?: number): ReadResult {
    return readLog(this.file, { conversationId: this.conversationId, from });
  }

  /** Append a group of events with one write and one fsync, under the lock. */
  append(events: readonly Event[], options: AppendOptions = {}): void {
    if (events.length === 0) return;
    const data = Buffer.from(serialize(events), "utf8");
    this.withLock(options, (fd) => {
      const stat = fs.fstatSync(fd);
      const start = stat.size;
      // Until the record is gone, readers stop at `start` and a later writer rolls the group back.
      this.writeFileNoFollow(this.pendingFile, pendingRecord(stat, start, start + data.length));
      try {
        // A short write (a full disk, a file size limit) is cut back to where it began,
        // before the lock is released: the log never keeps part of a group.
        for (let written = 0; written < data.length;)
          written += fs.writeSync(fd, data, written, data.length - written, start + written);
        fs.fsyncSync(fd);
      } catch (error) {
        try {
          fs.ftruncateSync(fd, start);
          fs.fsyncSync(fd);
        } catch {
          // The truncation failed too; the record stays, and the next locked write quarantines the group.
          throw new LogWriteError(this.file, error);
        }
        removeFile(this.pendingFile);
        throw new LogWriteError(this.file, error);
      }
      removeFile(this.pendingFile);
    });
  }

  /**
   * Run `write` with the lock held and the log open for appending, after any
   * torn tail has been quarantined.
   */
  withLock<T>(options: AppendOptions, write: (fd: number) => T): T {
    // A conversation folder or log that is a symbolic link (a cloned repository can
    // carry one) is refused rather than written through.
    if (isSymlink(this.dir)) throw new SymlinkRefusedError(this.dir);
    const lock: HeldLock = acquireLock(this.lockFile, options);
    try {
      let fd: number;
      try {
        fd = fs.openSync(this.file, WRITE_FLAGS, 0o644);
      } catch (error) {
        if (errnoCode(error) === "ELOOP") throw new SymlinkRefusedError(this.file);
        throw error;
      }
      try {
        const moved = this.quarantineTornTail(fd);
        if (moved > 0) options.onQuarantine?.(moved);
        return write(fd);
      } finally {
        fs.closeSync(fd);
      }
    } finally {
      lock.release();
    }
  }

  /**
   * Copy what is not committed to the quarantine file, then cut it from the
   * log: a group a killed writer left unfinished, and bytes after the last newline.
   */
  private quarantineTornTail(fd: number): number {
    const stat = fs.fstatSync(fd);
    const size = stat.size;
    const committed = committedEnd(this.file, stat);
    // The record of a group that was written in full (or rolled back) is only left over.
    removeFile(this.pendingFile);
    if (committed < size) return this.cutTail(fd, committed, size, `unfinished group at byte ${committed}`);
    if (size === 0) return 0;
    const probe = Buffer.allocUnsafe(Math.min(size, 64 * 1024));
    let end = size;
    let lastNewline = -1;
    while (end > 0 && lastNewline === -1) {
      const start = Math.max(0, end - probe.length);
      const n = fs.readSync(fd, probe, 0, end - start, start);
      const at = probe.subarray(0, n).lastIndexOf(NEWLINE);
      if (at !== -1) lastNewline = start + at;
      end = start;
    }
    const keep = lastNewline + 1;
    return keep === size ? 0 : this.cutTail(fd, keep, size, `torn tail at byte ${keep}`);
  }

  /** Move the log's bytes from `from` to its end (`size`) to the quarantine file; returns how many. */
  private cutTail(fd: number, from: number, size: number, origin: string): number {
    const bytes = Buffer.allocUnsafe(size - from);
    fs.readSync(fd, bytes, 0, bytes.length, from);
    this.quarantine(bytes, origin);
    fs.ftruncateSync(fd, from);
    fs.fsyncSync(fd);
    return bytes.length;
  }

  private writeFileNoFollow(file: string, text: string): void {
    let fd: number;
    try {
      fd = fs.openSync(
        file,
        fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW,
        0o644,
      );
    } catch (error) {
      if (errnoCode(error) === "ELOOP") throw new SymlinkRefusedError(file);
      throw error;
    }
    try {
      const bytes = Buffer.from(text);
      // A short write leaves a record that is not one: finish it, or remove the file and say which.
      for (let written = 0; written < bytes.length;)
        written += fs.writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      fs.closeSync(fd);
      removeFile(file);
      throw new LogWriteError(file, error, "write");
    }
    fs.closeSync(fd);
  }

  /** Append bytes to the quarantine file with a header line saying where they came from. */
  quarantine(bytes: Buffer, origin: string): void {
    const header = Buffer.from(`# ${new Date().toISOString()} ${origin} (${bytes.length} bytes)\n`);
    let fd: number;
    try {
      fd = fs.openSync(
        this.quarantineFile,
        fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW,
        0o644,
      );
    } catch (error) {
      if (errnoCode(error) === "ELOOP") throw new SymlinkRefusedError(this.quarantineFile);
      throw error;
    }
    try {
      fs.writeSync(fd, Buffer.concat([header, bytes, Buffer.from("\n")]));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }
}
