// `jp conversation import PATH…`: import JP conversations.
import * as path from "node:path";
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { JpError } from "../../../errors.js";
import { megabytes, progressLine } from "../../../render/progress.js";
import { counted } from "../../../render/words.js";
import { importJpConversation } from "../../../store/import-into.js";
import { findJpConversations, type ImportProgress, type ImportResult } from "../../../store/import-jp.js";
import { grouped } from "../../../numbers.js";

const EACH_LINE_UP_TO = 10;

export function register(parent: Command, ctx: Context): void {
  parent
    .command("import <paths...>")
    .description(
      "import conversations: JP conversation folders, conversation folders of another jp workspace, or a .jp/ folder (imports all it holds)",
    )
    .option("--json", "print one object per imported conversation: { id, source, title, counts }")
    .action((paths: string[], opts: { json?: boolean }) => {
      const store = ctx.store();
      const imported: ImportResult[] = [];
      const failures: string[] = [];
      const dirs = paths.flatMap((input) => findJpConversations(path.resolve(ctx.cwd, input)));
      // One line per conversation for a few; for many, the total at the end says it all.
      const each = !opts.json && dirs.length <= EACH_LINE_UP_TO;
      let skipped = 0;
      const progress = progressLine(
        ctx.stderr,
        (done, total) => `importing… ${done} of ${total} conversations`,
      );
      // Within one large conversation: how much of it is read (and converted and written as it goes).
      const within = progressLine(
        ctx.stderr,
        (done, total) =>
          `importing: ${megabytes(done)} of ${megabytes(total)} (${Math.floor((done / total) * 100)}%)`,
      );
      const report: ImportProgress = (_phase, done, total) => {
        within(done, total);
      };
      for (const [i, dir] of dirs.entries()) {
        progress(i, dirs.length);
        try {
          const result = importJpConversation(store, dir, report);
          if ("reason" in result) {
            ctx.warn(`skipped ${result.source}: ${result.reason}`);
            skipped += 1;
            continue;
          }
          imported.push(result);
          if (each) {
            const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
            ctx.out(
              `Imported ${result.id}${result.title ? ` (${result.title})` : ""}: ${counted(total, "event")}`,
            );
          }
        } catch (error) {
          if (!(error instanceof JpError)) throw error;
          failures.push(error.message);
          ctx.stderr.write(`jp: error: ${error.message}\n${error.hint ? `  hint: ${error.hint}\n` : ""}`);
        }
      }
      progress(dirs.length, dirs.length);
      if (opts.json) ctx.out(JSON.stringify(imported, null, 2));
      else if (dirs.length > 1) {
        const events = imported.reduce((n, r) => n + Object.values(r.counts).reduce((a, b) => a + b, 0), 0);
        ctx.out(
          `Imported ${imported.length} of ${dirs.length} conversations (${grouped(events)} events)` +
            `${skipped ? `; ${skipped} skipped` : ""}${failures.length ? `; ${failures.length} failed` : ""}.`,
        );
      }
      if (failures.length > 0) {
        throw new JpError(
          "store.import",
          `${counted(failures.length, "conversation")} ${failures.length === 1 ? "was" : "were"} not imported`,
          {
            hint: imported.length > 0 ? `${imported.length} other(s) were imported` : undefined,
          },
        );
      }
    });
}
