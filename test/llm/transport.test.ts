// The wire under `jp q`: proxies, redirects, compressed bodies, a BOM, one
// keep-alive connection per turn, stalled streams, and the retry decisions
// the official SDKs make for each status and header.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { classifyProviderError, HttpStatusError, type ProviderError } from "../../src/llm/errors.js";
import { retryAfterMs } from "../../src/net/advice.js";
import { proxyFor } from "../../src/net/proxy.js";
import { backoffDelay } from "../../src/net/backoff.js";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { startConnectProxy, type ConnectProxy } from "../support/connect-proxy.js";

let w: QWorkspace | undefined;
let proxy: ConnectProxy | undefined;
afterEach(async () => {
  await w?.close();
  await proxy?.close();
  w = undefined;
  proxy = undefined;
});

const sse = (events: [string, unknown][]) =>
  events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);

/** A minimal Anthropic answer saying `text`, in documented event shapes. */
function answer(text: string): string[] {
  return sse([
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: "m",
          type: "message",
          role: "assistant",
          model: "claude-mock",
          content: [],
          usage: { input_tokens: 12, output_tokens: 1 },
        },
      },
    ],
    [
      "content_block_start",
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    ],
    ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }],
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 3 } },
    ],
    ["message_stop", { type: "message_stop" }],
  ]);
}
const raw = (
  pieces: string[],
  extra: Partial<NonNullable<ScriptedResponse["raw"]>> = {},
): ScriptedResponse => ({
  raw: { pieces, ...extra },
});

