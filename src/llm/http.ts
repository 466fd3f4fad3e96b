// Owns what both providers share: the wire (one JSON POST over node:http(s)
// whose answer streams back as server-sent events), streamed tool arguments,
// and the shell that classifies every failure in one place.
//
// Why not the providers' SDKs at run time: for jp's one call per provider
// (create a message, stream it) they cost more than the rest of `jp q` put
// together. Loading the Anthropic SDK's code takes about 10 ms, and its
// header handling builds a WHATWG Headers object, which makes Node load its
// internal fetch implementation (undici): about 30 ms more, in every
// process. Global fetch would in addition compile undici's WebAssembly HTTP
// parser (about 250 ms measured here); node:http has its parser built in.
// The SDKs still define the wire shapes jp sends and reads: their types are
// imported, their code is not.
import * as http from "node:http";
import { isJsonObject } from "../events/json.js";
import {
  classifyProviderError,
  HttpStatusError,
  ResponseTimeoutError,
  StreamCutError,
  StreamErrorEvent,
} from "./errors.js";
import { SseDecoder, type ServerSentEvent } from "./sse.js";
import type { ModelRequest, Provider, StreamPart } from "./types.js";

/** The SDKs' default: how long to wait for the response to begin. */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
/** An error body worth reading is short; a proxy's HTML page is cut here. */
const MAX_ERROR_BODY = 64 * 1024;

export interface EventStreamRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Serialised here, once. */
  body: unknown;
  signal: AbortSignal;
  timeoutMs?: number;
}

function flatHeaders(message: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function failure(message: http.IncomingMessage, status: number): Promise<HttpStatusError> {
  message.setEncoding("utf8");
  let text = "";
  for await (const piece of message) {
    if (text.length < MAX_ERROR_BODY) text += String(piece);
  }
  return new HttpStatusError(
    status,
    flatHeaders(message),
    parseJson(text),
    text || message.statusMessage || "",
  );
}

async function respond(request: EventStreamRequest): Promise<http.IncomingMessage> {
  const url = new URL(request.url);
  // TLS loads only for https (a local server speaks plain http): some 5 ms of Node's own modules.
  const transport =
    url.protocol === "https:" ? await import("node:https") : url.protocol === "http:" ? http : undefined;
  if (!transport) throw new TypeError(`unsupported protocol ${url.protocol} in ${url.href}`);
  // Encoded once: measuring a string's UTF-8 length and then writing it walks it twice
  // (some 90 ms for a 100 MB request), and a Buffer goes to the socket as it is.
  const body = Buffer.from(JSON.stringify(request.body), "utf8");
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: "POST",
        headers: {
          "user-agent": "jp",
          ...request.headers,
          // node:http does not decompress, and a request without this header accepts any coding.
          "accept-encoding": "identity",
          "content-type": "application/json",
          "content-length": String(body.length),
        },
        signal: request.signal,
      },
      (message) => {
        clearTimeout(timer);
        resolve(message);
      },
    );
    const timer = setTimeout(() => outgoing.destroy(new ResponseTimeoutError(timeoutMs)), timeoutMs);
    outgoing.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.end(body);
  });
}

/**
 * POST `body` as JSON and yield the server-sent events of the answer as they
 * arrive. A status other than 2xx throws HttpStatusError with the server's
 * error body; an aborted signal, a refused or dropped connection throw Node's
 * own errors (classified by llm/errors).
 */
export async function* postForEvents(request: EventStreamRequest): AsyncGenerator<ServerSentEvent> {
  const message = await respond(request);
  const status = message.statusCode ?? 0;
  if (status < 200 || status >= 300) throw await failure(message, status);
  message.setEncoding("utf8");
  const decoder = new SseDecoder();
  try {
    for await (const piece of message) yield* decoder.push(String(piece));
  } catch (error) {
    // The server answered, so a network error now (a reset, a dropped socket) cut the answer short.
    if (request.signal.aborted) throw error;
    throw new StreamCutError(error);
  } finally {
    decoder.end();
    // Leaving early (an error below, a break) must not leave the response open.
    if (!message.complete) message.destroy();
  }
}

/** Parse one event's JSON data; a server that sends something else has broken the stream. */
export function eventData(event: ServerSentEvent): unknown {
  try {
    return JSON.parse(event.data) as unknown;
  } catch {
    throw new StreamErrorEvent(`the stream sent data that is not JSON: ${event.data.slice(0, 100)}`);
  }
}

/** `base` (with or without a trailing slash) followed by `path`. */
export function endpoint(base: string, path: string): string {
  return base.replace(/\/+$/, "") + path;
}

export interface ProviderOptions {
  apiKey: string;
  baseURL?: string;
  timeoutMs?: number;
}

/** Tool arguments streamed as JSON text; an empty text is no arguments. */
export function parseToolArguments(json: string): Record<string, unknown> {
  if (!json.trim()) return {};
  const parsed: unknown = JSON.parse(json);
  return isJsonObject(parsed) ? parsed : {};
}

/** A provider whose every failure leaves it as one of llm/errors' classes. */
export function classifiedProvider(
  name: string,
  baseUrl: string,
  stream: (request: ModelRequest, signal: AbortSignal) => AsyncIterable<StreamPart>,
): Provider {
  return {
    name,
    baseUrl,
    async *stream(request, signal) {
      try {
        yield* stream(request, signal);
      } catch (error) {
        throw classifyProviderError(error, name, request.model, baseUrl);
      }
    },
  };
}
