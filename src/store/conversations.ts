// Owns the conversations of a workspace: ids, folders, metadata, the active
// conversation, listing with cached counts, prefix lookup, fork and trash.
import { errnoCode, JpError } from "../errors.js";
import { streamJpConversation } from "./import-jp.js";
import { systemClock, type Clock } from "./clock.js";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  addUsage,
  emptyUsage,
  isJsonObject,
  isKnown,
  kindOf,
  recordedUsages,
  TurnCounter,
  type Event,
  type UsageTotals,
  reportsReasoning,
} from "../events/index.js";
import {
  AmbiguousConversationError,
  ConversationNotFoundError,
  NoActiveConversationError,
  ConversationExistsError,
  SymlinkRefusedError,
} from "./errors.js";
import { makeDirWithin, NotJpsFileError, readJsonFile, writeFileAtomic, writeJsonAtomic } from "./files.js";
import { acquireLock, type HeldLock } from "./lock.js";
import {
  EventLog,
  isSymlink,
  LOG_FILE,
  readLines,
  readLog,
  parseLine,
  serializedPieces,
  streamLog,
  type AppendOptions,
} from "./log.js";
import { sessionEnded } from "./session.js";
import type { Workspace } from "./workspace.js";

export interface LogStats {
  /** Byte length of complete lines counted. */
  bytes: number;
  events: number;
  turns: number;
  current_turn: number;
  holds_event: boolean;
  last_event_at?: string;
  kinds: Record<string, number>;
  /** Token usage the responses recorded, per model. */
  usage: Record<string, UsageTotals>;
  /**
   * Answers that record reasoning their request left out or a provider
   * dropped: `show` reads the log for them only when there are any.
   */
  reasoning_reports?: number;
  /** How usage was counted (USAGE_COUNTING): a cache counted another way is counted again. */
  usage_counting?: number;
  /** The model that answered last, as its response recorded it (`provider/name`). */
  last_model?: string;
  /** The start of the last question asked, on one line: what tells one "say hello" from another in a list. */
  last_question?: string;
  /** For a JP conversation read in place: the events.json these counts are of. */
  jp_source?: { size: number; mtimeMs: number };
}

function emptyStats(): LogStats {
  return {
    bytes: 0,
    events: 0,
    turns: 0,
    current_turn: 0,
    holds_event: false,
    kinds: {},
    usage: {},
    usage_counting: USAGE_COUNTING,
  };
}

function countEvent(stats: LogStats, event: Event, counter: TurnCounter): void {
  stats.events += 1;
  const kind = kindOf(event);
  stats.kinds[kind] = (stats.kinds[kind] ?? 0) + 1;
  counter.next(event);
  if (typeof event.timestamp === "string") stats.last_event_at = event.timestamp;
  for (const { model, usage } of recordedUsages(event)) {
    addUsage((stats.usage[model] ??= emptyUsage()), usage);
    if (model !== "") stats.last_model = model;
  }
  if (isKnown(event) && event.type === "chat_request")
    stats.last_question = event.content.replace(/\s+/g, " ").trim().slice(0, QUESTION_CHARS);
  if (reportsReasoning(event)) stats.reasoning_reports = (stats.reasoning_reports ?? 0) + 1;
}

function finishCount(stats: LogStats, counter: TurnCounter): void {
  stats.current_turn = counter.current;
  stats.holds_event = counter.holdsEvent;
  stats.turns = counter.count;
}

/** JP's events.json of a folder jp has written no log into: JP's conversation, read in place. */
function jpLogOf(ref: ConversationRef): string | undefined {
  const json = inFolder(ref, JP_LOG_FILE);
  return !fs.existsSync(inFolder(ref, LOG_FILE)) && fs.existsSync(json) ? json : undefined;
}

/** A JP conversation's events, converted as they are read; none when it holds none. */
function* jpEvents(ref: ConversationRef): Generator<Event> {
  const streamed = streamJpConversation(ref.dir);
  if (!("reason" in streamed)) yield* streamed.events;
}

/** A folder JP wrote (its events.json): JP's files in it are only read, jp's own sit beside them. */
function isJpFolder(ref: ConversationRef): boolean {
  return fs.existsSync(inFolder(ref, JP_LOG_FILE));
}

/**
 * 2: attempts that retries threw away are counted, and hour-long cache writes
 * apart; 3: answers that record reasoning not sent (`reasoning_reports`);
 * 4: the last model and question (`last_model`, `last_question`);
 * 5: the costs requests recorded (`cost_usd`, `costed_requests`).
 */
