// Owns reaching a server over HTTP: one JSON POST over node:http(s) whose
// answer streams back (server-sent events or lines of JSON), or a JSON answer;
// timeouts, same-origin redirects, compressed bodies, and a connection kept
// for the next request.
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
import type { Readable } from "node:stream";
import { pipeline, type Transform } from "node:stream";
import {
  ErrorBodyError,
  HttpStatusError,
  IdleTimeoutError,
  RedirectError,
  ResponseTimeoutError,
  StreamCutError,
  StreamErrorEvent,
  UnsupportedEncodingError,
} from "./errors.js";
import { tlsTrust } from "./extra-ca.js";
import { agentFor } from "./fetch-through.js";
import { LineDecoder, SseDecoder, type ServerSentEvent } from "./sse.js";

/** The SDKs' default: how long to wait for the response to begin. */
const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
/** How long a stream may stay silent once it began (Anthropic pings every few seconds while it thinks). */
const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60 * 1000;
/** An error body worth reading is short; a proxy's HTML page is cut here. */
const MAX_ERROR_BODY = 64 * 1024;
/** Redirects followed for one request, as fetch allows many more: a loop ends here. */
const MAX_REDIRECTS = 5;
/** After the final event, how long the rest of a response may take to arrive before its connection is given up. */
const DRAIN_MS = 2000;

export interface EventStreamRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Serialised here, once. */
  body: unknown;
  signal: AbortSignal;
  timeoutMs?: number;
  /** Silence allowed between two pieces of the stream. */
  idleTimeoutMs?: number;
  /** The proxy to go through (net/proxy chose it); absent or "", none. */
  proxy?: string;
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

/**
 * A body's pieces, which are Buffers (no encoding is set on it). Leaving the
 * loop early does not destroy the stream: drain() may keep its connection.
 */
async function* bytesOf(stream: Readable): AsyncGenerator<Buffer> {
  for await (const piece of stream.iterator({ destroyOnReturn: false }))
    yield Buffer.isBuffer(piece) ? piece : Buffer.from(String(piece));
}

/** A short body (an error, a JSON answer where a stream was asked for), decoded and cut at MAX_ERROR_BODY. */
async function shortBody(message: http.IncomingMessage): Promise<string> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of bytesOf(await decoded(message))) {
    if (size < MAX_ERROR_BODY) pieces.push(piece);
    size += piece.length;
  }
  return Buffer.concat(pieces).toString("utf8").slice(0, MAX_ERROR_BODY);
}

/**
 * The most a JSON answer (a model API's) may hold: OpenRouter's list of every
 * model is 829 KB in JP's recording, and grows; an answer cut short would not
 * parse, so one over this is refused whole.
 */
const MAX_JSON_BODY = 32 * 1024 * 1024;

/** A whole JSON answer's text, decoded; refused past MAX_JSON_BODY. */
async function jsonBody(message: http.IncomingMessage): Promise<string> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of bytesOf(await decoded(message))) {
    size += piece.length;
    if (size > MAX_JSON_BODY) {
      message.destroy();
      throw new StreamErrorEvent(`the answer is larger than ${MAX_JSON_BODY / 1024 / 1024} MB`);
    }
    pieces.push(piece);
  }
  return Buffer.concat(pieces).toString("utf8");
}

async function failure(message: http.IncomingMessage, status: number): Promise<HttpStatusError> {
  const text = await shortBody(message);
  return new HttpStatusError(
    status,
    flatHeaders(message),
    parseJson(text),
    text || message.statusMessage || "",
  );
}

/**
 * The body as it was meant: jp asks for no coding, but a server or proxy
 * may compress anyway. zlib loads only then.
 */
