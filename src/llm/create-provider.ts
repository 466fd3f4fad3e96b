// Owns choosing and building the provider for a model id (`provider/name`),
// with its key from the environment only.
import { parseModelId, type ModelRef } from "../config/models.js";
import { llmProvider, llmProviders, type ProviderSettings } from "../config/providers.js";
import type { Config } from "../config/schema.js";
import { closest } from "../config/zod-walk.js";
import { currentBuiltInModels } from "./model-table.js";
import { JpError } from "../errors.js";
import { proxyFor } from "../net/proxy.js";
import type { ModelFacts } from "./capabilities.js";
import { createOpenAIProvider, OPENAI_BASE_URL } from "./chat-completions.js";
import { COMPATIBLE_DIALECT } from "./chat-dialect.js";
import { MissingKeyError } from "./errors.js";
import { createAnthropicProvider } from "./providers/anthropic/index.js";
import { createGeminiProvider } from "./providers/google/index.js";
import {
  baseUrlFor,
  BUILT_IN_PROVIDERS,
  builtInProvider,
  type Api,
  type BuiltInProvider,
  type ProviderSetup,
} from "./providers/index.js";
import { createOllamaProvider } from "./providers/ollama/index.js";
import { createResponsesProvider } from "./providers/openai/responses.js";
import type { Provider } from "./types.js";

/** What one API's module needs to build the provider. */
interface Setup extends ProviderSetup {
  model: ModelRef;
  settings: ProviderSettings;
  known: BuiltInProvider | undefined;
}

const APIS: Readonly<Record<Api, (setup: Setup) => Provider>> = {
  anthropic: (s) => createAnthropicProvider({ ...s, ...(s.settings.beta ? { beta: s.settings.beta } : {}) }),
  gemini: (s) => createGeminiProvider(s),
  responses: (s) => createResponsesProvider({ ...s, name: s.model.provider }),
  // Ollama's own API sits at the server's root, beside the compatible /v1.
  ollama: (s) =>
    createOllamaProvider({
      ...s,
      baseURL: s.baseURL.replace(/\/v1\/?$/, ""),
      ...(s.settings.keep_alive ? { keepAlive: s.settings.keep_alive } : {}),
    }),
  chat: chatProvider,
};

/** The environment variables that hold provider keys: never passed to a tool or an MCP server. */
export function providerKeyEnvs(config: Config): Set<string> {
  const names: string[] = BUILT_IN_PROVIDERS.flatMap((p) => p.keyEnv);
  for (const [, settings] of llmProviders(config)) if (settings.api_key_env) names.push(settings.api_key_env);
  return new Set(names);
}

/** The provider's key, from the variable its config names or its built-in ones; undefined for a keyless server. */
function keyOf(
  model: ModelRef,
  settings: ProviderSettings,
  known: BuiltInProvider | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const names = settings.api_key_env ? [settings.api_key_env] : (known?.keyEnv ?? []);
  if (names.length === 0) return undefined;
  const found = names.find((name) => env[name]);
  if (found === undefined) throw new MissingKeyError(model.provider, names.join(" or "));
  return env[found];
}

/** The API `modelId`'s provider speaks, from its config or the built-in list; undefined for an unknown provider. */
export function providerApi(modelId: string, config: Config): Api | undefined {
  const model = parseModelId(modelId);
  const settings = llmProvider(config, model.provider);
  const known = builtInProvider(model.provider);
  if (!known && !settings.base_url) return undefined;
  return settings.api ?? known?.api ?? "chat";
}

/**
 * The base URL the environment gives: the variable `base_url_env` names (JP's
 * setting, which wins over `base_url` as in JP), or for OpenAI with none set in
 * the config, `$OPENAI_BASE_URL`, as OpenAI's SDKs and JP read it.
 */
function baseUrlFromEnv(
  provider: string,
  settings: ProviderSettings,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const name =
    settings.base_url_env ?? (provider === "openai" && !settings.base_url ? "OPENAI_BASE_URL" : undefined);
  const value = name ? env[name]?.trim() : undefined;
  return value || undefined;
}

/**
 * The alias of the configuration, or the built-in model, nearest a model id
 * that is neither (`opsu`: opus; `claude-opus-5`: anthropic/claude-opus-5).
 */
