// Owns how a forced tool call (`jp q -u NAME`) reaches a model: forced in the
// request where the provider and the model take that, else asked for in
// words (the turn asks once more, firmly, when the answer has no call).
import { acceptsForcedTool, type ModelFacts } from "./capabilities.js";
import type { AcceptedFields, ModelRequest } from "./types.js";
import { ASKED_FOR_TOOL_KEY, isJsonObject, type Event } from "../events/index.js";

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

/**
 * The tool to force, when the request forces one the provider and the model
 * can force; a tool only asked for is asked for in the question itself
 * (`questionAskingFor`), never here.
 */
export function toolChoiceOf(request: ModelRequest, accepts: AcceptedFields): { forced?: string } {
  const wanted = request.toolChoice;
  if (wanted === "auto" || toolIsAskedFor(accepts, request.facts)) return {};
  return { forced: wanted.name };
}

/**
 * A question that asks for `tool` in words, as it is sent. The words go with
 * the question, not the system prompt, and stay with it in every later
 * request: a request only appends to the one before, so the reasoning a
 * model bound to it (preserved thinking) stays valid. `insist`: the firmer
 * words of the one request that asks again.
 */
export function questionAskingFor(question: string, tool: string, insist = false): string {
  return `${question}\n\n${insist ? ASK_FIRMLY(tool) : ASK_GENTLY(tool)}`;
}

/**
 * The questions that asked for a tool in words (`-u` on a model that cannot
 * be forced) as they are sent: with the words, in every request, so the
 * request only appends. The request that asks again says it firmly, and
 * records so in the copy it sends (its reasoning is bound to those words).
 */
export function withAskedTools(view: readonly Event[], insist: boolean): readonly Event[] {
  const last = view.findLastIndex((e) => e.type === "chat_request");
  const out = view.map((e, i) => {
    if (e.type !== "chat_request" || !isJsonObject(e.metadata)) return e;
    const tool = e.metadata[ASKED_FOR_TOOL_KEY];
    if (typeof tool !== "string") return e;
    const firmly = insist && i === last;
    return {
      ...e,
      content: questionAskingFor(e.content, tool, firmly),
      ...(firmly ? { metadata: { ...e.metadata, [ASKED_FOR_TOOL_KEY]: { tool, firmly } } } : {}),
    };
  });
  return out.some((e, i) => e !== view[i]) ? out : view;
}
