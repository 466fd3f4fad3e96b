// A conversation's folder: its id and name, the files jp and JP keep in it, and
// reading its metadata without following a link.
import * as fs from "node:fs";
import * as path from "node:path";
import { errnoCode } from "../errors.js";
import { type Event } from "../events/index.js";
import { streamJpConversation } from "./import-jp.js";
import { LOG_FILE } from "./log.js";
import { trimEndOf } from "../trim.js";
import type { Workspace } from "./workspace.js";

/** JP's events.json of a folder jp has written no log into: JP's conversation, read in place. */
export function jpLogOf(ref: ConversationRef): string | undefined {
  const json = inFolder(ref, JP_LOG_FILE);
  return !fs.existsSync(inFolder(ref, LOG_FILE)) && fs.existsSync(json) ? json : undefined;
}

/** A JP conversation's events, converted as they are read; none when it holds none. */
export function* jpEvents(ref: ConversationRef): Generator<Event> {
  const streamed = streamJpConversation(ref.dir);
  if (!("reason" in streamed)) yield* streamed.events;
}

/** A folder JP wrote (its events.json): JP's files in it are only read, jp's own sit beside them. */
export function isJpFolder(ref: ConversationRef): boolean {
  return fs.existsSync(inFolder(ref, JP_LOG_FILE));
}

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
  /**
   * For a folder JP wrote in a JP workspace: where jp keeps its own files of
   * it (its log, metadata, locks), outside JP's repository. JP's own files
   * are read from `dir`.
   */
  own?: string;
}

export const METADATA_FILE = "metadata.json";
/** The log JP writes, read in place; jp never writes it. */
export const JP_LOG_FILE = "events.json";
/** Where JP moves the conversations it archives. */
export const JP_ARCHIVE_DIR = ".archive";
/** jp's metadata of a conversation JP wrote, whose metadata.json is JP's. */
export const JP_FOLDER_METADATA_FILE = "metadata.jp.json";
export const CREATE_LOCK = ".create.lock";
/** Folders being created; the name never matches a conversation id, so they are never listed. */
export const STAGING_PREFIX = ".new-";
const STALE_STAGING_MS = 60 * 60 * 1000;
/** Held by `jp q` for a whole turn, so a second one on the same conversation is told who runs it. */
export const TURN_LOCK_FILE = "turn.lock";
/** Held only around a read-modify-write of the metadata file: a label added meanwhile is never lost. */
export const METADATA_LOCK_FILE = "metadata.lock";
export const ID_PATTERN = /^(\d{8,})(?:-(.*))?$/;

export function slugify(title: string): string {
  const dashed = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{Letter}\p{Number}]+/gu, "-")
    .replace(/[^a-z0-9-]/g, "")
    .replace(/^-+/, "");
  return trimEndOf(dashed.slice(0, 60), "-");
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
export function inFolder(ref: ConversationRef, name: string): string {
  const dir = ref.own !== undefined && !JP_FILES.has(name) ? ref.own : ref.dir;
  return `${dir}${path.sep}${name}`;
}

/** The files JP writes in a conversation's folder: read where JP keeps them, whoever's folder it is. */
const JP_FILES: ReadonlySet<string> = new Set([JP_LOG_FILE, "metadata.json", "base_config.json"]);

/** Where jp writes its files of a conversation (see ConversationRef.own). */
export function ownDir(ref: ConversationRef): string {
  return ref.own ?? ref.dir;
}

/** The names in a folder; none when it does not exist yet. */
export function folderNames(dir: string): string[] {
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
    fd = fs.openSync(
      inFolder(ref, file),
      fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK,
    );
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

/** A conversation's metadata file as stored, with what keeps jp from reading it (see ConversationStore.storedMetadata). */
export function storedMetadataOf(ref: ConversationRef): { value?: object; problem?: string; file: string } {
  const shared = readMetadataFile(ref, METADATA_FILE);
  // jp's own metadata.json always has created_at: only another tool's sends jp to look further.
  if (shared.value && "created_at" in shared.value) return shared;
  // Looked for first, not opened: a missing file's exception, per JP conversation listed, costs more.
  if (!fs.existsSync(inFolder(ref, JP_FOLDER_METADATA_FILE))) return shared;
  const own = readMetadataFile(ref, JP_FOLDER_METADATA_FILE);
  return own.value || own.problem ? own : shared;
}

/**
 * The workspace's conversations, oldest id first: JP's folders (and those
 * JP archived into `.archive/`) and jp's, which in a JP workspace live
 * outside it, with `own` set on each folder JP wrote there.
 */
export function conversationRefs(workspace: Workspace): ConversationRef[] {
  const refs: ConversationRef[] = [];
  const { conversationsDir, ownConversationsDir, jpFoldersDir } = workspace;
  const parents = [conversationsDir, `${conversationsDir}${path.sep}${JP_ARCHIVE_DIR}`];
  if (ownConversationsDir !== conversationsDir) parents.push(ownConversationsDir);
  for (const parent of parents)
    for (const folder of folderNames(parent)) {
      const match = ID_PATTERN.exec(folder);
      if (!match) continue;
      // Not path.join: the folder name is one segment and the parent is already normal.
      const ref: ConversationRef = { id: match[1]!, folder, dir: `${parent}${path.sep}${folder}` };
      if (jpFoldersDir && parent !== ownConversationsDir && isJpFolder(ref))
        ref.own = `${jpFoldersDir}${path.sep}${folder}`;
      refs.push(ref);
    }
  return refs.sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Conversations in a trash folder (a folder trashed twice carries a `.N` suffix), oldest id first. */
export function trashedIn(trashDir: string): ConversationRef[] {
  return folderNames(trashDir)
    .flatMap((folder) => {
      const match = ID_PATTERN.exec(folder.replace(/\.\d+$/, ""));
      return match ? [{ id: match[1]!, folder, dir: path.join(trashDir, folder) }] : [];
    })
    .sort((a, b) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Staging folders a killed process left behind. One untouched for an hour
 * belongs to no create still running (a create writes and renames in seconds).
 */
export function removeStaleStaging(dir: string): void {
  // File times are the real clock's, whatever clock the store was given.
  const now = Date.now();
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