function nearestModel(modelId: string, config: Config): string | undefined {
  const aliases = Object.keys(config.providers?.llm?.aliases ?? {});
  const byName = new Map(currentBuiltInModels().map((id) => [id.slice(id.indexOf("/") + 1), id]));
  const nearest = closest(modelId, [...aliases, ...byName.keys()]);
  return nearest === undefined || aliases.includes(nearest) ? nearest : byName.get(nearest);
}

/** Build the provider for `modelId`. A missing key fails here, before anything is sent. */
export function createProvider(
  modelId: string,
  config: Config,
  env: NodeJS.ProcessEnv,
): { provider: Provider; model: ModelRef } {
  const model = parseModelId(modelId, () => nearestModel(modelId, config));
  const settings = llmProvider(config, model.provider);
  const known = builtInProvider(model.provider);
  if (!known && !settings.base_url)
    throw new JpError(
      "llm.unknown_provider",
      `unknown provider '${model.provider}' in model id '${modelId}'`,
      {
        hint: `configure it: [providers.${model.provider}] base_url = "http://…/v1" (an OpenAI-compatible server), and api_key_env if it needs a key`,
        exitCode: 2,
      },
    );
  const apiKey = keyOf(model, settings, known, env);
  const api = settings.api ?? known?.api ?? "chat";
  const baseURL =
    baseUrlFromEnv(model.provider, settings, env) ??
    settings.base_url ??
    (known ? baseUrlFor(known, api) : undefined) ??
    OPENAI_BASE_URL;
  const request = config.assistant?.request;
  const setup: Setup = {
    apiKey: apiKey ?? "not-needed",
    keyFromEnvironment: apiKey !== undefined,
    baseURL,
    ...(request?.timeout_secs !== undefined ? { timeoutMs: request.timeout_secs * 1000 } : {}),
    ...(request?.idle_timeout_secs !== undefined ? { idleTimeoutMs: request.idle_timeout_secs * 1000 } : {}),
    proxy: proxyFor(baseURL, env, settings.proxy),
    model,
    settings,
    known,
  };
  const provider = APIS[api](setup);
  // A provider's own model API (OpenAI's lifecycles), whichever of its APIs it is spoken to through.
  const own = known?.modelFacts;
  return {
    provider:
      provider.modelFacts || !own
        ? provider
        : { ...provider, modelFacts: (name, signal) => own(name, setup, signal) },
    model,
  };
}

/**
 * A server spoken to through Chat Completions: what its kind reads beyond
 * the standard fields (OpenAI's own, llama.cpp's and OpenRouter's), only the
 * standard ones for a server jp does not know, plus a cache key where its
 * config turns that on; and its model API where it has one.
 */
function chatProvider(setup: Setup): Provider {
  const dialect = setup.known?.dialect?.(setup.model.name) ?? COMPATIBLE_DIALECT;
  return createOpenAIProvider({
    ...setup,
    name: setup.model.provider,
    dialect:
      setup.settings.prompt_cache_key !== undefined
        ? { ...dialect, cacheKey: setup.settings.prompt_cache_key }
        : dialect,
  });
}

/** The output cap of a model nothing is known of (Anthropic's API needs one on every request). */
const UNKNOWN_MODEL_MAX_TOKENS = 8192;

/**
 * Request limits from config; the defaults mirror config/default.toml for
 * configs built in code. The output cap is the configured one, else the
 * model's own (as JP asks), and never more than the model can write: the API
 * refuses a larger one.
 */
export function requestSettings(
  config: Config,
  facts: Pick<ModelFacts, "maxOutputTokens">,
): {
  maxTokens: number;
  maxRetries: number;
  backoffMs: number;
  maxContinuations: number;
} {
  const request = config.assistant?.request;
  const own = facts.maxOutputTokens;
  return {
    maxTokens: Math.min(request?.max_tokens ?? own ?? UNKNOWN_MODEL_MAX_TOKENS, own ?? Infinity),
    maxRetries: request?.max_retries ?? 4,
    backoffMs: request?.backoff_ms ?? 1000,
    maxContinuations: request?.max_continuations ?? 5,
  };
}
