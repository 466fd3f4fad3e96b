// Owns checking a conversation's log and repairing what can be repaired
// without losing anything: torn and malformed lines move to the quarantine
// file; the log is replaced by a new file (the old one kept beside it), never
// edited in place.
import { isKind, repairInterruptedTurn, type Event } from "../events/index.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkProviderView, describeViewProblem, project } from "../compaction/index.js";
import type { ConversationRef, ConversationStore } from "./conversations.js";
import { BOM, isSymlink, parseLine, readLines } from "./log.js";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
import { isHeld, lockLeftBehind, removeLeftLock } from "./lock.js";
import { TURN_LOCK_FILE } from "./conversations.js";
import { inFolder } from "./folders.js";

export interface DoctorFinding {
  kind:
    | "torn_tail"
    | "malformed_line"
    | "byte_order_mark"
    | "view_problem"
    | "unanswered_tool_call"
    | "unanswered_request"
    | "left_lock"
    | "broken_state"
    | "unreadable_metadata"
    | "linked_file";
  line?: number;
  detail: string;
  repaired: boolean;
}

export interface DoctorReport {
  id: string;
  findings: DoctorFinding[];
  /** Where the log was before it was replaced, if it was. */
  backup?: string;
}

type EventLog = ReturnType<ConversationStore["log"]>;
type BadLine = { line: number; offset: number; text: string; reason: string };

/** Locks a dead process left, or broken ones (empty, a folder), which would make every writer wait. */
function leftLocks(log: EventLog, ref: ConversationRef, repair: boolean): DoctorFinding[] {
  return [log.lockFile, inFolder(ref, TURN_LOCK_FILE)].flatMap((lock) => {
    const why = repair ? removeLeftLock(lock, "jp doctor") : lockLeftBehind(lock);
    return why
      ? [{ kind: "left_lock" as const, detail: `${path.basename(lock)}: ${why}`, repaired: repair }]
      : [];
  });
}

/** The log's lines that are not events, and a tail an interrupted write left unfinished. */
function unreadable(log: EventLog): { bad: BadLine[]; torn?: { offset: number; bytes: number } } {
  const bad: BadLine[] = [];
  let torn: { offset: number; bytes: number } | undefined;
  for (const raw of readLines(log.file, { onTorn: (offset, bytes) => (torn = { offset, bytes }) })) {
    const parsed = parseLine(raw.text);
    if (typeof parsed === "string") bad.push({ ...raw, reason: parsed });
  }
  return torn ? { bad, torn } : { bad };
}

