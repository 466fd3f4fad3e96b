// Owns the rows `conversation ls` lists: each conversation's title, labels,
// archive mark and counts. They are kept in .jp/cache/listing.json with what
// each conversation's folder looked like when it was read, so a listing of a
// thousand conversations reads one file and looks at each folder without
// opening anything; a conversation whose folder changed is read again.
//
// A folder's time changes whenever a file in it is made, removed or
// replaced. jp and JP replace their metadata, and JP its events.json, never
// writing them in place (JP's jp_storage writes each through a temporary
// file). jp writes its log only under the log's lock (store/log.ts), a file
// made in the folder and removed once the write is done: every write to a log
// changes its folder's time after it. What is missed is a file another
// program edits in place (a title edited by hand): it shows once jp next
// writes to that conversation.
import * as fs from "node:fs";
import * as path from "node:path";
import { fromSystemError } from "../errors.js";
import type { ConversationRef, ConversationStore } from "./conversations.js";
import { makeDirWithin, readJsonFile, writeFileAtomic } from "./files.js";
import { normalizeJpTimestamp } from "./import-jp.js";

export interface ListingRow {
  ref: ConversationRef;
  title: string | null;
  created_at: string;
  labels: string[];
  /** RFC 3339, whoever archived it (JP writes its own format). */
  archived_at: string | null;
  turns: number;
  events: number;
  last_event_at: string | null;
  /** Why it could not be read; such a row is read again by every listing. */
  error?: string;
}

type KeptRow = Omit<ListingRow, "ref" | "error">;

/** What a folder looked like: its time and inode. */
type Looks = [mtimeMs: number, ino: number];

/**
 * A conversation's labels as words: jp keeps a list; JP keeps a table of
 * `KEY = VALUE` (`{ "team": "infra", "urgent": true }`), shown as `team=infra`
 * and `urgent`.
 */
export function labelsOf(labels: unknown): string[] {
  if (Array.isArray(labels)) return labels.filter((l): l is string => typeof l === "string");
  if (typeof labels !== "object" || labels === null) return [];
  return Object.entries(labels).map(([key, value]) =>
    value === true || value === null || value === ""
      ? key
      : `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`,
  );
}

/** Whether `labels` hold `wanted`: the label itself, or for a key alone, that key with any value. */
export function hasLabel(labels: readonly string[], wanted: string): boolean {
  return labels.some(
    (label) => label === wanted || (!wanted.includes("=") && label.startsWith(`${wanted}=`)),
  );
}

/** A row as kept, as an array (a thousand of them parse faster than objects): its Looks, then its fields. */
type KeptEntry = [
  mtimeMs: number,
  ino: number,
  title: string | null,
  created_at: string,
  labels: string[],
  archived_at: string | null,
  turns: number,
  events: number,
  last_event_at: string | null,
];

/** Raised when what a row holds, or how it is read, changes: a listing kept by another version is read again. */
const LISTING_VERSION = 4;

/**
 * A file changed this recently may change again within its time's
 * granularity (a second on some filesystems) and look the same: its row is
 * not kept until it is older, as git treats its index.
 */
const SETTLE_MS = 2000;

const isStringOrNull = (value: unknown) => value === null || typeof value === "string";
const isCount = (value: unknown) => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

function isKeptEntry(value: unknown): value is KeptEntry {
  return (
    Array.isArray(value) &&
    value.length === 9 &&
    Number.isFinite(value[0]) &&
    isCount(value[1]) &&
    isStringOrNull(value[2]) &&
    typeof value[3] === "string" &&
    Array.isArray(value[4]) &&
    value[4].every((l) => typeof l === "string") &&
    isStringOrNull(value[5]) &&
    isCount(value[6]) &&
    isCount(value[7]) &&
    isStringOrNull(value[8])
  );
}

function toKeptEntry(looks: Looks, row: KeptRow): KeptEntry {
  const { title, created_at, labels, archived_at, turns, events, last_event_at } = row;
  return [...looks, title, created_at, labels, archived_at, turns, events, last_event_at];
}

function rowOf(ref: ConversationRef, e: KeptEntry): ListingRow {
  const [, , title, created_at, labels, archived_at, turns, events, last_event_at] = e;
  return { ref, title, created_at, labels, archived_at, turns, events, last_event_at };
}

const sameLooks = (kept: KeptEntry, now: Looks) => kept[0] === now[0] && kept[1] === now[1];

