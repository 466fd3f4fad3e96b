// Owns what a log says of the reasoning that did not reach the model: the
// blocks jp's newest request left out (a model with preserved thinking reads
// a block only while all before it is unchanged) and those a provider dropped
// (its `input_transformations`). `print --compacted` and `show` name both.
import {
  INPUT_TRANSFORMATIONS_KEY,
  isJsonObject,
  isKnown,
  NO_TURN,
  REASONING_LEFT_OUT_KEY,
  type Event,
} from "../events/index.js";

export interface ReasoningReport {
  /** What the newest request left out, by raw turn (0-based), with why. */
  leftOut: { turn: number; blocks: number; reason: string }[];
  /** What a provider dropped, by the raw turn of the request it dropped it from (0-based). */
  dropped: { turn: number; path: string; reason: string }[];
}

/**
 * Whether an `input_transformations` entry took something out of the request:
 * Anthropic's `thinking_dropped` (not `thinking_mismatch_allowed`, which was
 * shown all the same) or OpenAI's reasoning item with `action: "removed"`.
 */
const isDropped = (c: Record<string, unknown>) => c.type === "thinking_dropped" || c.action === "removed";

const isResponse = (e: Event) => e.type === "chat_response" || e.type === "tool_call_request";

/** Collects the report from a stream read once, event by event. */
export class ReasoningReporter {
  private leftOut: ReasoningReport["leftOut"] = [];
  private readonly dropped: ReasoningReport["dropped"] = [];

  /** Note one event, in the raw turn `turn` (NO_TURN for a global entry). */
  add(e: Event, turn: number): void {
    if (turn === NO_TURN || !isResponse(e) || !isKnown(e) || !isJsonObject(e.metadata)) return;
    const metadata = e.metadata;
    // The last event of a response records its request: a later response's record replaces an earlier one's.
    if (metadata.model === undefined) return;
    const leftOut = metadata[REASONING_LEFT_OUT_KEY];
    this.leftOut = Array.isArray(leftOut)
      ? leftOut.flatMap((l) =>
          isJsonObject(l) && typeof l.turn === "number" && typeof l.reason === "string"
            ? [{ turn: l.turn, blocks: typeof l.blocks === "number" ? l.blocks : 1, reason: l.reason }]
            : [],
        )
      : [];
    const changed = metadata[INPUT_TRANSFORMATIONS_KEY];
    if (Array.isArray(changed))
      for (const c of changed) {
        if (!isJsonObject(c) || !isDropped(c)) continue;
        // Anthropic names where the block was (`path`), OpenAI the reasoning item (`id`).
        const where = typeof c.path === "string" ? c.path : typeof c.id === "string" ? c.id : "?";
        this.dropped.push({ turn, path: where, reason: typeof c.reason === "string" ? c.reason : "?" });
      }
  }

  finish(): ReasoningReport {
    return { leftOut: this.leftOut, dropped: this.dropped };
  }
}