describe("the transport under jp q", () => {
  it("goes through HTTP_PROXY (a CONNECT tunnel) and straight past it for hosts in NO_PROXY", async () => {
    proxy = await startConnectProxy();
    w = await qWorkspace({ script: [{ text: "via proxy" }, { text: "bypassed" }] });
    w.env.HTTP_PROXY = proxy.url;
    const through = await w.jp("q", "hello");
    expect(through.code).toBe(0);
    expect(through.stdout).toContain("via proxy");
    expect(proxy.tunnels).toEqual([new URL(w.mock.url).host]);
    w.env.NO_PROXY = "localhost,127.0.0.1";
    expect((await w.jp("q", "again")).stdout).toContain("bypassed");
    expect(proxy.tunnels).toHaveLength(1);
  });

  it("never shows or records a proxy's credentials, though the proxy echoes them", async () => {
    proxy = await startConnectProxy({ refuseEchoing: true });
    w = await qWorkspace({ script: [{ text: "never reached" }] });
    const withCredentials = new URL(proxy.url);
    withCredentials.username = "alice";
    withCredentials.password = "s3cret-pw";
    w.env.HTTP_PROXY = withCredentials.toString();
    const refused = await w.jp("q", "-n", "hello");
    expect(refused.code).toBe(1);
    const recorded = fs.readFileSync(path.join(w.folder(), "events.jsonl"), "utf8");
    expect(recorded).toContain("request_failed");
    for (const secret of ["s3cret-pw", Buffer.from("alice:s3cret-pw").toString("base64")]) {
      expect(refused.stderr).not.toContain(secret);
      expect(recorded).not.toContain(secret);
    }
    expect(refused.stderr).toContain("Basic ***");
  });

  it('uses a provider\'s own proxy setting over the environment, and "" for none', () => {
    const env = {
      HTTPS_PROXY: "http://corp:3128",
      NO_PROXY: ".internal,box.lan",
      http_proxy: "proxy.local:80",
    };
    expect(proxyFor("https://api.anthropic.com", env)).toBe("http://corp:3128");
    expect(proxyFor("http://127.0.0.1:11434/v1", env)).toBe("http://proxy.local:80");
    expect(proxyFor("https://llm.internal/v1", env)).toBe("");
    expect(proxyFor("https://a.b.internal/v1", env)).toBe("");
    expect(proxyFor("http://box.lan:8080/v1", env)).toBe("");
    expect(proxyFor("https://api.openai.com/v1", { ...env, NO_PROXY: "*" })).toBe("");
    expect(proxyFor("https://api.openai.com/v1", env, "http://mine:8080")).toBe("http://mine:8080");
    expect(proxyFor("https://api.openai.com/v1", env, "")).toBe("");
  });

  it("reads NO_PROXY as curl does", () => {
    // What curl 7.88.1 did with each (NO_PROXY, URL), recorded by running it with http_proxy set and -v.
    const CURL: [string, string, "direct" | "proxy"][] = [
      ["example.com", "http://example.com/", "direct"],
      ["example.com", "http://www.example.com/", "direct"],
      ["example.com", "http://nonexample.com/", "proxy"],
      [".example.com", "http://example.com/", "direct"],
      [".example.com", "http://a.b.example.com/", "direct"],
      ["*.example.com", "http://www.example.com/", "proxy"],
      ["example.com.", "http://www.example.com/", "direct"],
      ["localhost:8080", "http://localhost:8080/", "proxy"],
      ["localhost", "http://localhost:8080/", "direct"],
      ["::1", "http://[::1]:8080/", "direct"],
      ["[::1]", "http://[::1]:8080/", "proxy"],
      ["192.168.0.0/16", "http://192.168.4.5/", "direct"],
      ["192.168.0.0/16", "http://192.169.4.5/", "proxy"],
      ["10.0.0.1", "http://10.0.0.1/", "direct"],
      ["localhost", "http://127.0.0.1/", "proxy"],
      ["127.0.0.1", "http://localhost/", "proxy"],
      ["example.com internal.lan", "http://internal.lan/", "direct"],
      ["example.com, internal.lan", "http://internal.lan/", "direct"],
      ["*", "http://anything.test/", "direct"],
      ["EXAMPLE.COM", "http://www.example.com/", "direct"],
    ];
    for (const [noProxy, url, curl] of CURL) {
      const jp = proxyFor(url, { http_proxy: "http://127.0.0.2:9", NO_PROXY: noProxy }) ? "proxy" : "direct";
      expect(jp, `NO_PROXY=${noProxy} ${url}`).toBe(curl);
    }
    // IPv6 ranges: curl 7.88 matches none (the ranges it documents since 7.86); jp matches what the prefix says.
    expect(proxyFor("http://[::1]:8080/", { http_proxy: "http://p:9", NO_PROXY: "::1/128" })).toBe("");
    expect(proxyFor("http://[fe80::1]:8080/", { http_proxy: "http://p:9", NO_PROXY: "fe80::/10" })).toBe("");
    expect(proxyFor("http://[fe81::1]:8080/", { http_proxy: "http://p:9", NO_PROXY: "fe80::/16" })).toBe(
      "http://p:9",
    );
  });

  it("serves a 3-request turn over one keep-alive connection", async () => {
    w = await qWorkspace({
      script: [
        { tool_calls: [{ id: "t1", name: "count_words", arguments: { path: "notes.txt" } }] },
        { tool_calls: [{ id: "t2", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "5 words, twice." },
      ],
    });
    expect((await w.jp("q", "count twice")).code).toBe(0);
    expect(w.mock.requests).toHaveLength(3);
    expect(w.mock.connections()).toBe(1);
  });

  it("retries a stream that stalls after it began, once the idle timeout passes", async () => {
    w = await qWorkspace({
      script: [raw(answer("never finished"), { stall_after: 3 }), { text: "second try" }],
      request: "idle_timeout_secs = 0.3",
    });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("second try");
    expect(result.stderr).toMatch(/stopped arriving: no data for 0\.3 s; retry 1/);
    expect(w.mock.requests).toHaveLength(2);
  });

  it("decodes a gzip body a server sent though jp asked for none", async () => {
    w = await qWorkspace({ script: [raw(answer("squeezed"), { gzip: true })] });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("squeezed");
    expect(w.mock.requests).toHaveLength(1);
  });

  it("keeps message_start (and its usage) after a byte order mark", async () => {
    const pieces = answer("after a BOM");
    pieces[0] = `\uFEFF${pieces[0]!}`;
    w = await qWorkspace({ script: [raw(pieces)] });
    expect((await w.jp("q", "hello")).code).toBe(0);
    expect(w.events().at(-1)).toMatchObject({ metadata: { usage: { input_tokens: 12, output_tokens: 3 } } });
  });

  it("follows a same-origin 307 with the same body, and refuses to carry the key to another origin", async () => {
    w = await qWorkspace({
      script: [raw([], { status: 307, headers: { location: "/v2/messages" } }), raw(answer("moved"))],
    });
    const moved = await w.jp("q", "hello");
    expect(moved.stdout).toContain("moved");
    expect(w.mock.requests.map((r) => r.path)).toEqual(["/v1/messages", "/v2/messages"]);
    expect(w.mock.requests[1]!.body).toEqual(w.mock.requests[0]!.body);
    const elsewhere = `http://localhost:${new URL(w.mock.url).port}/v1/messages`;
    w.mock.push(raw([], { status: 308, headers: { location: elsewhere } }));
    const refused = await w.jp("q", "again");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`redirected from ${w.mock.url}/v1/messages to ${elsewhere}`);
    expect(w.mock.requests).toHaveLength(3);
  });
});

describe("retry decisions, as the SDKs make them", () => {
  const decide = (status: number, headers: Record<string, string> = {}): ProviderError =>
    classifyProviderError(
      new HttpStatusError(status, headers, { error: { message: "m" } }, "m"),
      "anthropic",
      "claude-x",
    );

  it("retries 408, 409, 429 and 5xx; not 400, 401, 403, 404, 413, 422", () => {
    for (const status of [408, 409, 429, 500, 502, 503, 529])
      expect(decide(status).retryable, String(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 413, 422])
      expect(decide(status).retryable, String(status)).toBe(false);
  });

  it("puts x-should-retry before the status, both ways", () => {
    expect(decide(500, { "x-should-retry": "false" }).retryable).toBe(false);
    expect(decide(400, { "x-should-retry": "true" }).retryable).toBe(true);
    expect(decide(429, { "x-should-retry": "true" }).retryable).toBe(true);
  });

  it("reads retry-after-ms, then retry-after in seconds or as a date; zero, negative and junk are no advice", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(retryAfterMs({ "retry-after-ms": "250", "retry-after": "9" }, now)).toBe(250);
    expect(retryAfterMs({ "retry-after": "2" }, now)).toBe(2000);
    expect(retryAfterMs({ "retry-after": "1.5" }, now)).toBe(1500);
    expect(retryAfterMs({ "retry-after": "Tue, 01 Dec 2026 12:00:03 GMT" }, now)).toBe(3000);
    for (const value of ["0", "-1", "soon", "Tue, 01 Dec 2026 11:00:00 GMT"])
      expect(retryAfterMs({ "retry-after": value }, now), value).toBeUndefined();
    expect(retryAfterMs({ "retry-after-ms": "0" }, now)).toBeUndefined();
  });

  it("backs off exponentially with up to a quarter of jitter when the server gives no advice", () => {
    const error = decide(503);
    expect(backoffDelay(error, 1, 1000, () => 0)).toBe(1000);
    expect(backoffDelay(error, 3, 1000, () => 0)).toBe(4000);
    expect(backoffDelay(error, 3, 1000, () => 0.999)).toBe(3001);
    expect(backoffDelay(error, 20, 1000, () => 0)).toBe(60_000);
    expect(backoffDelay(decide(503, { "retry-after": "0" }), 2, 1000, () => 0)).toBe(2000);
    expect(backoffDelay(decide(429, { "retry-after": "7" }), 2, 1000, () => 0)).toBe(7000);
  });
});
