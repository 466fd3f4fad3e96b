// Owns the conversations of a workspace: ids, folders, metadata, the active
// conversation, listing with cached counts, prefix lookup, fork and trash.
import * as fs from "node:fs";
import * as path from "node:path";
import { JpError } from "../errors.js";
import { isJsonObject, type Event } from "../events/index.js";
import { systemClock, type Clock } from "./clock.js";
import {
  AmbiguousConversationError,
  ConversationExistsError,
  ConversationNotFoundError,
  NoActiveConversationError,
  SymlinkRefusedError,
} from "./errors.js";
import { makeDirWithin, writeFileAtomic, writeJsonAtomic } from "./files.js";
import {
  type ConversationMetadata,
  type ConversationRef,
  conversationRefs,
  CREATE_LOCK,
  idForTime,
  inFolder,
  isJpFolder,
  JP_FOLDER_METADATA_FILE,
  JP_LOG_FILE,
  jpEvents,
  jpLogOf,
  METADATA_FILE,
  METADATA_LOCK_FILE,
  ownDir,
  storedMetadataOf,
  trashedIn,
  slugify,
  removeStaleStaging,
  STAGING_PREFIX,
  timeOfId,
  TURN_LOCK_FILE,
} from "./folders.js";
import { acquireLock, type HeldLock, type LockOptions } from "./lock.js";
import { StatsCache, type LogStats } from "./log-stats.js";
import {
  EventLog,
  isSymlink,
  LOG_FILE,
  readLog,
  serializedPieces,
  streamLog,
  type AppendOptions,
} from "./log.js";
import { WorkspaceState } from "./state.js";
import type { Workspace } from "./workspace.js";

export { systemClock, type Clock } from "./clock.js";
export {
  idForTime,
  slugify,
  timeOfId,
  TURN_LOCK_FILE,
  type ConversationMetadata,
  type ConversationRef,
} from "./folders.js";
import { removeFile } from "../remove-file.js";
export type { LogStats } from "./log-stats.js";

