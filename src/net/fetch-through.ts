// Owns reaching a host through an HTTP proxy (a CONNECT tunnel): the agent
// for a proxy, made once, and a fetch over node:http(s) for clients that take
// a fetch of their own. Node's fetch reads no proxy settings, and does not
// trust the authorities jp adds itself (src/net/extra-ca.ts).
import * as http from "node:http";
import { Readable } from "node:stream";
import { tlsTrust, trustIsDeferred } from "./extra-ca.js";

/** Where to connect: straight to the host, or through `proxy` (whose agent loads only then). */
export async function agentFor(proxy: string | undefined): Promise<http.Agent | undefined> {
  if (!proxy) return undefined;
  let agent = proxyAgents.get(proxy);
  if (!agent) {
    const { HttpsProxyAgent } = await import("https-proxy-agent");
    // CONNECT for every target, plain or TLS: one kind of proxy serves both.
    // A proxy reached over TLS trusts what jp's other connections trust.
    const trust = new URL(proxy).protocol === "https:" ? await tlsTrust() : {};
    agent = new HttpsProxyAgent(new URL(proxy), { keepAlive: true, ...trust });
    proxyAgents.set(proxy, agent);
  }
  return agent;
}
const proxyAgents = new Map<string, http.Agent>();

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * The fetch for `url` of a client that takes a fetch of its own (the MCP
 * SDK's Streamable HTTP transport, attachments' URLs): Node's, unless the
 * request goes through `proxy` (a CONNECT tunnel) or jp adds authorities to
 * trust; then one over node:http(s) that does both.
 */
export function fetchFor(proxy: string | undefined): Fetch | undefined {
  return proxy !== undefined || trustIsDeferred() ? nodeFetch(proxy) : undefined;
}

function nodeFetch(proxy: string | undefined): Fetch {
  return async (url, init = {}) => {
    const target = new URL(url);
    const tls = target.protocol === "https:";
    const transport = tls ? await import("node:https") : http;
    const agent = await agentFor(proxy);
    const trust = tls ? await tlsTrust() : {};
    const body =
      init.body === undefined || init.body === null
        ? undefined
        : Buffer.from(await new Response(init.body).arrayBuffer());
    const message = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const outgoing = transport.request(
        target,
        {
          method: init.method ?? "GET",
          headers: Object.fromEntries(new Headers(init.headers).entries()),
          ...(init.signal ? { signal: init.signal } : {}),
          ...trust,
          ...(agent ? { agent } : {}),
        },
        resolve,
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
    const status = message.statusCode ?? 0;
    const headers = new Headers();
    for (const [name, value] of Object.entries(message.headers))
      for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value])
        headers.append(name, v);
    // These statuses carry no body, and a Response refuses one for them.
    const noBody = [101, 204, 205, 304].includes(status);
    if (noBody) message.resume();
    // Cast: Node types toWeb's stream as its own ReadableStream<any>, which Response does not take; its chunks are Buffers.
    return new Response(noBody ? null : (Readable.toWeb(message) as ReadableStream<Uint8Array>), {
      status,
      statusText: message.statusMessage ?? "",
      headers,
    });
  };
}
