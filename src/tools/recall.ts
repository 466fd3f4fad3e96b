// Owns the built-in `recall` tool: the model reads back, from the raw log,
// what compaction or a long output's cut took from its view. Read-only and
// run without asking; offered only while the view has something to recall.
import { recall, type OutputCap } from "../compaction/index.js";
import { checkRecallArgs, isRecallArgs, RECALL_PARAMETERS } from "./recall-args.check.js";
import type { Tool } from "./types.js";

export const RECALL_TOOL = "recall";

/**
 * The tools a request offers: `recall` only while the view has something it
 * can read back (a compaction in effect, or a tool output cut by the view).
 * `stable`: the model binds its reasoning to the tools offered (preserved
 * thinking), so `recall` is offered from the first request on: its
 * appearing with the first compaction would change the tools, and with them
 * the prefix of every earlier thinking block.
 */
export function withRecallWhenUseful<T extends { name: string }>(
  tools: readonly T[],
  view: { activeCompactions: number; cutOutputs: number; stable?: boolean },
): T[] {
  const useful = view.stable === true || view.activeCompactions > 0 || view.cutOutputs > 0;
  return useful ? [...tools] : tools.filter((t) => t.name !== RECALL_TOOL);
}

const DESCRIPTION =
  "Read back the original of what compaction summarised or stripped from this conversation, or cut from a long tool output. " +
  'Give exactly one of: turns ("4" or "2-5", as a summary marker names them) for those raw turns whole; ' +
  "call (a tool call id, as a marker names it), with offset and length, for its recorded output; " +
  "or query, words searched in what is no longer in view. Answers are bounded; a note says how to read on.";

export function createRecallTool(capOf: OutputCap): Tool {
  return {
    name: RECALL_TOOL,
    description: DESCRIPTION,
    parameters: RECALL_PARAMETERS,
    source: "builtin",
    run: "unattended",
    enable: true,
    validate(args) {
      if (isRecallArgs(args)) return undefined;
      const issue = checkRecallArgs(args);
      const where = issue?.path.join(".") || "arguments";
      return `invalid recall call at ${where}: ${issue?.message ?? "schema mismatch"}. Fix the arguments and call recall again.`;
    },
    execute(args, ctx) {
      const request = isRecallArgs(args) ? args : {};
      const answer = recall(ctx.events, request, capOf);
      return Promise.resolve(
        answer.ok ? { content: answer.text, isError: false } : { content: answer.error, isError: true },
      );
    },
  };
}
