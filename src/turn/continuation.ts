// Owns continuing an answer cut off at its output cap, as JP does: the
// prompt that asks for more, and where the next piece joins the last.
import { type ChatResponse } from "../events/index.js";
import type { Collected } from "../llm/assemble.js";
import type { TurnOutput } from "./output.js";

/**
 * What asks a model to go on with an answer the output cap cut off: JP's own
 * words, so that the model repeats the answer's last characters and the two
 * pieces can be joined where they overlap. Sent, never recorded.
 */
export const CONTINUE_PROMPT =
  "Please continue from where you left off. DO NOT reason or mention being asked to continue the conversation, just do it. YOU MUST repeat between 10 and 100 characters from the end of the previous message, so that our system can find the correct merge point between the two messages.";

/** How far back a continuation's repeat is looked for, and how much of its start is held until then. */
export const MERGE_WINDOW = 300;

/**
 * How many characters at the start of `next` repeat the end of `before`
 * (the merge point); 0 when it repeats fewer than 10, or none.
 */
export function overlapAt(before: string, next: string): number {
  const tail = before.slice(-MERGE_WINDOW);
  for (let k = Math.min(tail.length, next.length); k >= 10; k--)
    if (tail.endsWith(next.slice(0, k))) return k;
  return 0;
}

/**
 * The output of a continuation: its first text is held until the merge point
 * can be found (or the text ends), and the repeated characters are not shown
 * again.
 */
export function mergingOutput(output: TurnOutput, before: string): TurnOutput {
  let held = "";
  let merged = false;
  const flush = () => {
    if (merged) return;
    merged = true;
    const rest = held.slice(overlapAt(before, held));
    if (rest) output.text(rest);
  };
  return {
    ...output,
    text(delta) {
      if (merged) {
        output.text(delta);
        return;
      }
      held += delta;
      if (held.length >= MERGE_WINDOW) flush();
    },
    responseDone() {
      flush();
      output.responseDone();
    },
  };
}

/**
 * A continuation as recorded: its text from the merge point on, and without
 * the reasoning it wrote (bound to the request that asked it to go on, which
 * is not recorded).
 */
export function mergedContinuation(collected: Collected, before: string): void {
  collected.blocks = collected.blocks.filter(
    (b) => !(b.type === "chat_response" && b.reasoning !== undefined),
  );
  const first = collected.blocks.find(
    (b): b is ChatResponse => b.type === "chat_response" && b.message !== undefined,
  );
  if (first?.message !== undefined) first.message = first.message.slice(overlapAt(before, first.message));
}

/** The text of an answer's message blocks, in order. */
export const answerText = (collected: Collected) =>
  collected.blocks.map((b) => (b.type === "chat_response" ? (b.message ?? "") : "")).join("");
