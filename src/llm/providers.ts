// Owns choosing and building the provider for a model id (`provider/name`),
// with its key from the environment only.
import { parseModelId, type ModelRef } from "../config/models.js";
import { llmProvider, type ProviderSettings } from "../config/providers.js";
import type { Config } from "../config/schema.js";
import { JpError } from "../errors.js";
import { ANTHROPIC_BASE_URL, createAnthropicProvider } from "./anthropic.js";
import { MissingKeyError } from "./errors.js";
import { compatibleModelFacts } from "./compatible-models.js";
import {
  type ChatDialect,
  COMPATIBLE_DIALECT,
  createOpenAIProvider,
  OPENAI_BASE_URL,
  OPENAI_DIALECT,
} from "./openai.js";
import { createGeminiProvider, GEMINI_BASE_URL } from "./gemini.js";
import { createResponsesProvider } from "./openai-responses.js";
import { createOllamaProvider, OLLAMA_BASE_URL } from "./ollama.js";
import type { ProviderOptions } from "./http.js";
import { proxyFor } from "./proxy.js";
import type { Provider } from "./types.js";

const DEFAULT_KEY_ENV: Record<string, string> = {
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GEMINI_API_KEY",
};

/** Google's SDKs read either name; GEMINI_API_KEY first. */
function keyEnvOf(
  provider: string,
  configured: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (configured) return configured;
  if (provider === "google" && !env.GEMINI_API_KEY && env.GOOGLE_API_KEY) return "GOOGLE_API_KEY";
  return DEFAULT_KEY_ENV[provider];
}

const NATIVE_API: Record<string, "responses" | "ollama"> = { openai: "responses", ollama: "ollama" };

/** Compatible servers with reasoning fields of their own. */
const REASONING_DIALECT: Record<string, ChatDialect["reasoning"]> = {
  openrouter: "openrouter",
  llamacpp: "llamacpp",
};

const BUILT_IN_BASE_URL: Record<string, string> = {
  anthropic: ANTHROPIC_BASE_URL,
  openai: OPENAI_BASE_URL,
  google: GEMINI_BASE_URL,
};

/** Build the provider for `modelId`. A missing key fails here, before anything is sent. */
export function createProvider(
  modelId: string,
  config: Config,
  env: NodeJS.ProcessEnv,
): { provider: Provider; model: ModelRef } {
  const model = parseModelId(modelId);
  const settings = llmProvider(config, model.provider);
  const keyEnv = keyEnvOf(model.provider, settings.api_key_env, env);
  let apiKey = "not-needed";
  if (keyEnv) {
    const value = env[keyEnv];
    if (!value) throw new MissingKeyError(model.provider, keyEnv);
    apiKey = value;
  } else if (!settings.base_url) {
    throw new JpError(
      "llm.unknown_provider",
      `unknown provider '${model.provider}' in model id '${modelId}'`,
      {
        hint: `configure it: [providers.${model.provider}] base_url = "http://…/v1" (an OpenAI-compatible server), and api_key_env if it needs a key`,
        exitCode: 2,
      },
    );
  }
  const request = config.assistant?.request;
  const options = {
    apiKey,
    keyFromEnvironment: keyEnv !== undefined,
    baseURL: settings.base_url,
    ...(request?.timeout_secs !== undefined ? { timeoutMs: request.timeout_secs * 1000 } : {}),
    ...(request?.idle_timeout_secs !== undefined ? { idleTimeoutMs: request.idle_timeout_secs * 1000 } : {}),
    proxy: proxyFor(
      settings.base_url ?? BUILT_IN_BASE_URL[model.provider] ?? OPENAI_BASE_URL,
      env,
      settings.proxy,
    ),
  };
  if (model.provider === "google")
    return {
      provider: createGeminiProvider({ ...options, baseURL: settings.base_url ?? GEMINI_BASE_URL }),
      model,
    };
  if (model.provider === "anthropic")
    return {
      provider: createAnthropicProvider({ ...options, ...(settings.beta ? { beta: settings.beta } : {}) }),
      model,
    };
  // OpenAI itself is spoken to through the Responses API, Ollama through its own; the others through Chat Completions.
  const api = settings.api ?? NATIVE_API[model.provider] ?? "chat";
  if (api === "ollama")
    return {
      provider: createOllamaProvider({
        ...options,
        // Its native API sits at the server's root, beside the compatible /v1.
        baseURL: (settings.base_url ?? OLLAMA_BASE_URL).replace(/\/v1\/?$/, ""),
        ...(settings.keep_alive ? { keepAlive: settings.keep_alive } : {}),
      }),
      model,
    };
  if (api === "responses")
    return {
      provider: createResponsesProvider({
        name: model.provider,
        ...options,
        baseURL: settings.base_url ?? OPENAI_BASE_URL,
      }),
      model,
    };
  return { provider: chatProvider(model, settings, options), model };
}

/**
 * A server spoken to through Chat Completions: OpenAI's own fields for
 * `openai`, only the standard ones for the others, plus what their config or
 * their kind turns on (llama.cpp's and OpenRouter's reasoning fields,
 * OpenRouter's cache marks), and their model API where they have one.
 */
function chatProvider(model: ModelRef, settings: ProviderSettings, options: ProviderOptions): Provider {
  const baseURL = settings.base_url ?? OPENAI_BASE_URL;
  const reasoning = REASONING_DIALECT[model.provider];
  const dialect: ChatDialect =
    model.provider === "openai"
      ? OPENAI_DIALECT
      : {
          ...COMPATIBLE_DIALECT,
          cacheKey: settings.prompt_cache_key === true,
          ...(reasoning ? { reasoning } : {}),
          // OpenRouter caches Anthropic's and Gemini's models only where the request marks it.
          cacheControl: model.provider === "openrouter" && /^(anthropic|google)\//.test(model.name),
        };
  const modelFacts = compatibleModelFacts(model.provider, { ...options, baseURL });
  return createOpenAIProvider({
    name: model.provider,
    ...options,
    dialect,
    ...(modelFacts ? { modelFacts } : {}),
  });
}

/** Request limits from config; the defaults mirror config/default.toml for configs built in code. */
export function requestSettings(config: Config): {
  maxTokens: number;
  maxRetries: number;
  backoffMs: number;
} {
  const request = config.assistant?.request;
  return {
    maxTokens: request?.max_tokens ?? 8192,
    maxRetries: request?.max_retries ?? 4,
    backoffMs: request?.backoff_ms ?? 1000,
  };
}
