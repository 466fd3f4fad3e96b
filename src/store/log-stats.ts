// The counts of a conversation's log that `ls` and `show` print, and the cache
// that keeps them (`.jp/cache/stats/`), so only new lines are read.
import * as fs from "node:fs";
import * as path from "node:path";
import { makeDirWithin, readJsonFile, writeJsonAtomic } from "./files.js";
import { inFolder, JP_LOG_FILE, jpEvents, type ConversationRef } from "./folders.js";
import { LOG_FILE, parseLine, readLines } from "./log.js";
import type { Workspace } from "./workspace.js";
import {
  addUsage,
  emptyUsage,
  isJsonObject,
  isKnown,
  kindOf,
  recordedUsages,
  reportsReasoning,
  TurnCounter,
  type Event,
  type UsageTotals,
} from "../events/index.js";
import { removeFile } from "../remove-file.js";

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
  /**
   * The log these counts are of, as this machine names the file (device and
   * inode): counts a repository committed, or kept for another file, are
   * never taken for this log's, whatever size they claim.
   */
  log_file?: string;
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

/**
 * 2: attempts that retries threw away are counted, and hour-long cache writes
 * apart; 3: answers that record reasoning not sent (`reasoning_reports`);
 * 4: the last model and question (`last_model`, `last_question`);
 * 5: the costs requests recorded (`cost_usd`, `costed_requests`).
 */
const USAGE_COUNTING = 5;
/** How much of the last question the counts keep: more than a list line shows. */
const QUESTION_CHARS = 160;

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

/** The counts of each conversation, kept in `.jp/cache/stats/` between runs. */
export class StatsCache {
  constructor(private readonly workspace: Workspace) {}

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
    const logFile = stat ? `${stat.dev}:${stat.ino}` : undefined;
    // Caches written before usage was counted (as it is now) are recounted once, the counts
    // of JP's events.json (jp_source) are not a start for jp's own log begun beside it, and
    // counts of another file (one a repository committed) are not this log's.
    const kept = this.cachedStats(ref);
    const cached =
      kept?.usage_counting === USAGE_COUNTING && !kept.jp_source && kept.log_file === logFile
        ? kept
        : undefined;
    if (cached && cached.bytes === size) return cached;
    const resume = cached && cached.bytes < size ? cached : undefined;
    const stats: LogStats = resume
      ? { ...resume, kinds: { ...resume.kinds }, usage: structuredClone(resume.usage) }
      : { ...emptyStats(), ...(logFile ? { log_file: logFile } : {}) };
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

  invalidate(ref: ConversationRef): void {
    removeFile(this.statsFile(ref));
  }
}
