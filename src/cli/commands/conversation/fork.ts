// `jp conversation fork [ID]`: copy a conversation (or its last N turns) into a new one.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { UsageError } from "../../../errors.js";
import { forkConversation } from "../../../service/fork.js";
import {
  addSpecOptions,
  COMPACT_SPEC_FLAG,
  compactWithSpecs,
  type SpecOptions,
} from "../../compact-options.js";
import type { OptionalValueFlag } from "../../argv.js";
import { counted } from "../../../render/words.js";

export const optionalValues: OptionalValueFlag[] = [COMPACT_SPEC_FLAG];

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command("fork [id]")
    .description("copy a conversation (default: the active one) into a new conversation and make it active")
    .option("--last <n>", "keep only the last N turns")
    .option("--title <title>", "title of the fork (default: the original's, marked as a fork)")
    .option("--json", "print the new conversation as JSON");
  addSpecOptions(cmd).action(
    async (id: string | undefined, opts: SpecOptions & { last?: string; title?: string; json?: boolean }) => {
      let last: number | undefined;
      if (opts.last !== undefined) {
        last = Number(opts.last);
        if (!Number.isInteger(last) || last < 1)
          throw new UsageError(`--last takes a positive number of turns, got '${opts.last}'`);
      }
      const store = ctx.store();
      const source = store.resolve(id);
      const { ref, events } = forkConversation(store, source, {
        ...(last !== undefined ? { last } : {}),
        ...(opts.title !== undefined ? { title: opts.title } : {}),
      });
      store.setActive(ref.id);
      // With -k, the fork is compacted by the same rules once its turns are chosen.
      const compactions =
        opts.compact || opts.compactSpec?.length
          ? (await compactWithSpecs(ctx, ref, opts, (await ctx.config({ conversation: ref })).config)).length
          : 0;
      if (opts.json) {
        ctx.out(
          JSON.stringify({
            id: ref.id,
            forked_from: source.id,
            events,
            compactions,
            path: ref.dir,
          }),
        );
      } else {
        const extra = compactions ? `, ${counted(compactions, "compaction")}` : "";
        ctx.out(`Forked ${source.id} into ${ref.id} (${events} events${extra}); it is now active.`);
      }
    },
  );
}
