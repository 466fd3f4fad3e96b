// Owns what OpenAI-compatible servers say of their models: llama.cpp's
// window from `GET /props` (the context the server was started with), and
// OpenRouter's windows, output caps and prices from `GET /api/v1/models`.
import { isJsonObject } from "../events/index.js";
import type { ModelFacts } from "./capabilities.js";
import { askModelApi, endpoint, type ProviderOptions } from "./http.js";
import type { Provider } from "./types.js";

type Options = ProviderOptions & { baseURL: string };

/** GET `url` at the server's model API, with its key when it has one. */
function ask(url: string, options: Options, signal: AbortSignal): Promise<unknown> {
  const headers = {
    accept: "application/json",
    ...(options.keyFromEnvironment ? { authorization: `Bearer ${options.apiKey}` } : {}),
  };
  return askModelApi({ url, headers, signal }, options);
}

const positive = (v: unknown): number | undefined => (typeof v === "number" && v > 0 ? v : undefined);

/** llama.cpp serves one model, with the window it was started with (`n_ctx`). */
async function llamacppFacts(options: Options, signal: AbortSignal): Promise<ModelFacts | undefined> {
  // /props sits at the server's root, beside the OpenAI-compatible /v1.
  const root = options.baseURL.replace(/\/v1\/?$/, "");
  const props = await ask(endpoint(root, "/props"), options, signal);
  if (!isJsonObject(props)) return undefined;
  const settings = isJsonObject(props.default_generation_settings) ? props.default_generation_settings : {};
  const window = positive(settings.n_ctx) ?? positive(props.n_ctx);
  return window ? { contextWindow: window } : undefined;
}

/** USD per token as OpenRouter writes it ("0.000003"), per million. */
const perMillion = (v: unknown): number | undefined => {
  const n = typeof v === "string" ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 1e6 * 1e6) / 1e6 : undefined;
};

/** One model's entry of OpenRouter's list: its window, output cap and prices. */
function openrouterEntry(entry: Record<string, unknown>): ModelFacts {
  const facts: ModelFacts = {};
  const top = isJsonObject(entry.top_provider) ? entry.top_provider : {};
  const window = positive(entry.context_length) ?? positive(top.context_length);
  if (window) facts.contextWindow = window;
  const output = positive(top.max_completion_tokens);
  if (output) facts.maxOutputTokens = output;
  const pricing = isJsonObject(entry.pricing) ? entry.pricing : {};
  const input = perMillion(pricing.prompt);
  const completion = perMillion(pricing.completion);
  if (input !== undefined && completion !== undefined) {
    const read = perMillion(pricing.input_cache_read);
    const write = perMillion(pricing.input_cache_write);
    facts.price = {
      input,
      output: completion,
      ...(read !== undefined ? { cache_read: read } : {}),
      ...(write !== undefined ? { cache_write: write } : {}),
    };
  }
  return facts;
}

async function openrouterFacts(
  name: string,
  options: Options,
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const list = await ask(endpoint(options.baseURL, "/models"), options, signal);
  const data = isJsonObject(list) && Array.isArray(list.data) ? list.data : [];
  const entry = data.find((m): m is Record<string, unknown> => isJsonObject(m) && m.id === name);
  return entry ? openrouterEntry(entry) : undefined;
}

/** The model API of a known compatible server, by its provider name; none for others. */
export function compatibleModelFacts(provider: string, options: Options): Provider["modelFacts"] {
  if (provider === "llamacpp") return (_name, signal) => llamacppFacts(options, signal);
  if (provider === "openrouter") return (name, signal) => openrouterFacts(name, options, signal);
  return undefined;
}
