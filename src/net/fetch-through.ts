// Owns reaching a host through an HTTP proxy (a CONNECT tunnel): the agent
// for a proxy, made once, and a fetch that goes through it for clients that
// take a fetch of their own. Node's fetch reads no proxy settings.
import * as http from "node:http";
import { Readable } from "node:stream";

/** Where to connect: straight to the host, or through `proxy` (whose agent loads only then). */
export async function agentFor(proxy: string | undefined): Promise<http.Agent | undefined> {
  if (!proxy) return undefined;
  let agent = proxyAgents.get(proxy);
  if (!agent) {
    const { HttpsProxyAgent } = await import("https-proxy-agent");
    // CONNECT for every target, plain or TLS: one kind of proxy serves both.
    // The type parameter only picks which connect options apply; none more are given.
    agent = new HttpsProxyAgent<`http://${string}`>(new URL(proxy), { keepAlive: true });
    proxyAgents.set(proxy, agent);
  }
  return agent;
}
const proxyAgents = new Map<string, http.Agent>();

/**
 * A fetch that goes through `proxy` (a CONNECT tunnel), for clients that take
 * a fetch of their own (the MCP SDK's Streamable HTTP transport): Node's
 * fetch reads no proxy settings.
 */
export function fetchThrough(proxy: string): (url: string | URL, init?: RequestInit) => Promise<Response> {
  return async (url, init = {}) => {
    const target = new URL(url);
    const transport = target.protocol === "https:" ? await import("node:https") : http;
    const agent = await agentFor(proxy);
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
