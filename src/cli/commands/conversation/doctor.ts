// `jp conversation doctor [ID]`: check logs and repair them by quarantining bad lines.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import type { ConversationStore } from "../../../store/conversations.js";
import { doctorConversation, type DoctorReport } from "../../../store/doctor.js";
import { cleanSpillFiles } from "../../../store/private-temp.js";
import { counted } from "../../../render/words.js";

const SPILL_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

const REPAIRED: Record<DoctorReport["findings"][number]["kind"], string> = {
  torn_tail: " — moved to events.quarantine",
  malformed_line: " — moved to events.quarantine",
  byte_order_mark: " — removed (the previous log is kept)",
  unanswered_tool_call: " — answered: interrupted (appended)",
  unanswered_request: " — marked failed (appended); it is not sent again",
  view_problem: "",
  left_lock: " — removed",
  broken_state: " — reset: no conversation is active",
  unreadable_metadata: " — moved aside (kept as metadata.json.unreadable-TIME)",
  linked_file: " — the link moved aside (events.quarantine.link-TIME); a file is made when one is needed",
};

/** The workspace's own state: a `state.json` that cannot be read is reset to no active conversation. */
function workspaceReport(store: ConversationStore, repair: boolean): DoctorReport[] {
  const broken = repair ? store.resetState() : store.stateIsBroken();
  if (!broken) return [];
  return [
    {
      id: "workspace",
      findings: [
        {
          kind: "broken_state",
          detail: "state.json cannot be read (the active conversation is unknown)",
          repaired: repair,
        },
      ],
    },
  ];
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command("doctor [id]")
    .description(
      "check a conversation's log (default: every conversation) and quarantine torn or malformed lines",
    )
    .option("--check", "only report; change nothing, and exit 1 if anything is wrong")
    .option("--json", "print one report per conversation: { id, findings, backup }")
    .option(
      "--clean-spills",
      "also remove the compact tool's spill files older than 7 days from your private temp folder (with --check, only count them)",
    )
    .action((id: string | undefined, opts: { check?: boolean; json?: boolean; cleanSpills?: boolean }) => {
      // Part of the report on stdout; beside --json, whose output stays one report per conversation, on stderr.
      if (opts.cleanSpills) {
        const old = cleanSpillFiles(ctx.clock.now().getTime(), SPILL_MAX_AGE_MS, { dryRun: opts.check });
        const files = `${counted(old, "spill file")} older than 7 days`;
        const line = opts.check
          ? `${files} (--check leaves them; without it they are removed)`
          : `removed ${files}`;
        if (opts.json) ctx.info(line);
        else ctx.out(line);
      }
      const store = ctx.store();
      const refs = id === undefined ? store.list() : [store.resolve(id)];
      const reports: DoctorReport[] = [
        ...workspaceReport(store, !opts.check),
        ...refs.map((ref) => doctorConversation(store, ref, { repair: !opts.check, now: ctx.clock.now() })),
      ];
      // For scripts and CI: a check that finds anything fails.
      if (opts.check && reports.some((r) => r.findings.length > 0)) ctx.exitCode = 1;
      if (opts.json) {
        ctx.out(JSON.stringify(reports, null, 2));
        return;
      }
      for (const report of reports) {
        if (report.findings.length === 0) {
          ctx.out(`${report.id}: ok`);
          continue;
        }
        for (const f of report.findings) {
          const where = f.line !== undefined ? ` line ${f.line}` : "";
          ctx.out(
            `${report.id}:${where} ${f.kind.replaceAll("_", " ")}: ${f.detail}${f.repaired ? REPAIRED[f.kind] : ""}`,
          );
        }
        if (report.backup) ctx.out(`${report.id}: the previous log is kept as ${report.backup}`);
      }
    });
}