/** Whether the log starts with a byte order mark; false without a log. */
function startsWithBom(file: string): boolean {
  const head = Buffer.alloc(3);
  try {
    const fd = fs.openSync(file, "r");
    try {
      fs.readSync(fd, head, 0, 3, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // No log yet: nothing to check.
  }
  return head.equals(UTF8_BOM);
}

/**
 * What an interruption left unanswered (answered by appending, unless a running
 * `jp q` holds the turn: then it is in progress), and what else would make the
 * provider's view invalid (reported, not repaired).
 */
function unanswered(
  log: EventLog,
  ref: ConversationRef,
  options: { repair: boolean; now: Date },
): { repairs: Event[]; findings: DoctorFinding[] } {
  const events = log.read().events;
  const inProgress = isHeld(inFolder(ref, TURN_LOCK_FILE));
  const repairs = inProgress ? [] : repairInterruptedTurn(events, options.now.toISOString());
  const findings: DoctorFinding[] = repairs.map((r) =>
    isKind(r, "tool_call_response")
      ? {
          kind: "unanswered_tool_call",
          detail: `tool call ${r.id} has no result (an interrupted turn)`,
          repaired: options.repair,
        }
      : {
          kind: "unanswered_request",
          detail: "the last question got no answer (an interrupted turn)",
          repaired: options.repair,
        },
  );
  for (const problem of checkProviderView(project([...events, ...repairs]).events))
    findings.push({ kind: "view_problem", detail: describeViewProblem(problem), repaired: false });
  return { repairs, findings };
}

/**
 * Under the lock (which quarantines a torn tail itself): malformed lines go to
 * the quarantine file and the good ones, without a byte order mark, to a new
 * log; the old one is kept beside it. Returns where.
 */
function rewriteLog(log: EventLog, bad: readonly BadLine[], now: Date): string {
  const badLines = new Set(bad.map((b) => b.line));
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  const repaired = `${log.file}.repair-${stamp}`;
  const fd = fs.openSync(repaired, "w", 0o644);
  try {
    for (const raw of readLines(log.file)) {
      if (badLines.has(raw.line)) {
        log.quarantine(Buffer.from(raw.text), `malformed line ${raw.line} of ${log.file}`);
      } else {
        const text = raw.line === 1 && raw.text.charCodeAt(0) === BOM ? raw.text.slice(1) : raw.text;
        fs.writeSync(fd, text + "\n");
      }
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  const backup = `${log.file}.before-doctor-${stamp}`;
  fs.linkSync(log.file, backup);
  fs.renameSync(repaired, log.file);
  return backup;
}

/**
 * Files of the folder jp cannot use as they are: a metadata.json it cannot
 * read, and a quarantine file that is a link (jp never writes through one).
 * Repairing moves each aside, so nothing is lost.
 */
function folderFindings(
  store: ConversationStore,
  log: EventLog,
  ref: ConversationRef,
  options: { repair: boolean; now: Date },
): DoctorFinding[] {
  const findings: DoctorFinding[] = [];
  const { problem } = store.storedMetadata(ref);
  if (problem) {
    const repaired = options.repair && store.setMetadataAside(ref, options.now) !== undefined;
    findings.push({ kind: "unreadable_metadata", detail: problem, repaired });
  }
  if (isSymlink(log.quarantineFile)) {
    if (options.repair)
      fs.renameSync(
        log.quarantineFile,
        `${log.quarantineFile}.link-${options.now.toISOString().replace(/[:.]/g, "-")}`,
      );
    findings.push({
      kind: "linked_file",
      detail: "events.quarantine is a symbolic link; jp does not write through links",
      repaired: options.repair,
    });
  }
  return findings;
}

export function doctorConversation(
  store: ConversationStore,
  ref: ConversationRef,
  options: { repair: boolean; now: Date },
): DoctorReport {
  const log = store.log(ref);
  const findings = [...leftLocks(log, ref, options.repair), ...folderFindings(store, log, ref, options)];
  const { bad, torn } = unreadable(log);
  for (const b of bad)
    findings.push({ kind: "malformed_line", line: b.line, detail: b.reason, repaired: options.repair });
  const bom = startsWithBom(log.file);
  if (bom)
    findings.push({
      kind: "byte_order_mark",
      line: 1,
      detail: "the log starts with a byte order mark (saved by an editor?)",
      repaired: options.repair,
    });
  if (torn)
    findings.push({
      kind: "torn_tail",
      detail: `${torn.bytes} bytes from byte ${torn.offset} on that an interrupted write left unfinished`,
      repaired: options.repair,
    });
  // Events are read only from a log whose every line is one.
  const { repairs, findings: more } =
    bad.length === 0 ? unanswered(log, ref, options) : { repairs: [], findings: [] };
  findings.push(...more);
  const report: DoctorReport = { id: ref.id, findings };
  const settled = new Set<DoctorFinding["kind"]>([
    "view_problem",
    "left_lock",
    "unreadable_metadata",
    "linked_file",
  ]);
  if (!options.repair || findings.every((f) => settled.has(f.kind))) return report;
  if (repairs.length > 0) store.append(ref, repairs);
  log.withLock({}, () => {
    if (bad.length > 0 || bom) report.backup = rewriteLog(log, bad, options.now);
  });
  store.invalidateStats(ref);
  return report;
}
