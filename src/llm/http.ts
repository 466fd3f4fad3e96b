// Owns what every provider module shares above the wire (net/http): asking a
// model API, reading an event's JSON, the key header, the transport settings,
// and the shell that classifies every failure in one place.
import { fetchJson, type EventStreamRequest } from "../net/http.js";
import type { ServerSentEvent } from "../net/sse.js";
import { classifyProviderError, HttpStatusError, StreamErrorEvent } from "./errors.js";
import { proxySecrets } from "./redact.js";
import type { AcceptedFields, ModelRequest, Provider, StreamPart } from "./types.js";
import { trimEndOf } from "../trim.js";

/** How long jp waits on a provider's model API before it goes on with what it knows. */
const MODEL_API_TIMEOUT_MS = 5000;

/** What a model API answers about a model it does not have (404). */
export const NO_SUCH_MODEL = Symbol("no such model");

/** Ask a provider's model API (GET, or POST `body`) about a model, through the provider's proxy. */
export async function askModelApiFor(
  request: { url: string; headers: Readonly<Record<string, string>>; body?: unknown; signal: AbortSignal },
  options: Pick<ProviderOptions, "proxy">,
): Promise<unknown> {
  try {
    return await fetchJson({
      ...request,
      timeoutMs: MODEL_API_TIMEOUT_MS,
      ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
    });
  } catch (error) {
    if (error instanceof HttpStatusError && error.status === 404) return NO_SUCH_MODEL;
    throw error;
  }
}

/** askModelApiFor's answer, undefined when the API does not know the model (404). */
export async function askModelApi(
  request: { url: string; headers: Readonly<Record<string, string>>; body?: unknown; signal: AbortSignal },
  options: Pick<ProviderOptions, "proxy">,
): Promise<unknown> {
  const answer = await askModelApiFor(request, options);
  return answer === NO_SUCH_MODEL ? undefined : answer;
}

/** Parse one event's JSON data; a server that sends something else has broken the stream. */
export function eventData(event: ServerSentEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    throw new StreamErrorEvent(`the stream sent data that is not JSON: ${event.data.slice(0, 100)}`);
  }
}

/** The Authorization header of a server that takes a Bearer key, when one was configured; none for a keyless local server. */
export function bearerIfKeyed(options: ProviderOptions): { authorization?: string } {
  return options.keyFromEnvironment ? { authorization: `Bearer ${options.apiKey}` } : {};
}

/** A model API's figure when it is a positive number; undefined for anything else. */
export const positiveNumber = (v: unknown): number | undefined =>
  typeof v === "number" && v > 0 ? v : undefined;

/**
 * `base` (with or without a trailing slash) followed by `path`, built from
 * the URL's parts: `path` goes after the base's path, and a query either
 * carries is kept as a query (`https://h/v1?key=k` and `/chat/completions`
 * make `https://h/v1/chat/completions?key=k`, never `/v1?key=k/chat/…`).
 */
export function endpoint(base: string, path: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return trimEndOf(base, "/") + path;
  }
  const [pathPart = "", query = ""] = path.split(/\?(.*)/s);
  url.pathname = trimEndOf(url.pathname, "/") + pathPart;
  for (const [key, value] of new URLSearchParams(query)) url.searchParams.append(key, value);
  return url.toString();
}

export interface ProviderOptions {
  apiKey: string;
  /** Whether `apiKey` is a real key (read from the environment), kept out of every message. */
  keyFromEnvironment?: boolean;
  baseURL?: string;
  timeoutMs?: number;
  idleTimeoutMs?: number;
  /** The proxy requests go through; absent or "", none. */
  proxy?: string;
}

/** The transport settings of a provider's requests. */
export function transportOptions(
  options: ProviderOptions,
): Pick<EventStreamRequest, "timeoutMs" | "idleTimeoutMs" | "proxy"> {
  return {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.idleTimeoutMs !== undefined ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
    ...(options.proxy !== undefined ? { proxy: options.proxy } : {}),
  };
}

/** A provider whose every failure leaves it as one of llm/errors' classes. */
export function classifiedProvider(
  name: string,
  options: ProviderOptions & { baseURL: string },
  accepts: AcceptedFields,
  stream: (request: ModelRequest, signal: AbortSignal) => AsyncIterable<StreamPart>,
): Provider {
  const baseUrl = options.baseURL;
  const secrets = [...(options.keyFromEnvironment ? [options.apiKey] : []), ...proxySecrets(options.proxy)];
  return {
    name,
    baseUrl,
    accepts,
    async *stream(request, signal) {
      try {
        yield* stream(request, signal);
      } catch (error) {
        throw classifyProviderError(error, name, request.model, baseUrl, secrets);
      }
    },
  };
}
