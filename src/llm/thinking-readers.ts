// Owns which Claude model reads which other models' thinking, as Anthropic's
// docs give it, and so which earlier thinking goes back to a model. The docs
// (https://platform.claude.com/docs/en/build-with-claude/preserved-thinking):
// "Each model reads its own thinking blocks and those of a fixed set of other
// models. Claude Fable 5.1 reads blocks from Claude Opus 5 and, on the Claude
// API, from Claude Opus 5.5; neither Claude Opus 5 nor Claude Opus 5.5 reads
// blocks from Claude Fable 5.1. If the current model can't read a block, the
// API drops it from that request without an error." And
// (https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2):
// "Only Claude Fable 5.2 and Claude Mythos 5.2 read Claude Fable 5.2 thinking
// blocks".
import { splitModelId } from "../config/models.js";

/** The other models whose thinking each model reads (its own it always reads). */
const READS_THINKING_OF: Readonly<Record<string, readonly string[]>> = {
  "claude-fable-5-1": ["claude-opus-5", "claude-opus-5-5"],
  "claude-mythos-5-2": ["claude-fable-5-2"],
};

/** A model's name without its provider, and without the date of a dated snapshot. */
const bare = (id: string): string => (splitModelId(id)?.name ?? id).replace(/-\d{8}$/, "");

/** Whether `model` reads the thinking `writer` wrote (both ids, with or without their provider). */
export function readsThinkingOf(model: string, writer: string): boolean {
  const reader = bare(model);
  const author = bare(writer);
  return reader === author || (READS_THINKING_OF[reader] ?? []).includes(author);
}

/**
 * Whether thinking `writer` wrote goes back to `model` (the Messages API). To
 * a model with preserved thinking, every Claude model's thinking goes back:
 * the API drops what it cannot read (and says so in `input_transformations`),
 * and the blocks sent stay the same from one model to the next, so none is
 * ever a gap or a block put back; the docs: "Keep sending the full history on
 * every request, thinking blocks included, and let the API drop what the
 * current model can't read". To an older model, what it reads.
 */
export function thinkingGoesBack(writer: string | undefined, model: string, preserved: boolean): boolean {
  if (writer === undefined) return true;
  if (preserved && bare(writer).startsWith("claude-")) return true;
  return readsThinkingOf(model, writer);
}
