// Owns what both SDK-backed providers share: loading the SDK lazily (once),
// classifying every failure in one place, and parsing streamed tool arguments.
import { isJsonObject } from "../events/index.js";
import { classifyProviderError } from "./errors.js";
import { httpFetch } from "./http-fetch.js";
import type { ModelRequest, Provider, StreamPart } from "./types.js";

export interface SdkOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
}

/**
 * SDK client options. The SDKs' own retries are off because retry.ts retries
 * every provider in one place; requests go over node:http (see http-fetch.ts).
 */
export function clientOptions(options: SdkOptions): {
  apiKey: string;
  baseURL?: string;
  maxRetries: 0;
  timeout?: number;
  fetch: typeof httpFetch;
} {
  return {
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: options.timeoutMs,
    fetch: httpFetch,
  };
}

/** Tool arguments streamed as JSON text; an empty text is no arguments. */
export function parseToolArguments(json: string): Record<string, unknown> {
  if (!json.trim()) return {};
  const parsed: unknown = JSON.parse(json);
  return isJsonObject(parsed) ? parsed : {};
}

/** A provider over an SDK client created on first use (SDKs are heavy to import). */
export function sdkProvider<Client>(
  name: string,
  baseUrl: string,
  createClient: () => Promise<Client>,
  stream: (client: Client, request: ModelRequest, signal: AbortSignal) => AsyncIterable<StreamPart>,
): Provider {
  let client: Promise<Client> | undefined;
  return {
    name,
    baseUrl,
    async *stream(request, signal) {
      try {
        yield* stream(await (client ??= createClient()), request, signal);
      } catch (error) {
        throw classifyProviderError(error, name, request.model, baseUrl);
      }
    },
  };
}
