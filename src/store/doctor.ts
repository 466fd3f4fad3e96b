// Owns checking a conversation's log and repairing what can be repaired
// without losing anything: torn and malformed lines move to the quarantine
// file; the log is replaced by a new file (the old one kept beside it), never
// edited in place.
import { isKind, repairInterruptedTurn } from "../events/index.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkProviderView, describeViewProblem, project } from "../compaction/index.js";
import type { ConversationRef, ConversationStore } from "./conversations.js";
import { BOM, parseLine, readLines } from "./log.js";

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
import { isHeld, lockLeftBehind, removeLeftLock } from "./lock.js";
import { TURN_LOCK_FILE } from "./conversations.js";

export interface DoctorFinding {
  kind:
    | "torn_tail"
    | "malformed_line"
    | "byte_order_mark"
    | "view_problem"
    | "unanswered_tool_call"
    | "unanswered_request"
    | "left_lock"
    | "broken_state";
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

export function doctorConversation(
  store: ConversationStore,
  ref: ConversationRef,
  options: { repair: boolean; now: Date },
): DoctorReport {
  const log = store.log(ref);
  const findings: DoctorFinding[] = [];
  // A lock a dead process left, or a broken one (empty, a folder), would make every writer wait.
  for (const lock of [log.lockFile, path.join(ref.dir, TURN_LOCK_FILE)]) {
    const why = options.repair ? removeLeftLock(lock, "jp doctor") : lockLeftBehind(lock);
    if (why)
      findings.push({
        kind: "left_lock",
        detail: `${path.basename(lock)}: ${why}`,
        repaired: options.repair,
      });
  }
  const bad: { line: number; offset: number; text: string; reason: string }[] = [];
  let torn: { offset: number; bytes: number } | undefined;
  for (const raw of readLines(log.file, {
    onTorn: (offset, bytes) => (torn = { offset, bytes }),
  })) {
    const parsed = parseLine(raw.text);
    if (typeof parsed === "string") bad.push({ ...raw, reason: parsed });
  }
  for (const b of bad) {
    findings.push({ kind: "malformed_line", line: b.line, detail: b.reason, repaired: options.repair });
  }
  const head = Buffer.alloc(3);
  try {
    const fd = fs.openSync(log.file, "r");
    try {
      fs.readSync(fd, head, 0, 3, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // No log yet: nothing to check.
  }
  const bom = head.equals(UTF8_BOM);
  if (bom) {
    findings.push({
      kind: "byte_order_mark",
      line: 1,
      detail: "the log starts with a byte order mark (saved by an editor?)",
      repaired: options.repair,
    });
  }
  if (torn) {
    findings.push({
      kind: "torn_tail",
      detail: `${torn.bytes} bytes from byte ${torn.offset} on that an interrupted write left unfinished`,
      repaired: options.repair,
    });
  }
  const report: DoctorReport = { id: ref.id, findings };
  let repairs: ReturnType<typeof repairInterruptedTurn> = [];
  if (bad.length === 0) {
    const events = log.read().events;
    // A tool call left without a result by an interruption is answered by appending an error result.
    // A turn that a running `jp q` holds is in progress, not interrupted.
    const inProgress = isHeld(path.join(ref.dir, TURN_LOCK_FILE));
    repairs = inProgress ? [] : repairInterruptedTurn(events, options.now.toISOString());
    for (const r of repairs) {
      findings.push(
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
    }
    // Whatever else would make the provider's view invalid is reported, not repaired.
    const repaired = [...events, ...repairs];
    for (const problem of checkProviderView(project(repaired).events)) {
      findings.push({ kind: "view_problem", detail: describeViewProblem(problem), repaired: false });
    }
  }
  if (!options.repair || findings.every((f) => f.kind === "view_problem" || f.kind === "left_lock"))
    return report;
  if (repairs.length > 0) store.append(ref, repairs);

  // Under the lock: the torn tail is quarantined by withLock itself; malformed
  // lines are quarantined and the good lines written to a new log.
  log.withLock({}, () => {
    if (bad.length === 0 && !bom) return;
    const badLines = new Set(bad.map((b) => b.line));
    const stamp = options.now.toISOString().replace(/[:.]/g, "-");
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
    report.backup = `${log.file}.before-doctor-${stamp}`;
    fs.linkSync(log.file, report.backup);
    fs.renameSync(repaired, log.file);
  });
  store.invalidateStats(ref);
  return report;
}