/** The file a conversation's events are read from: JP's own when it is read in place, else jp's log. */
const logFileOf = (ref: ConversationRef): string => jpLogOf(ref) ?? inFolder(ref, LOG_FILE);

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
  ) {
    this.counts = new StatsCache(workspace);
    this.active = new WorkspaceState(workspace, clock, lockOptions);
  }

  private readonly counts: StatsCache;
  private readonly active: WorkspaceState;

  /**
   * Conversations sorted by id (creation time), oldest first: jp's, and the
   * ones JP archived (JP moves them into `.archive/`, with `archived_at` in
   * their metadata, so jp lists them with `ls --archived`).
   */
  list(): ConversationRef[] {
    return conversationRefs(this.workspace);
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
    const { ownConversationsDir: parent, ownRoot } = this.workspace;
    makeDirWithin(ownRoot, parent);
    const now = this.clock.now();
    const slug = options.title ? slugify(options.title) : "";
    const metadata: ConversationMetadata = {
      created_at: now.toISOString(),
      ...options.metadata,
      ...(options.title ? { title: options.title } : {}),
    };
    // The folder is written in full under a temporary name (never listed) and renamed
    // into place at the end: a crash or a failed write leaves nothing half-imported.
    removeStaleStaging(parent);
    let staging: string;
    try {
      staging = fs.mkdtempSync(path.join(parent, STAGING_PREFIX));
    } catch (error) {
      // The error names mkdtemp's template (…/.new-XXXXXX); the folder it could not write in is the one to name.
      if (error instanceof Error) Object.assign(error, { syscall: "write", path: parent });
      throw error;
    }
    try {
      writeJsonAtomic(path.join(staging, METADATA_FILE), metadata);
      writeFileAtomic(path.join(staging, LOG_FILE), serializedPieces(options.events ?? []));
      // Choosing an id and claiming its folder happen under one workspace-wide
      // lock: processes started in the same decisecond get distinct ids.
      const held = acquireLock(path.join(parent, CREATE_LOCK), this.lockOptions);
      try {
        const existing = new Set(this.list().map((r) => r.id));
        // Only an id jp can list is kept (an import's may be any name); any other gets a new one.
        let id = options.id !== undefined && /^\d{8,}$/.test(options.id) ? options.id : idForTime(now);
        while (existing.has(id)) id = String(BigInt(id) + 1n);
        const folder = slug ? `${id}-${slug}` : id;
        const dir = path.join(parent, folder);
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

  log(ref: ConversationRef): EventLog {
    return new EventLog(ownDir(ref), ref.id);
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
    const file = logFileOf(ref);
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

  /** The size in bytes of the file a conversation's events are read from (JP's own when read in place); 0 when there is none yet. */
  logBytes(ref: ConversationRef): number {
    try {
      return fs.statSync(logFileOf(ref)).size;
    } catch {
      return 0;
    }
  }

  /** The events of a conversation one at a time, without holding the log in memory. */
  *streamEvents(ref: ConversationRef): Generator<Event> {
    if (jpLogOf(ref)) {
      yield* jpEvents(ref);
      return;
    }
    this.checkJpSource(ref);
    for (const { event } of streamLog(inFolder(ref, LOG_FILE), { conversationId: ref.id })) yield event;
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
    this.makeOwnDir(ref);
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
    return storedMetadataOf(ref);
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
    this.makeOwnDir(ref);
    const held = acquireLock(inFolder(ref, METADATA_LOCK_FILE), { ...this.lockOptions, command: "jp" });
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

  /** Counts of a conversation's log, kept between runs (log-stats.ts). */
  stats(ref: ConversationRef): LogStats {
    return this.counts.stats(ref);
  }

  invalidateStats(ref: ConversationRef): void {
    this.counts.invalidate(ref);
  }

  /** The active conversation: this terminal session's, else the workspace's (state.ts). */
  activeId(): string | undefined {
    return this.active.activeId();
  }

  /** The conversation made active last in the workspace, in whichever terminal (JP's `r`). */
  recentId(): string | undefined {
    return this.active.recentId();
  }

  /** What `state.json` holds; a broken one is said once and counts as empty. */
  state(): Record<string, unknown> {
    return this.active.state();
  }

  /** Whether `state.json` exists but cannot be read as a JSON object. */
  stateIsBroken(): boolean {
    return this.active.isBroken();
  }

  /** Replace a broken `state.json` with an empty one; whether it was broken. */
  resetState(): boolean {
    return this.active.reset();
  }

  /** Make `id` the active conversation of this terminal session and of the workspace; undefined: none. */
  setActive(id: string | undefined): void {
    this.active.set(id);
  }

  /** No terminal has `id` active any more (it was removed or archived). */
  forgetActive(id: string): void {
    this.active.forget(id);
  }

  /** Conversations in `.trash/` (a folder trashed twice carries a `.N` suffix), oldest id first. */
  trashed(): ConversationRef[] {
    return trashedIn(this.workspace.trashDir);
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
      makeDirWithin(this.workspace.ownRoot, this.workspace.trashDir);
      let target = path.join(this.workspace.trashDir, ref.folder);
      for (let n = 1; fs.existsSync(target); n += 1)
        target = path.join(this.workspace.trashDir, `${ref.folder}.${n}`);
      fs.renameSync(ref.dir, target);
      // The lock moved with the folder; held by this process, it is removed there.
      removeFile(path.join(target, TURN_LOCK_FILE));
      this.forgetActive(ref.id);
      return target;
    } finally {
      turn.release();
    }
  }

  /** The conversation's turn lock, as `jp q` holds it for a turn: whoever else changes the conversation waits. */
  holdTurn(ref: ConversationRef, options: LockOptions = {}): HeldLock {
    this.makeOwnDir(ref);
    return acquireLock(inFolder(ref, TURN_LOCK_FILE), {
      ...this.lockOptions,
      command: "jp",
      ...options,
    });
  }

  /** The folder of jp's own files of a conversation JP wrote, made when jp first writes one. */
  private makeOwnDir(ref: ConversationRef): void {
    if (ref.own !== undefined) makeDirWithin(this.workspace.ownRoot, ref.own);
  }
}
