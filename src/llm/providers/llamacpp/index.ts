// Owns what llama.cpp's server (llama-server) takes beyond Chat Completions:
// `max_tokens`, only the string forms of `tool_choice`, thinking on or off
// through the chat template with the thinking in its own field, and the
// window it was started with from `GET /props`.
import { isJsonObject } from "../../../events/index.js";
import type { ModelFacts } from "../../capabilities.js";
import { askModelApi, bearerIfKeyed, endpoint, positiveNumber, type ProviderOptions } from "../../http.js";
import { COMPATIBLE_DIALECT, templateReasoning, type ChatDialect } from "../../chat-dialect.js";
import type { BuiltInProvider } from "../built-in.js";

export const LLAMACPP_BASE_URL = "http://127.0.0.1:8080/v1";

export const LLAMACPP_DIALECT: ChatDialect = {
  ...COMPATIBLE_DIALECT,
  reasoning: "chat_template_kwargs",
  reasoningFields: templateReasoning,
};

/** llama.cpp serves one model, with the window it was started with (`n_ctx`). */
export async function llamacppFacts(
  options: ProviderOptions & { baseURL: string },
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  // /props sits at the server's root, beside the OpenAI-compatible /v1.
  const root = options.baseURL.replace(/\/v1\/?$/, "");
  const headers = { accept: "application/json", ...bearerIfKeyed(options) };
  const props = await askModelApi({ url: endpoint(root, "/props"), headers, signal }, options);
  if (!isJsonObject(props)) return undefined;
  const settings = isJsonObject(props.default_generation_settings) ? props.default_generation_settings : {};
  const window = positiveNumber(settings.n_ctx) ?? positiveNumber(props.n_ctx);
  return window ? { contextWindow: window } : undefined;
}

/** A local llama.cpp server (llama-server); no key. */
export const llamacpp = {
  name: "llamacpp",
  title: "llama.cpp",
  api: "chat",
  baseUrl: LLAMACPP_BASE_URL,
  keyEnv: [],
  dialect: () => LLAMACPP_DIALECT,
  modelFacts: (_name, options, signal) => llamacppFacts(options, signal),
} as const satisfies BuiltInProvider;
