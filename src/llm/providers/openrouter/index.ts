// Owns what OpenRouter takes beyond Chat Completions: its unified `reasoning`
// field, `cache_control` breakpoints for the models that cache that way, and
// the windows, output caps and prices of `GET /api/v1/models`. Its
// `reasoning_details` are kept and sent back by the Chat Completions mapping.
import { isJsonObject } from "../../../events/index.js";
import type { ModelFacts } from "../../capabilities.js";
import { endpoint, positiveNumber, type ProviderOptions } from "../../http.js";
import { listedModel, listedPrice } from "../../model-lists.js";
import { COMPATIBLE_DIALECT, namedChoice, unifiedReasoning, type ChatDialect } from "../../chat-dialect.js";
import type { BuiltInProvider } from "../built-in.js";

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

/** OpenRouter caches Anthropic's and Gemini's models only where the request marks it. */
export function openrouterDialect(model: string): ChatDialect {
  return {
    ...COMPATIBLE_DIALECT,
    reasoning: "reasoning",
    reasoningFields: unifiedReasoning,
    // OpenRouter forwards a named choice as its recorded requests send it; Anthropic's models refuse it while thinking.
    toolChoice: "named",
    offerTools: namedChoice,
    thinksWhileForced: !model.startsWith("anthropic/"),
    cacheControl: /^(anthropic|google)\//.test(model),
    // OpenRouter reads OpenAI's `file` part and parses the PDF for models that cannot.
    attachments: ["image", "pdf"],
  };
}

/** One model's entry of OpenRouter's list: its window, output cap and prices. */
function openrouterEntry(entry: Record<string, unknown>): ModelFacts {
  const facts: ModelFacts = {};
  const top = isJsonObject(entry.top_provider) ? entry.top_provider : {};
  const window = positiveNumber(entry.context_length) ?? positiveNumber(top.context_length);
  if (window) facts.contextWindow = window;
  const output = positiveNumber(top.max_completion_tokens);
  if (output) facts.maxOutputTokens = output;
  const price = listedPrice(entry);
  if (price) facts.price = price;
  return facts;
}

/** A model's facts from OpenRouter's list of models; undefined when it lists no such model. */
export async function openrouterFacts(
  name: string,
  options: ProviderOptions & { baseURL: string },
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const entry = await listedModel(endpoint(options.baseURL, "/models"), name, options, signal);
  return entry ? openrouterEntry(entry) : undefined;
}

/** OpenRouter, spoken to through Chat Completions with its own fields. */
export const openrouter = {
  name: "openrouter",
  title: "OpenRouter",
  api: "chat",
  baseUrl: OPENROUTER_BASE_URL,
  keyEnv: ["OPENROUTER_API_KEY"],
  dialect: openrouterDialect,
  modelFacts: openrouterFacts,
} as const satisfies BuiltInProvider;
