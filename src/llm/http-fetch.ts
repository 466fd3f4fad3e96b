// Owns the HTTP transport handed to the provider SDKs.
//
// Node 20's global fetch compiles undici's llhttp WebAssembly parser on first
// use, in every process: measured here at about 250 ms before and after a
// single request (the main thread waits at exit for the background tier-up),
// more than everything else `jp q` does. node:http has its parser built in.
// This function speaks the part of the fetch contract the SDKs use (method,
// headers, a string or byte body, an abort signal) and answers with a
// standard Response whose body streams as it arrives.
import * as http from "node:http";
import * as https from "node:https";
import { Readable } from "node:stream";

type FetchInput = string | URL | { url: string };

function headerPairs(headers: RequestInit["headers"]): [string, string][] {
  if (!headers) return [];
  if (headers instanceof Headers) return [...headers.entries()];
  if (Array.isArray(headers)) return headers.map(([k, v]) => [String(k), String(v)]);
  // Cast: what remains of HeadersInit after Headers and pairs is a plain record.
  return Object.entries(headers as Record<string, string>);
}

async function requestBody(body: RequestInit["body"]): Promise<string | Buffer | undefined> {
  if (body === undefined || body === null) return undefined;
  // A string goes out as it is: copying a 100 MB request into a Buffer first costs a third of a second.
  if (typeof body === "string") return body;
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  // Anything else (a stream, a Blob, form data): let the platform serialise it.
  return Buffer.from(await new Response(body).arrayBuffer());
}

function responseHeaders(message: http.IncomingMessage): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < message.rawHeaders.length; i += 2) {
    pairs.push([message.rawHeaders[i] ?? "", message.rawHeaders[i + 1] ?? ""]);
  }
  return pairs;
}

const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

export async function httpFetch(input: FetchInput, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const body = await requestBody(init.body);
  const transport = url.protocol === "https:" ? https : url.protocol === "http:" ? http : undefined;
  if (!transport) throw new TypeError(`unsupported protocol ${url.protocol} in ${url.href}`);
  const headers: Record<string, string> = {};
  for (const [name, value] of headerPairs(init.headers)) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  if (body !== undefined && !("content-length" in headers)) {
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise<Response>((resolve, reject) => {
    const request = transport.request(
      url,
      { method: init.method ?? "GET", headers, signal: init.signal ?? undefined },
      (message) => {
        const status = message.statusCode ?? 0;
        const stream = NULL_BODY_STATUS.has(status)
          ? null
          : // Cast: Node types its web stream apart from the DOM's ReadableStream; they are one.
            (Readable.toWeb(message) as unknown as ReadableStream<Uint8Array>);
        if (!stream) message.resume();
        resolve(
          new Response(stream, {
            status,
            statusText: message.statusMessage ?? "",
            headers: responseHeaders(message),
          }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
