// `jp conversation import PATH…`: import JP conversations.
import * as path from "node:path";
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { JpError } from "../../../errors.js";
import { findJpConversations, importJpConversation, type ImportResult } from "../../../store/import-jp.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("import <paths...>")
    .description("import JP conversations: conversation folders, or a JP .jp/ folder (imports all)")
    .option("--json", "print one object per imported conversation: { id, source, title, counts }")
    .action((paths: string[], opts: { json?: boolean }) => {
      const store = ctx.store();
      const imported: ImportResult[] = [];
      const failures: string[] = [];
      for (const input of paths) {
        for (const dir of findJpConversations(path.resolve(ctx.cwd, input))) {
          try {
            const result = importJpConversation(store, dir);
            if ("reason" in result) {
              ctx.warn(`skipped ${result.source}: ${result.reason}`);
              continue;
            }
            imported.push(result);
            if (!opts.json) {
              const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
              ctx.out(`Imported ${result.id}${result.title ? ` (${result.title})` : ""}: ${total} events`);
            }
          } catch (error) {
            if (!(error instanceof JpError)) throw error;
            failures.push(error.message);
            ctx.stderr.write(`jp: error: ${error.message}\n${error.hint ? `  hint: ${error.hint}\n` : ""}`);
          }
        }
      }
      if (opts.json) ctx.out(JSON.stringify(imported, null, 2));
      if (failures.length > 0) {
        throw new JpError("store.import", `${failures.length} conversation(s) were not imported`, {
          hint: imported.length > 0 ? `${imported.length} other(s) were imported` : undefined,
        });
      }
    });
}