const USAGE_COUNTING = 5;
/** How much of the last question the counts keep: more than a list line shows. */
const QUESTION_CHARS = 160;

export interface ConversationMetadata {
  title?: string;
  created_at: string;
  pinned?: boolean;
  labels?: string[];
  forked_from?: string;
  imported_from?: { path: string; original_id: string };
  /** For a JP conversation jp continues: JP's events.json when jp began its own log beside it. */
  continued_from_jp?: { size: number; mtimeMs: number };
  /** The tools `jp q` last said it leaves out of this conversation, so it says so once, not every turn. */
  left_out_tools_noticed?: string[];
  [key: string]: unknown;
}

export interface ConversationRef {
  id: string;
  /** Folder name: `<id>` or `<id>-<slug>`. */
  folder: string;
  dir: string;
}

const METADATA_FILE = "metadata.json";
/** The log JP writes, read in place; jp never writes it. */
const JP_LOG_FILE = "events.json";
/** Where JP moves the conversations it archives. */
const JP_ARCHIVE_DIR = ".archive";
/** jp's metadata of a conversation JP wrote, whose metadata.json is JP's. */
const JP_FOLDER_METADATA_FILE = "metadata.jp.json";
const CREATE_LOCK = ".create.lock";
/** Folders being created; the name never matches a conversation id, so they are never listed. */
const STAGING_PREFIX = ".new-";
const STALE_STAGING_MS = 60 * 60 * 1000;
/** Held by `jp q` for a whole turn, so a second one on the same conversation is told who runs it. */
export const TURN_LOCK_FILE = "turn.lock";
/** Held only around a read-modify-write of the metadata file: a label added meanwhile is never lost. */
const METADATA_LOCK_FILE = "metadata.lock";
const STATE_FILE = "state.json";
/** How many terminal sessions' active conversations are kept, the most recent first. */
const MAX_SESSIONS = 64;

type Sessions = Record<string, { active: string; at: string } | undefined>;

/** The terminal sessions' active conversations in `state.json`, as far as they can be read. */
function sessionsOf(state: Record<string, unknown>): Sessions {
  const out: Sessions = {};
  if (!isJsonObject(state.sessions)) return out;
  for (const [session, entry] of Object.entries(state.sessions))
    if (isJsonObject(entry) && typeof entry.active === "string")
      out[session] = { active: entry.active, at: typeof entry.at === "string" ? entry.at : "" };
  return out;
}

/** The sessions but those `drop` picks. */
function withoutSessions(
  sessions: Sessions,
  drop: (session: string, entry: { active: string; at: string }) => boolean,
): Sessions {
  return Object.fromEntries(
    Object.entries(sessions).filter(([session, entry]) => entry !== undefined && !drop(session, entry)),
  );
}

/** The sessions worth keeping: not surely over, and only the most recent few. */
function keptSessions(sessions: Sessions): Sessions {
  const live = Object.entries(sessions).filter(
    (entry): entry is [string, { active: string; at: string }] =>
      entry[1] !== undefined && !sessionEnded(entry[0]),
  );
  live.sort((a, b) => (a[1].at < b[1].at ? 1 : a[1].at > b[1].at ? -1 : 0));
  return Object.fromEntries(live.slice(0, MAX_SESSIONS));
}
const ID_PATTERN = /^(\d{8,})(?:-(.*))?$/;

export { systemClock, type Clock } from "./clock.js";

export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{Letter}\p{Number}]+/gu, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** Ids are deciseconds since the epoch (as JP's are), so they sort by creation time. */
export function idForTime(date: Date): string {
  return String(Math.floor(date.getTime() / 100));
}

/** When a conversation with this id was created: ids count deciseconds since the epoch. */
export function timeOfId(id: string): string {
  const time = new Date(Number(id) * 100);
  return Number.isNaN(time.getTime()) ? new Date(0).toISOString() : time.toISOString();
}

/**
 * A file of a conversation's folder. Not path.join: the name is one segment
 * and the folder is already normal, and `ls` asks this twice per conversation.
 */
function inFolder(ref: ConversationRef, name: string): string {
  return `${ref.dir}${path.sep}${name}`;
}

/** The names in a folder; none when it does not exist yet. */
function folderNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return [];
    throw error;
  }
}

