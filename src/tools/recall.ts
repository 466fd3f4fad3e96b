// Owns the built-in `recall` tool: the model reads back, from the raw log,
// what compaction or a long output's cut took from its view. Read-only and
// run without asking; offered only while the view has something to recall.
import { recallSteps, type OutputCap, type RecallAnswer, type RecallSteps } from "../compaction/index.js";
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

/** The longest a search runs before it answers with what it found so far. */
export const RECALL_TIME_BUDGET_MS = 10_000;
/** The longest recall holds the event loop at a time: Ctrl-C and the screen are served in between. */
const SLICE_MS = 20;

/**
 * Run recall's steps a slice at a time, giving the event loop its turn in
 * between; stopped when `signal` aborts (undefined: interrupted) or when the
 * budget is spent (an answer with what was found).
 */
export async function driveRecall(
  steps: RecallSteps,
  signal: AbortSignal,
  budgetMs = RECALL_TIME_BUDGET_MS,
): Promise<RecallAnswer | undefined> {
  const deadline = performance.now() + budgetMs;
  let sliceEnds = performance.now() + SLICE_MS;
  let step = steps.next(false);
  while (!step.done) {
    if (performance.now() > sliceEnds) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceEnds = performance.now() + SLICE_MS;
    }
    step = steps.next(signal.aborted || performance.now() > deadline);
  }
  return signal.aborted ? undefined : step.value;
}

export function createRecallTool(capOf: OutputCap): Tool {
  return {
    name: RECALL_TOOL,
    description: DESCRIPTION,
    parameters: RECALL_PARAMETERS,
    source: "builtin",
    run: "unattended",
    enable: { state: true, allowToggle: "any" },
    validate(args) {
      if (isRecallArgs(args)) return undefined;
      const issue = checkRecallArgs(args);
      const where = issue?.path.join(".") || "arguments";
      return `invalid recall call at ${where}: ${issue?.message ?? "schema mismatch"}. Fix the arguments and call recall again.`;
    },
    async execute(args, ctx) {
      const request = isRecallArgs(args) ? args : {};
      const answer = await driveRecall(recallSteps(ctx.events, request, capOf), ctx.signal);
      if (!answer) return { content: "interrupted", isError: true };
      return answer.ok ? { content: answer.text, isError: false } : { content: answer.error, isError: true };
    },
  };
}
