// Owns what Cerebras's inference API takes beyond Chat Completions, as JP's
// recorded requests to it show: `reasoning_format: "parsed"` on every request,
// so reasoning comes back in its own `reasoning` field (without it, it leaks
// into the answer as <think> tags) and goes back there; `reasoning_effort` as
// asked; a named tool choice. And its public model list, the only place it
// gives a model's window, output cap and price.
import { isJsonObject } from "../../../events/index.js";
import type { ModelFacts } from "../../capabilities.js";
import { endpoint, positiveNumber, type ProviderOptions } from "../../http.js";
import { listedModel, listedPrice } from "../../model-lists.js";
import { COMPATIBLE_DIALECT, effortReasoning, namedChoice, type ChatDialect } from "../../chat-dialect.js";
import type { BuiltInProvider } from "../built-in.js";

export const CEREBRAS_BASE_URL = "https://api.cerebras.ai/v1";

export const CEREBRAS_DIALECT: ChatDialect = {
  ...COMPATIBLE_DIALECT,
  reasoning: "reasoning_effort",
  // On every request, so reasoning comes back in a field of its own.
  reasoningFields: (request) => ({ ...effortReasoning(request), reasoning_format: "parsed" }),
  toolChoice: "named",
  offerTools: namedChoice,
};

/** One model of Cerebras's public list: window, output cap, price, whether it reasons, whether it is going. */
function cerebrasEntry(entry: Record<string, unknown>): ModelFacts {
  const facts: ModelFacts = {};
  const limits = isJsonObject(entry.limits) ? entry.limits : {};
  const window = positiveNumber(limits.max_context_length);
  if (window) facts.contextWindow = window;
  const output = positiveNumber(limits.max_completion_tokens);
  if (output) facts.maxOutputTokens = output;
  const price = listedPrice(entry);
  if (price) facts.price = price;
  const capabilities = isJsonObject(entry.capabilities) ? entry.capabilities : {};
  if (typeof capabilities.reasoning === "boolean") facts.reasons = capabilities.reasoning;
  if (entry.deprecated === true) facts.lifecycle = "deprecated";
  return facts;
}

/**
 * A model's facts from Cerebras's public list (`GET /public/v1/models`, beside
 * the API's `/v1`, whose own list holds ids only). It does not give the
 * efforts a model takes: those are the table's.
 */
export async function cerebrasFacts(
  name: string,
  options: ProviderOptions & { baseURL: string },
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const root = options.baseURL.replace(/\/v1\/?$/, "");
  const entry = await listedModel(endpoint(root, "/public/v1/models"), name, options, signal);
  return entry ? cerebrasEntry(entry) : undefined;
}

/** Cerebras's inference API, spoken to through Chat Completions. */
export const cerebras = {
  name: "cerebras",
  title: "Cerebras",
  api: "chat",
  baseUrl: CEREBRAS_BASE_URL,
  keyEnv: ["CEREBRAS_API_KEY"],
  dialect: () => CEREBRAS_DIALECT,
  modelFacts: cerebrasFacts,
} as const satisfies BuiltInProvider;