/** One metadata file of a conversation's folder, read with one open that does not follow a link. */
function readMetadataFile(
  ref: ConversationRef,
  file: string,
): { value?: object; problem?: string; file: string } {
  let text: string;
  let fd: number;
  try {
    fd = fs.openSync(inFolder(ref, file), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    if (errnoCode(error) === "ELOOP")
      return { problem: `${file} is a symbolic link; jp reads it as absent`, file };
    return { file };
  }
  try {
    if (!fs.fstatSync(fd).isFile())
      return { problem: `${file} is not a regular file; jp reads it as absent`, file };
    text = fs.readFileSync(fd, "utf8");
  } catch {
    return { problem: `${file} cannot be read; jp reads it as absent`, file };
  } finally {
    fs.closeSync(fd);
  }
  try {
    const stored: unknown = JSON.parse(text);
    if (typeof stored === "object" && stored !== null && !Array.isArray(stored))
      return { value: stored, file };
    return { problem: `${file} is not a JSON object; jp reads it as absent`, file };
  } catch {
    return { problem: `${file} is not valid JSON; jp reads it as absent`, file };
  }
}

export class ConversationStore {
  private readonly jpChangeSaid = new Set<string>();
  private readonly readCache = new Map<
    string,
    { ino: number; size: number; mtimeMs: number; events: Event[] }
  >();

  constructor(
    readonly workspace: Workspace,
    private readonly clock: Clock = systemClock,
    private readonly lockOptions: AppendOptions & {
      /** The terminal session jp runs in: it keeps an active conversation of its own (see activeId()). */
      session?: string;
      /** Called once when `state.json` cannot be read (see state()). */
      onBrokenState?: (file: string) => void;
      /** Called when jp begins its own log beside a JP conversation's files (see continueJp()). */
      onContinueJp?: (ref: ConversationRef) => void;
      /** Called once when JP's events.json changed after jp began its own log (see checkJpSource()). */
      onJpChanged?: (ref: ConversationRef) => void;
    } = {},
  ) {}

  /**
   * Conversations sorted by id (creation time), oldest first: jp's, and the
   * ones JP archived (JP moves them into `.archive/`, with `archived_at` in
   * their metadata, so jp lists them with `ls --archived`).
   */
  list(): ConversationRef[] {
    const refs: ConversationRef[] = [];
    const archived = `${this.workspace.conversationsDir}${path.sep}${JP_ARCHIVE_DIR}`;
    for (const parent of [this.workspace.conversationsDir, archived])
      for (const folder of folderNames(parent)) {
        const match = ID_PATTERN.exec(folder);
        if (!match) continue;
        // Not path.join: the folder name is one segment and the parent is already normal.
        refs.push({ id: match[1]!, folder, dir: `${parent}${path.sep}${folder}` });
      }
    return refs.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * The conversation `query` names: an id, a folder, a unique id prefix, JP's
   * `jp-c<id>` form, or JP's keywords `.`/`active` (this terminal's active
   * one), `r`/`recent` (the one made active last in any terminal) and
   * `n`/`newest`. None: the active one.
   */
  resolve(query?: string): ConversationRef {
    if (query === "n" || query === "newest") {
      // list() is oldest first.
      const newest = this.list().at(-1);
      if (!newest) throw new ConversationNotFoundError(query, "there are no conversations yet");
      return newest;
    }
    const jpForm = query === undefined ? undefined : /^jp-c(\d+)$/.exec(query)?.[1];
    if (jpForm !== undefined) return this.resolve(jpForm);
    const recent = query === "r" || query === "recent";
    if (query === undefined || query === "" || query === "." || query === "active" || recent) {
      const active = recent ? this.recentId() : this.activeId();
      if (!active) throw new NoActiveConversationError();
      const ref = this.list().find((r) => r.id === active);
      if (!ref)
        throw new ConversationNotFoundError(
          active,
          "the active conversation is gone; pick one with `jp conversation use ID`",
        );
      return ref;
    }
    const refs = this.list();
    const exact = refs.find((r) => r.id === query || r.folder === query);
    if (exact) return exact;
    const matches = refs.filter((r) => r.id.startsWith(query));
    if (matches.length === 1) return matches[0]!;
    if (matches.length > 1)
      throw new AmbiguousConversationError(
        query,
        matches.map((r) => r.id),
      );
    throw new ConversationNotFoundError(query);
  }

  has(id: string): boolean {
    return this.list().some((r) => r.id === id);
  }

  /** Create a conversation folder; `events` are written as the first group of its log. */
  create(
    options: {
      title?: string;
      events?: Iterable<Event>;
      id?: string;
      metadata?: Partial<ConversationMetadata>;
    } = {},
  ): ConversationRef {
    makeDirWithin(this.workspace.dir, this.workspace.conversationsDir);
    const now = this.clock.now();
    const slug = options.title ? slugify(options.title) : "";
    const metadata: ConversationMetadata = {
      created_at: now.toISOString(),
      ...options.metadata,
      ...(options.title ? { title: options.title } : {}),
    };
    // The folder is written in full under a temporary name (never listed) and renamed
    // into place at the end: a crash or a failed write leaves nothing half-imported.
    this.removeStaleStaging();
    let staging: string;
    try {
      staging = fs.mkdtempSync(path.join(this.workspace.conversationsDir, STAGING_PREFIX));
    } catch (error) {
      // The error names mkdtemp's template (…/.new-XXXXXX); the folder it could not write in is the one to name.
      if (error instanceof Error)
        Object.assign(error, { syscall: "write", path: this.workspace.conversationsDir });
      throw error;
    }
    try {
      writeJsonAtomic(path.join(staging, METADATA_FILE), metadata);
      writeFileAtomic(path.join(staging, LOG_FILE), serializedPieces(options.events ?? []));
      // Choosing an id and claiming its folder happen under one workspace-wide
      // lock: processes started in the same decisecond get distinct ids.
      const held = acquireLock(path.join(this.workspace.conversationsDir, CREATE_LOCK), this.lockOptions);
      try {
        const existing = new Set(this.list().map((r) => r.id));
        // Only an id jp can list is kept (an import's may be any name); any other gets a new one.
        let id = options.id !== undefined && /^\d{8,}$/.test(options.id) ? options.id : idForTime(now);
        while (existing.has(id)) id = String(BigInt(id) + 1n);
        const folder = slug ? `${id}-${slug}` : id;
        const dir = path.join(this.workspace.conversationsDir, folder);
        fs.renameSync(staging, dir);
        return { id, folder, dir };
      } finally {
        held.release();
      }
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw error;
    }
  }

  /**
   * Staging folders a killed process left behind. One untouched for an hour
   * belongs to no create still running (a create writes and renames in seconds).
   */
  private removeStaleStaging(): void {
    // File times are the real clock's, whatever clock the store was given.
    const now = Date.now();
    const dir = this.workspace.conversationsDir;
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(STAGING_PREFIX)) continue;
      const staging = path.join(dir, name);
      try {
        const stat = fs.lstatSync(staging);
        if (stat.isDirectory() && now - stat.mtimeMs > STALE_STAGING_MS)
          fs.rmSync(staging, { recursive: true, force: true });
      } catch {
        // Gone already (another process cleaned it), or not ours to remove: leave it.
      }
    }
  }

  log(ref: ConversationRef): EventLog {
    return new EventLog(ref.dir, ref.id);
  }

  /**
   * The events of a conversation. A command often reads a log twice (its
   * config deltas, then the turn); a log that has not changed since this
   * store last read it (same inode, size and mtime) is not read again. Callers
   * get their own array; the events themselves are shared and never mutated.
   */
  readEvents(ref: ConversationRef): Event[] {
    const jp = jpLogOf(ref);
    if (!jp) this.checkJpSource(ref);
    const file = jp ?? path.join(ref.dir, LOG_FILE);
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(file);
    } catch {
      // No log yet: read() reports what is wrong, or that there is nothing.
    }
    const cached = this.readCache.get(file);
    if (
      stat &&
      cached &&
      cached.ino === stat.ino &&
      cached.size === stat.size &&
      cached.mtimeMs === stat.mtimeMs
    ) {
      return [...cached.events];
    }
    const events = jp
      ? [...jpEvents(ref)]
      : readLog(file, {
          conversationId: ref.id,
          ...(this.lockOptions.onReadProgress ? { onProgress: this.lockOptions.onReadProgress } : {}),
        }).events;
    if (stat) this.readCache.set(file, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, events });
    return [...events];
  }

  /** The events of a conversation one at a time, without holding the log in memory. */
  *streamEvents(ref: ConversationRef): Generator<Event> {
    if (jpLogOf(ref)) {
      yield* jpEvents(ref);
      return;
    }
    this.checkJpSource(ref);
    for (const { event } of streamLog(path.join(ref.dir, LOG_FILE), { conversationId: ref.id })) yield event;
  }

  append(ref: ConversationRef, events: readonly Event[]): void {
    if (jpLogOf(ref)) this.continueJp(ref);
    this.log(ref).append(events, this.lockOptions);
  }

  /**
   * The first write to a conversation JP wrote: jp's own log, beside JP's
   * files, begins with JP's events as jp reads them. It appears whole or not
   * at all, and from then on is what jp reads; JP's files are left as they are.
   */
  private continueJp(ref: ConversationRef): void {
    if (isSymlink(ref.dir)) throw new SymlinkRefusedError(ref.dir);
    const { size, mtimeMs } = fs.statSync(inFolder(ref, JP_LOG_FILE));
    const written = writeFileAtomic(inFolder(ref, LOG_FILE), serializedPieces(jpEvents(ref)), {
      exclusive: true,
    });
    if (!written) return;
    // What JP's events.json was when jp began: a later change is JP's own turn, which jp's log lacks.
    this.updateMetadata(ref, (m) => ({ ...m, continued_from_jp: { size, mtimeMs } }));
    this.lockOptions.onContinueJp?.(ref);
  }

  /** Say (once per conversation) that JP's events.json changed after jp began its own log beside it. */
  private checkJpSource(ref: ConversationRef): void {
    if (this.jpChangeSaid.has(ref.id) || !isJpFolder(ref)) return;
    const recorded = this.metadata(ref).continued_from_jp;
    if (!isJsonObject(recorded)) return;
    let stat: fs.Stats;
    try {
      stat = fs.statSync(inFolder(ref, JP_LOG_FILE));
    } catch {
      return;
    }
    if (stat.size === recorded.size && stat.mtimeMs === recorded.mtimeMs) return;
    this.jpChangeSaid.add(ref.id);
    this.lockOptions.onJpChanged?.(ref);
  }

  /**
   * A conversation's metadata. A file edited by hand or written by another
   * tool may lack `created_at`; the id says when the conversation began.
   */
  metadata(ref: ConversationRef): ConversationMetadata {
    // Casts: metadata.json is jp's own file; only created_at is checked, since other tools write it too.
    const metadata = (this.storedMetadata(ref).value ?? {}) as Partial<ConversationMetadata>;
    return typeof metadata.created_at === "string"
      ? (metadata as ConversationMetadata)
      : { ...metadata, created_at: timeOfId(ref.id) };
  }

  /**
   * The metadata file as stored: its object, or why it cannot be read as one
   * (a link, a folder, not JSON, not an object). Such a file is read as
   * absent, so every command still works; `doctor` names it and moves it
   * aside. In a folder JP wrote, jp's metadata is metadata.jp.json, beside JP's
   * metadata.json (read until jp writes its own).
   */
  storedMetadata(ref: ConversationRef): { value?: object; problem?: string; file: string } {
    const shared = readMetadataFile(ref, METADATA_FILE);
    // jp's own metadata.json always has created_at: only another tool's sends jp to look further.
    if (shared.value && "created_at" in shared.value) return shared;
    // Looked for first, not opened: a missing file's exception, per JP conversation listed, costs more.
    if (!fs.existsSync(inFolder(ref, JP_FOLDER_METADATA_FILE))) return shared;
    const own = readMetadataFile(ref, JP_FOLDER_METADATA_FILE);
    return own.value || own.problem ? own : shared;
  }

  /** Move the metadata file jp cannot read aside (kept as NAME.unreadable-TIME); returns where, or nothing for JP's own file, left as it is. */
  setMetadataAside(ref: ConversationRef, now: Date): string | undefined {
    const { file } = this.storedMetadata(ref);
    if (file === METADATA_FILE && isJpFolder(ref)) return undefined;
    const aside = inFolder(ref, `${file}.unreadable-${now.toISOString().replace(/[:.]/g, "-")}`);
    fs.renameSync(inFolder(ref, file), aside);
    return aside;
  }

  /**
   * Change a conversation's metadata: `change` is given what is stored now,
   * under the metadata lock, and returns what to store (or nothing to leave it
   * as it is). Concurrent changes (four `label`s at once, an `archive` beside
   * a `jp q` that titles) each see the others'. Returns what was stored
   * before and what is stored after.
   */
  updateMetadata(
    ref: ConversationRef,
    change: (current: ConversationMetadata) => ConversationMetadata | undefined,
  ): { before: ConversationMetadata; after: ConversationMetadata } {
    if (isSymlink(ref.dir)) throw new SymlinkRefusedError(ref.dir);
    const held = acquireLock(path.join(ref.dir, METADATA_LOCK_FILE), { ...this.lockOptions, command: "jp" });
    try {
      const before = this.metadata(ref);
      const after = change(before);
      if (after === undefined) return { before, after: before };
      this.writeMetadata(ref, after);
      return { before, after };
    } finally {
      held.release();
    }
  }

  /** Write the metadata file whole; callers change it through `updateMetadata`, under its lock. */
  private writeMetadata(ref: ConversationRef, metadata: ConversationMetadata): void {
    // A conversation folder that links elsewhere is read, never written through.
    if (isSymlink(ref.dir)) throw new SymlinkRefusedError(ref.dir);
    const target = isJpFolder(ref) ? JP_FOLDER_METADATA_FILE : METADATA_FILE;
    // What jp could not read is kept, not written over.
    const stored = this.storedMetadata(ref);
    if (stored.problem && stored.file === target) this.setMetadataAside(ref, this.clock.now());
    writeJsonAtomic(inFolder(ref, target), metadata);
  }

  /**
   * Counts of a conversation's log. Logs only grow on line boundaries, so the
   * cached counts stay valid up to their byte length and only the new lines are read.
   */
  stats(ref: ConversationRef): LogStats {
    const file = inFolder(ref, LOG_FILE);
    let stat: fs.Stats | undefined;
    try {
      // Not an exception per missing log: `ls` of a thousand JP conversations would throw a thousand.
      stat = fs.statSync(file, { throwIfNoEntry: false });
    } catch {
      // Unreadable: counted as empty; reading it says why.
    }
    if (!stat) {
      // A folder without jp's log: JP's conversation, read in place, or none.
      const json = inFolder(ref, JP_LOG_FILE);
      if (fs.existsSync(json)) return this.jpStats(ref, json);
    }
    const size = stat?.size ?? 0;
    // Caches written before usage was counted (as it is now) are recounted once, and the counts
    // of JP's events.json (jp_source) are not a start for jp's own log begun beside it.
    const kept = this.cachedStats(ref);
    const cached = kept?.usage_counting === USAGE_COUNTING && !kept.jp_source ? kept : undefined;
    if (cached && cached.bytes === size) return cached;
    const resume = cached && cached.bytes < size ? cached : undefined;
    const stats: LogStats = resume
      ? { ...resume, kinds: { ...resume.kinds }, usage: structuredClone(resume.usage) }
      : emptyStats();
    const counter = new TurnCounter({ current: stats.current_turn, holdsEvent: stats.holds_event });
    for (const raw of readLines(file, { from: stats.bytes })) {
      stats.bytes = raw.end;
      const event = parseLine(raw.text);
      if (event === null || typeof event === "string") continue;
      countEvent(stats, event, counter);
    }
    finishCount(stats, counter);
    if (stats.bytes !== cached?.bytes) this.keepStats(ref, stats);
    return stats;
  }

  /**
   * Counts of a JP conversation read in place, through the importer. Kept in
   * the cache keyed by events.json's size and modification time, so a listing
   * reads each JP conversation once, not on every `ls`.
   */
  private jpStats(ref: ConversationRef, file: string): LogStats {
    const { size, mtimeMs } = fs.statSync(file);
    const kept = this.cachedStats(ref);
    const source = kept?.jp_source;
    if (kept?.usage_counting === USAGE_COUNTING && source?.size === size && source.mtimeMs === mtimeMs)
      return kept;
    const stats: LogStats = {
      ...emptyStats(),
      jp_source: { size, mtimeMs },
    };
    const counter = new TurnCounter();
    for (const event of jpEvents(ref)) countEvent(stats, event, counter);
    finishCount(stats, counter);
    this.keepStats(ref, stats);
    return stats;
  }

  private keepStats(ref: ConversationRef, stats: LogStats): void {
    try {
      // A cache folder that links elsewhere is not written through; the counts are then made each time.
      makeDirWithin(this.workspace.localRoot, path.dirname(this.statsFile(ref)));
      writeJsonAtomic(this.statsFile(ref), stats);
    } catch {
      // The cache is an optimisation; a read-only workspace still lists.
    }
  }

  /**
   * Where a conversation's counts are kept: `.jp/cache/stats/`, beside the
   * other caches, so reading a conversation never changes its folder (which
   * git may track).
   */
  private statsFile(ref: ConversationRef): string {
    return path.join(this.workspace.localDir, "cache", "stats", `${ref.folder}.json`);
  }

  /** The counts kept for `ref`, when a readable file holds them. */
  private cachedStats(ref: ConversationRef): LogStats | undefined {
    try {
      const kept = readJsonFile<unknown>(this.statsFile(ref));
      return isLogStats(kept) ? kept : undefined;
    } catch {
      return undefined;
    }
  }

  invalidateStats(ref: ConversationRef): void {
    fs.rmSync(this.statsFile(ref), { force: true });
  }

  /**
   * The active conversation: this terminal session's (JP's RFD 020), else the
   * workspace's, the one made active last in any terminal (`recentId`).
   */
  activeId(): string | undefined {
    const session = this.lockOptions.session;
    const mine = session === undefined ? undefined : sessionsOf(this.state())[session]?.active;
    return mine ?? this.recentId();
  }

  /** The conversation made active last in the workspace, in whichever terminal (JP's `r`). */
  recentId(): string | undefined {
    const active = this.state().active;
    return typeof active === "string" ? active : undefined;
  }

  /**
   * What `state.json` holds. One that cannot be read as a JSON object (empty,
   * cut short, edited by hand) is said once and counts as no active
   * conversation; the next setActive replaces it, and doctor resets it.
   */
  state(): Record<string, unknown> {
    const state = this.readState();
    if (state !== "broken") return state;
    if (!this.stateReported) {
      this.stateReported = true;
      this.lockOptions.onBrokenState?.(path.join(this.workspace.localDir, STATE_FILE));
    }
    return {};
  }
  private stateReported = false;

  private readState(): Record<string, unknown> | "broken" {
    try {
      const state = readJsonFile<unknown>(path.join(this.workspace.localDir, STATE_FILE)) ?? {};
      return isJsonObject(state) ? state : "broken";
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof NotJpsFileError) return "broken";
      throw error;
    }
  }

  /** Whether `state.json` exists but cannot be read as a JSON object. */
  stateIsBroken(): boolean {
    return this.readState() === "broken";
  }

  /** Replace a broken `state.json` with an empty one (no active conversation); whether it was broken. */
  resetState(): boolean {
    const broken = this.stateIsBroken();
    if (broken) writeJsonAtomic(path.join(this.workspace.localDir, STATE_FILE), {});
    return broken;
  }

  /** Make `id` the active conversation of this terminal session and of the workspace; undefined: none. */
  setActive(id: string | undefined): void {
    const state = this.state();
    const session = this.lockOptions.session;
    const sessions = sessionsOf(state);
    // Every `jp q` names its conversation active: rewriting (and syncing) an unchanged file is work for nothing.
    if (state.active === id && (session === undefined || sessions[session]?.active === id)) return;
    const others = withoutSessions(sessions, (s) => s === session);
    const mine =
      session !== undefined && id !== undefined
        ? { [session]: { active: id, at: this.clock.now().toISOString() } }
        : {};
    this.writeState({ ...state, active: id, sessions: keptSessions({ ...others, ...mine }) });
  }

  /** No terminal has `id` active any more (it was removed or archived). */
  forgetActive(id: string): void {
    const state = this.state();
    const sessions = sessionsOf(state);
    const kept = withoutSessions(sessions, (_, entry) => entry.active === id);
    if (state.active !== id && Object.keys(kept).length === Object.keys(sessions).length) return;
    this.writeState({ ...state, active: state.active === id ? undefined : state.active, sessions: kept });
  }

  private writeState(state: Record<string, unknown>): void {
    // A JP workspace's state is in the user's cache folder, made on first use.
    makeDirWithin(this.workspace.localRoot, this.workspace.localDir);
    writeJsonAtomic(path.join(this.workspace.localDir, STATE_FILE), state);
  }

  /** Conversations in `.trash/` (a folder trashed twice carries a `.N` suffix), oldest id first. */
  trashed(): ConversationRef[] {
    return folderNames(this.workspace.trashDir)
      .flatMap((folder) => {
        const match = ID_PATTERN.exec(folder.replace(/\.\d+$/, ""));
        return match ? [{ id: match[1]!, folder, dir: path.join(this.workspace.trashDir, folder) }] : [];
      })
      .sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Move a trashed conversation back, by id or unique id prefix. The most
   * recently trashed copy of an id wins; a live conversation with the id is
   * never overwritten.
   */
  restore(query: string): ConversationRef {
    const trashed = this.trashed();
    const matches = trashed.filter((r) => r.id === query || r.folder === query || r.id.startsWith(query));
    const ids = [...new Set(matches.map((r) => r.id))];
    if (ids.length === 0)
      throw new ConversationNotFoundError(
        query,
        trashed.length
          ? `the trash holds ${[...new Set(trashed.map((r) => r.id))].join(", ")}`
          : "the trash is empty",
      );
    if (ids.length > 1) throw new AmbiguousConversationError(query, ids);
    const copies = matches.filter((r) => r.id === ids[0]);
    const latest = copies.reduce((a, b) => (fs.statSync(b.dir).mtimeMs > fs.statSync(a.dir).mtimeMs ? b : a));
    const held = acquireLock(path.join(this.workspace.conversationsDir, CREATE_LOCK), this.lockOptions);
    try {
      if (this.list().some((r) => r.id === latest.id)) throw new ConversationExistsError(latest.id);
      const folder = latest.folder.replace(/\.\d+$/, "");
      const dir = path.join(this.workspace.conversationsDir, folder);
      fs.renameSync(latest.dir, dir);
      return { id: latest.id, folder, dir };
    } finally {
      held.release();
    }
  }

  /**
   * Move a conversation into `.trash/`; nothing is deleted. A turn in progress
   * (its `jp q` holds the turn lock) is waited for, up to the lock timeout:
   * moving its folder away would lose the results it is about to record.
   */
  trash(ref: ConversationRef): string {
    // JP's files are JP's: moving its folder into jp's trash would take the conversation from JP.
    if (isJpFolder(ref))
      throw new JpError(
        "store.jp_conversation",
        `conversation ${ref.id} is JP's: jp does not move or delete JP's files`,
        {
          hint: `remove it with JP itself; \`jp conversation archive ${ref.id}\` leaves it out of jp's listing`,
        },
      );
    // Moving into a linked trash (or a linked conversation out of the workspace) would leave it.
    for (const target of [ref.dir, this.workspace.trashDir])
      if (isSymlink(target)) throw new SymlinkRefusedError(target);
    const turn = this.holdTurn(ref);
    try {
      makeDirWithin(this.workspace.dir, this.workspace.trashDir);
      let target = path.join(this.workspace.trashDir, ref.folder);
      for (let n = 1; fs.existsSync(target); n += 1)
        target = path.join(this.workspace.trashDir, `${ref.folder}.${n}`);
      fs.renameSync(ref.dir, target);
      // The lock moved with the folder; held by this process, it is removed there.
      fs.rmSync(path.join(target, TURN_LOCK_FILE), { force: true });
      this.forgetActive(ref.id);
      return target;
    } finally {
      turn.release();
    }
  }

  /** The conversation's turn lock, as `jp q` holds it for a turn: whoever else changes the conversation waits. */
  holdTurn(ref: ConversationRef): HeldLock {
    return acquireLock(path.join(ref.dir, TURN_LOCK_FILE), { ...this.lockOptions, command: "jp" });
  }
}

