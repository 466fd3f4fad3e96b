// Owns how a forced tool call (`jp q -u NAME`) reaches a model: forced in the
// request where the provider and the model take that, else asked for in
// words (the turn asks once more, firmly, when the answer has no call).
import { acceptsForcedTool, type ModelFacts } from "./capabilities.js";
import type { AcceptedFields, ModelRequest } from "./types.js";

const ASK_GENTLY = (name: string) =>
  `The user asked for the tool \`${name}\` to be called in this answer (jp q -u ${name}). Call \`${name}\` now.`;
const ASK_FIRMLY = (name: string) =>
  `IMPORTANT: you MUST call the tool \`${name}\` in this answer. Do not answer in text instead, and do not ask for more details: call \`${name}\` now.`;

/**
 * Whether a forced call is asked for instead of forced: the provider has no
 * way to force one (Ollama), or the model refuses forcing (Sonnet 5.5,
 * models that always think).
 */
export function toolIsAskedFor(accepts: AcceptedFields, facts: ModelFacts | undefined): boolean {
  return accepts.toolChoice === "none" || (facts !== undefined && !acceptsForcedTool(facts));
}

/** The request's tool choice: the tool to force, or the instruction that asks for it; neither when the model chooses. */
export function toolChoiceOf(
  request: ModelRequest,
  accepts: AcceptedFields,
): { forced?: string; instruction?: string } {
  const wanted = request.toolChoice;
  if (wanted === "auto") return {};
  if (!toolIsAskedFor(accepts, request.facts)) return { forced: wanted.name };
  return { instruction: wanted.insist ? ASK_FIRMLY(wanted.name) : ASK_GENTLY(wanted.name) };
}

/** A system prompt with the instruction that asks for a tool after it, where there is one. */
export function withInstruction(
  system: string | undefined,
  instruction: string | undefined,
): string | undefined {
  if (!instruction) return system;
  return system ? `${system}\n\n${instruction}` : instruction;
}
