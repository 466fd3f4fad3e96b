// Owns the words for reasoning that did not reach the model: what jp left out
// of a request to a model with preserved thinking, and what a provider
// dropped. `jp q`'s notice, `print --compacted` and `show` say it alike.
import type { ReasoningReport } from "../compaction/index.js";
import { turnList } from "../events/index.js";
import { counted } from "./words.js";

const WHY: Readonly<Record<string, string>> = {
  history: "what came before it changed (a compaction)",
  order:
    "thinking between it and older thinking sent back was left out, or thinking written before it was put back",
  header: "the system prompt or the tools changed since it was written",
  unbound: "jp has no record of what it is bound to, and something before it may have changed",
  refused: "the provider refused it",
};

/** Why reasoning was left out, in words; a reason a newer jp wrote is named as it is. */
export const leftOutWhy = (reason: string): string => WHY[reason] ?? reason;

type LeftOut = readonly { turn: number; reason: string }[];

/** The left-out reasoning grouped by why: `[why, turns]`. */
function byReason(leftOut: LeftOut): [string, number[]][] {
  const groups = new Map<string, number[]>();
  for (const l of leftOut) groups.set(l.reason, [...(groups.get(l.reason) ?? []), l.turn]);
  return [...groups].map(([reason, turns]) => [leftOutWhy(reason), turns]);
}

/** One line per reason: "the reasoning of turns 2–3 is not sent back (to MODEL): …". */
export function leftOutLines(leftOut: LeftOut, model?: string): string[] {
  const to = model ? ` to ${model}` : "";
  return byReason(leftOut).map(
    ([why, turns]) => `the reasoning of ${turnList(turns)} is not sent back${to}: ${why} (the log keeps it)`,
  );
}

/** What providers dropped, one line: "2 thinking blocks, from the requests of turns 4–5 (prefix_mismatch)". */
export function droppedLine(dropped: ReasoningReport["dropped"]): string | undefined {
  if (dropped.length === 0) return undefined;
  const reasons = [...new Set(dropped.map((d) => d.reason))].join(", ");
  return `the provider dropped ${counted(dropped.length, "thinking block")} from the requests of ${turnList(dropped.map((d) => d.turn))} (${reasons})`;
}