/** A stats cache this version wrote: its counting version and byte length are checked before use. */
function isLogStats(value: unknown): value is LogStats {
  // A count no log reaches (a token total past 10^13, an event count past 10^12) is not a count jp wrote.
  const count = (v: unknown, most = 1e12) =>
    typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= most;
  const counts = (v: unknown, each: (x: unknown) => boolean) =>
    isJsonObject(v) && Object.keys(v).length <= 10_000 && Object.values(v).every(each);
  const usage = (u: unknown) =>
    isJsonObject(u) &&
    count(u.requests) &&
    [
      "input_tokens",
      "output_tokens",
      "cache_read_tokens",
      "cache_write_tokens",
      "cache_write_1h_tokens",
    ].every((k) => count(u[k], 1e13)) &&
    count(u.costed_requests) &&
    typeof u.cost_usd === "number" &&
    Number.isFinite(u.cost_usd) &&
    u.cost_usd >= 0;
  return (
    isJsonObject(value) &&
    count(value.bytes, Number.MAX_SAFE_INTEGER) &&
    count(value.events) &&
    count(value.turns) &&
    count(value.current_turn) &&
    typeof value.holds_event === "boolean" &&
    (value.last_event_at === undefined ||
      (typeof value.last_event_at === "string" && value.last_event_at.length <= 40)) &&
    counts(value.kinds, (k) => count(k)) &&
    counts(value.usage, usage) &&
    (value.reasoning_reports === undefined || count(value.reasoning_reports)) &&
    [value.last_model, value.last_question].every(
      (v) => v === undefined || (typeof v === "string" && v.length <= 2 * QUESTION_CHARS),
    ) &&
    (value.usage_counting === undefined || count(value.usage_counting))
  );
}