/** The rows kept by the last listing, by folder; none when there is no such file or it cannot be read. */
function readKept(file: string): Partial<Record<string, unknown>> | undefined {
  try {
    const kept = readJsonFile<{ version?: unknown; rows?: unknown }>(file);
    const rows = kept?.version === LISTING_VERSION ? kept.rows : undefined;
    return typeof rows === "object" && rows !== null && !Array.isArray(rows) ? rows : undefined;
  } catch {
    return undefined;
  }
}

/** What `ref`'s folder looks like now, and whether it is settled; none when it is gone. */
function lookAt(ref: ConversationRef, now: number): { looks: Looks; settled: boolean } | undefined {
  const folder = fs.statSync(ref.dir, { throwIfNoEntry: false });
  if (!folder) return undefined;
  // jp's own files of a folder JP wrote change the folder they are kept in (ConversationRef.own).
  const own = ref.own === undefined ? undefined : fs.statSync(ref.own, { throwIfNoEntry: false });
  const changed = Math.max(folder.mtimeMs, own?.mtimeMs ?? 0);
  return { looks: [changed, folder.ino], settled: now - changed > SETTLE_MS };
}

/** A conversation's row as its files say now, or with why they cannot be read. */
function readRow(store: ConversationStore, ref: ConversationRef): ListingRow {
  let title: string | null = null;
  let createdAt = "";
  let labels: string[] = [];
  let archivedAt: string | null = null;
  try {
    const metadata = store.metadata(ref);
    title = metadata.title ?? null;
    createdAt = metadata.created_at;
    labels = labelsOf(metadata.labels);
    const archived = metadata.archived_at;
    archivedAt = typeof archived === "string" ? (normalizeJpTimestamp(archived) ?? archived) : null;
    const stats = store.stats(ref);
    return {
      ref,
      title,
      created_at: createdAt,
      labels,
      archived_at: archivedAt,
      turns: stats.turns,
      events: stats.events,
      last_event_at: stats.last_event_at ?? null,
    };
  } catch (error) {
    // One unreadable folder never hides the rest of the workspace.
    const described = fromSystemError(error) ?? error;
    const reason = described instanceof Error ? described.message : String(described);
    const row = { title, created_at: createdAt, labels, archived_at: archivedAt };
    return { ref, ...row, turns: 0, events: 0, last_event_at: null, error: reason };
  }
}

/**
 * Every conversation's row, oldest first, archived ones included. Rows whose
 * folder looks as it did when kept are not read again; the rest
 * are, and kept for the next listing (a workspace whose cache cannot be
 * written still lists).
 */
export function listConversations(store: ConversationStore, now = Date.now()): ListingRow[] {
  const file = path.join(store.workspace.localDir, "cache", "listing.json");
  const kept = readKept(file);
  const rows: Record<string, KeptEntry> = {};
  const listed: ListingRow[] = [];
  let changed = false;
  // Named from the conversations folder: a workspace moved elsewhere keeps its rows.
  const { conversationsDir, ownConversationsDir } = store.workspace;
  for (const ref of store.list()) {
    // jp's own conversations of a JP workspace, kept outside it, by a name JP's folders never have.
    const name = ref.dir.startsWith(`${conversationsDir}${path.sep}`)
      ? ref.dir.slice(conversationsDir.length + 1)
      : `jp:${ref.dir.slice(ownConversationsDir.length + 1)}`;
    // Own keys only: a folder name is not looked up on Object.prototype.
    const entry = kept && Object.hasOwn(kept, name) ? kept[name] : undefined;
    const previous = isKeptEntry(entry) ? entry : undefined;
    // Looked at before the files are read: a change made while they are read shows next time.
    const look = lookAt(ref, now);
    if (previous && look && sameLooks(previous, look.looks)) {
      rows[name] = previous;
      listed.push(rowOf(ref, previous));
      continue;
    }
    const read = readRow(store, ref);
    listed.push(read);
    if (read.error !== undefined || !look?.settled) continue;
    const { ref: _ref, error: _error, ...row } = read;
    rows[name] = toKeptEntry(look.looks, row);
    changed = true;
  }
  // A row not kept any more (its conversation gone, unreadable or changing) is dropped from the file.
  if (changed || Object.keys(kept ?? {}).length !== Object.keys(rows).length)
    keepRows(store.workspace.localRoot, file, rows);
  return listed;
}

function keepRows(localRoot: string, file: string, rows: Record<string, KeptEntry>): void {
  try {
    // A cache folder that links elsewhere is not written through; the rows are then read each time.
    makeDirWithin(localRoot, path.dirname(file));
    writeFileAtomic(file, JSON.stringify({ version: LISTING_VERSION, rows }));
  } catch {
    // The cache is an optimisation; a read-only workspace still lists.
  }
}