async function decoded(message: http.IncomingMessage): Promise<Readable> {
  const coding = (message.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (coding === "identity" || coding === "") return message;
  const zlib = await import("node:zlib");
  const make: Record<string, (() => Transform) | undefined> = {
    gzip: () => zlib.createGunzip(),
    "x-gzip": () => zlib.createGunzip(),
    deflate: () => zlib.createInflate(),
    br: () => zlib.createBrotliDecompress(),
  };
  const decoder = make[coding];
  if (!decoder) {
    message.destroy();
    throw new UnsupportedEncodingError(coding);
  }
  // pipeline carries an error of either side to the decoded stream, where the reader sees it.
  return pipeline(message, decoder(), () => undefined);
}

/** What `send` needs of a request: a JSON POST of `body`, or a GET without one. */
type SentRequest = Pick<EventStreamRequest, "headers" | "signal" | "timeoutMs" | "proxy">;

async function send(url: URL, body: Buffer | undefined, request: SentRequest): Promise<http.IncomingMessage> {
  // TLS loads only for https (a local server speaks plain http): some 5 ms of Node's own modules.
  const transport =
    url.protocol === "https:" ? await import("node:https") : url.protocol === "http:" ? http : undefined;
  if (!transport) throw new TypeError(`unsupported protocol ${url.protocol} in ${url.href}`);
  const agent = await agentFor(request.proxy);
  const trust = url.protocol === "https:" ? await tlsTrust() : {};
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const outgoing = transport.request(
      url,
      {
        method: body ? "POST" : "GET",
        headers: {
          "user-agent": "jp",
          ...request.headers,
          // Asked for plainly; a body compressed anyway is decoded (see decoded).
          "accept-encoding": "identity",
          ...(body ? { "content-type": "application/json", "content-length": String(body.length) } : {}),
        },
        signal: request.signal,
        ...trust,
        ...(agent ? { agent } : {}),
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

/** Send the request, following same-origin 307/308 redirects (they keep the method and body). */
async function respond(request: EventStreamRequest): Promise<http.IncomingMessage> {
  let url = new URL(request.url);
  // Encoded once: measuring a string's UTF-8 length and then writing it walks it twice
  // (some 90 ms for a 100 MB request), and a Buffer goes to the socket as it is.
  const body = Buffer.from(JSON.stringify(request.body), "utf8");
  for (let hops = 0; ; hops++) {
    const message = await send(url, body, request);
    const status = message.statusCode ?? 0;
    const location = message.headers.location;
    if ((status !== 307 && status !== 308) || !location) return message;
    message.resume();
    const next = new URL(location, url);
    // Another origin would be handed the API key: fetch drops it there, jp does not follow.
    if (next.origin !== url.origin || hops >= MAX_REDIRECTS)
      throw new RedirectError(url.href, next.href, hops >= MAX_REDIRECTS);
    url = next;
  }
}

/** Ends the stream with IdleTimeoutError when no piece arrives for `ms`. */
function watchIdle(message: http.IncomingMessage, ms: number): { stop(): void } {
  let timer = setTimeout(fire, ms);
  function fire() {
    message.destroy(new IdleTimeoutError(ms));
  }
  const reset = () => {
    clearTimeout(timer);
    timer = setTimeout(fire, ms);
  };
  message.on("data", reset);
  return {
    stop() {
      clearTimeout(timer);
      message.off("data", reset);
    },
  };
}

/**
 * Read what is left of a response whose last event arrived, so its
 * keep-alive connection serves the next request of the turn; one that does
 * not end soon is given up.
 */
function drain(message: http.IncomingMessage): void {
  if (message.complete || message.destroyed) return;
  const timer = setTimeout(() => message.destroy(), DRAIN_MS);
  timer.unref();
  const stop = () => {
    clearTimeout(timer);
  };
  message.on("end", stop);
  message.on("error", stop);
  message.resume();
}

/**
 * POST `body` as JSON and yield the server-sent events of the answer as they
 * arrive. A status other than 2xx throws HttpStatusError with the server's
 * error body; a 2xx with a JSON body (an error where a stream was asked for)
 * throws ErrorBodyError; an aborted signal, a refused or dropped connection
 * throw Node's own errors (classified by llm/errors).
 */
export async function* postForEvents(request: EventStreamRequest): AsyncGenerator<ServerSentEvent> {
  const decoder = new SseDecoder();
  yield* postForPieces(request, {
    push: (piece) => decoder.push(piece),
    end: () => {
      decoder.end();
      return [];
    },
  });
}

/** As postForEvents, for a body streamed as lines of JSON (Ollama's NDJSON): each line as it completes. */
export async function* postForLines(request: EventStreamRequest): AsyncGenerator<string> {
  const lines = new LineDecoder();
  yield* postForPieces(request, { push: (piece) => lines.decode(piece), end: () => lines.flush() });
}

/** The streamed answer of a POST, decoded piece by piece into what `decoder` makes of it. */
async function* postForPieces<T>(
  request: EventStreamRequest,
  decoder: { push(piece: Buffer): T[]; end(): T[] },
): AsyncGenerator<T> {
  const message = await respond(request);
  const status = message.statusCode ?? 0;
  if (status < 200 || status >= 300) throw await failure(message, status);
  if (/^application\/(problem\+)?json/i.test(message.headers["content-type"] ?? "")) {
    const text = await shortBody(message);
    throw new ErrorBodyError(parseJson(text) ?? text);
  }
  const body = await decoded(message);
  const idle = watchIdle(message, request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS);
  let finished = false;
  try {
    for await (const piece of bytesOf(body)) yield* decoder.push(piece);
    yield* decoder.end();
    finished = true;
  } catch (error) {
    // The server answered, so a network error now (a reset, a dropped socket) cut the answer short.
    if (request.signal.aborted || error instanceof IdleTimeoutError) throw error;
    throw new StreamCutError(error);
  } finally {
    idle.stop();
    // Left early after its last event (the caller stops there): read the rest so the connection stays open.
    if (!finished && !request.signal.aborted && body === message) drain(message);
    else if (!message.complete) message.destroy();
  }
}

/**
 * GET `url` (or POST `body` as JSON) and parse its JSON answer (a provider's
 * model API). A status other than 2xx throws HttpStatusError; no redirect
 * is followed.
 */
export async function fetchJson(request: SentRequest & { url: string; body?: unknown }): Promise<unknown> {
  const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body), "utf8");
  const message = await send(new URL(request.url), body, request);
  const status = message.statusCode ?? 0;
  if (status < 200 || status >= 300) throw await failure(message, status);
  const text = await jsonBody(message);
  const value = parseJson(text);
  if (value === undefined) throw new StreamErrorEvent(`the answer is not JSON: ${text.slice(0, 100)}`);
  return value;
}
