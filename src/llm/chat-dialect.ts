// Owns what a server speaking Chat Completions reads beyond the standard
// fields: its dialect, as what it accepts and as hooks that say it in the
// body (its output cap, its reasoning fields, how a tool is forced, how a call
// id goes back), with the hooks the built-in servers share and the dialects
// of OpenAI and of a compatible server jp knows nothing of.
import type {
  ChatCompletionCreateParamsStreaming,
  ChatCompletionFunctionTool,
} from "openai/resources/chat/completions";
import { responsesEffort } from "./providers/openai/responses.js";
import type { AcceptedFields, ModelRequest } from "./types.js";

/**
 * What a server speaking Chat Completions reads besides the standard fields,
 * as what it accepts (AcceptedFields, which the turn reads) and how the body
 * says it: the hooks below, each a behaviour of its own. OpenAI itself takes
 * `max_completion_tokens`, `prompt_cache_key` and `reasoning_effort`;
 * compatible servers (Ollama, llama.cpp, vLLM…) read `max_tokens`, and may
 * reject fields they do not know, so they get only what their kind or their
 * config turns on.
 */
export interface ChatDialect extends AcceptedFields {
  /** The output cap, in the field the server reads (`maxCompletionTokens`, `maxTokensCap`). */
  outputCap: (maxTokens: number) => Partial<ChatBody>;
  /** jp's reasoning settings in the server's own fields (`effortReasoning`, `unifiedReasoning`…). */
  reasoningFields: (request: ModelRequest) => Partial<ChatBody>;
  /** The tools offered and the choice, `forced` the tool the request forces (`namedChoice`, `requiredChoice`). */
  offerTools: (
    tools: ChatCompletionFunctionTool[],
    forced: string | undefined,
  ) => Pick<ChatBody, "tools" | "tool_choice">;
  /** A call's id as the server takes it back, on the call and on its result; absent, as jp recorded it. */
  callId?: (id: string) => string;
}

/** A body with the fields compatible servers add to OpenAI's. */
export type ChatBody = ChatCompletionCreateParamsStreaming & {
  /** OpenRouter's unified field; `exclude`: reason (or not) without sending the reasoning back. */
  reasoning?: { effort: string; exclude?: boolean } | { max_tokens: number };
  chat_template_kwargs?: { enable_thinking: boolean };
  reasoning_format?: "deepseek" | "parsed";
};

/** Whether the request asks for thinking, says it off, or leaves it unsaid. */
function thinkingAsked(request: ModelRequest): "on" | "off" | "unsaid" {
  const asked = request.reasoning;
  if (asked?.effort === "none") return "off";
  return asked?.effort !== undefined || (asked?.budgetTokens ?? 0) > 0 ? "on" : "unsaid";
}

/** OpenAI's `reasoning_effort`, at an effort the model takes. */
export const effortReasoning = (request: ModelRequest): Partial<ChatBody> => {
  const { effort } = responsesEffort(request);
  return effort ? { reasoning_effort: effort } : {};
};

/** OpenRouter's unified `reasoning: {effort | max_tokens}`. */
export const unifiedReasoning = (request: ModelRequest): Partial<ChatBody> => {
  const asked = request.reasoning;
  // Off is said, as JP's recorded requests say it: unsaid, the model reasons at its default and bills for it.
  if (thinkingAsked(request) !== "on") return { reasoning: { effort: "minimal", exclude: true } };
  return { reasoning: asked?.effort ? { effort: asked.effort } : { max_tokens: asked?.budgetTokens ?? 0 } };
};

/** llama.cpp's `chat_template_kwargs.enable_thinking`, with `reasoning_format` so the thinking comes back in its own field. */
export const templateReasoning = (request: ModelRequest): Partial<ChatBody> => {
  const asked = thinkingAsked(request);
  if (asked === "unsaid") return {};
  return asked === "on"
    ? { chat_template_kwargs: { enable_thinking: true }, reasoning_format: "deepseek" }
    : { chat_template_kwargs: { enable_thinking: false } };
};

/** A server that takes no reasoning setting. */
export const noReasoning = (): Partial<ChatBody> => ({});

/** OpenAI's output cap. */
export const maxCompletionTokens = (maxTokens: number): Partial<ChatBody> => ({
  max_completion_tokens: maxTokens,
});

/** The output cap compatible servers read. */
// eslint-disable-next-line @typescript-eslint/no-deprecated -- OpenAI's own replacement is a field compatible servers do not read
export const maxTokensCap = (maxTokens: number): Partial<ChatBody> => ({ max_tokens: maxTokens });

/** `tool_choice` naming the forced tool, every tool offered (OpenAI). */
export const namedChoice = (
  tools: ChatCompletionFunctionTool[],
  forced: string | undefined,
): Pick<ChatBody, "tools" | "tool_choice"> => ({
  tools,
  tool_choice: forced === undefined ? "auto" : { type: "function", function: { name: forced } },
});

/**
 * "required" over the forced tool alone: llama.cpp and Ollama's compatible
 * API read only the string forms, and take the object form as "auto".
 */
export const requiredChoice = (
  tools: ChatCompletionFunctionTool[],
  forced: string | undefined,
): Pick<ChatBody, "tools" | "tool_choice"> =>
  forced === undefined
    ? { tools, tool_choice: "auto" }
    : { tools: tools.filter((t) => t.function.name === forced), tool_choice: "required" };

export const OPENAI_DIALECT: ChatDialect = {
  cacheKey: true,
  cacheControl: false,
  reasoning: "reasoning_effort",
  toolChoice: "named",
  thinksWhileForced: true,
  attachments: ["image", "pdf"],
  outputCap: maxCompletionTokens,
  reasoningFields: effortReasoning,
  offerTools: namedChoice,
};
/** A compatible server jp knows nothing of: the standard fields only. */
export const COMPATIBLE_DIALECT: ChatDialect = {
  cacheKey: false,
  cacheControl: false,
  reasoning: "none",
  toolChoice: "required",
  thinksWhileForced: true,
  // Images as `image_url` parts are what compatible servers with vision read; a PDF `file` part is OpenAI's own.
  attachments: ["image"],
  outputCap: maxTokensCap,
  reasoningFields: noReasoning,
  offerTools: requiredChoice,
};
