// A provider's error may quote the key it was sent; jp shows and records the
// error without it, in every shape an error comes in.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { redactSecrets } from "../../src/llm/redact.js";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { API_KEY, qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

function allText(dir: string): string {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .map((d) =>
      d.isDirectory() ? allText(path.join(dir, d.name)) : fs.readFileSync(path.join(dir, d.name), "utf8"),
    )
    .join("\n");
}

const json = (status: number, body: unknown): ScriptedResponse => ({
  raw: { status, pieces: [JSON.stringify(body)], headers: { "content-type": "application/json" } },
});
const quoting = `Incorrect API key provided: ${API_KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`;

const SHAPES: [string, "anthropic" | "openai", ScriptedResponse][] = [
  [
    "a 401 with a JSON error body",
    "openai",
    json(401, { error: { message: quoting, type: "invalid_request_error" } }),
  ],
  [
    "a proxy's 400 HTML page echoing the header",
    "anthropic",
    {
      raw: {
        status: 400,
        pieces: [`<html><pre>Authorization: Bearer ${API_KEY}</pre></html>`],
        headers: { "content-type": "text/html" },
      },
    },
  ],
  [
    "an error event mid-stream",
    "anthropic",
    {
      raw: {
        pieces: [
          `event: error\ndata: ${JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: `bad key ${API_KEY}` } })}\n\n`,
        ],
      },
    },
  ],
  ["a 200 carrying a JSON error", "openai", json(200, { error: { message: quoting } })],
  [
    "an error chunk in the stream",
    "openai",
    {
      raw: {
        pieces: [
          `data: ${JSON.stringify({ error: { message: quoting, type: "invalid_request_error" } })}\n\n`,
        ],
      },
    },
  ],
];

describe("the API key in a provider's error", () => {
  it.each(SHAPES)("is neither shown nor recorded: %s", async (_shape, provider, response) => {
    w = await qWorkspace({ provider, script: [response] });
    const result = await w.jp("q", "hello");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/\*\*\*/);
    expect(result.stderr).not.toContain("SECRET");
    const recorded = allText(path.join(w.root, ".jp"));
    expect(recorded).toContain("request_failed");
    expect(recorded).not.toContain("SECRET");
  });

  it("is redacted with anything else shaped like a key or bearer token", () => {
    expect(redactSecrets("key hunter22 rejected", ["hunter22"])).toBe("key *** rejected");
    expect(redactSecrets("Incorrect API key provided: sk-proj-abcdEFGH1234")).toBe(
      "Incorrect API key provided: sk-***",
    );
    expect(redactSecrets("Authorization: Bearer eyJhbGciOi.J9.x")).toBe("Authorization: Bearer ***");
    expect(redactSecrets('{"x-api-key": "abcd1234efgh"} and ?api_key=zzzzzzzz99')).toBe(
      '{"x-api-key": "***"} and ?api_key=***',
    );
    expect(redactSecrets("the task-based sk-ill is fine")).toBe("the task-based sk-ill is fine");
  });
});

describe("a base_url carrying its key in the query (?key=…)", () => {
  it("is asked at the API's path with the query kept, and a failure shown and recorded without the key", async () => {
    w = await qWorkspace({ script: [{ text: "fine" }] });
    const config = path.join(w.root, ".jp/config.toml");
    const withKey = (base: string) => {
      fs.writeFileSync(
        config,
        `[assistant.model]\nid = "lab/m"\n[providers.lab]\nbase_url = "${base}/v1?key=QUERYSECRET99"\n`,
      );
    };
    withKey(w.mock.url);
    expect((await w.jp("q", "-n", "hello")).code).toBe(0);
    expect(w.mock.requests[0]!.path).toBe("/v1/chat/completions?key=QUERYSECRET99");
    // Nothing listens on port 9: the failure names the URL, never the key.
    withKey("http://127.0.0.1:9");
    const failed = await w.jp("q", "-n", "again");
    expect(failed.code).toBe(1);
    expect(failed.stderr).not.toContain("QUERYSECRET99");
    // The log (the config file itself holds the key, as the user wrote it).
    const recorded = allText(path.join(w.root, ".jp/conversations"));
    expect(recorded).toContain("request_failed");
    expect(recorded).not.toContain("QUERYSECRET99");
  });

  it("is redacted wherever a URL's query names a key", () => {
    expect(redactSecrets("GET https://h/v1/models?alt=sse&key=AIzaSyQ9-x&b=1 failed")).toBe(
      "GET https://h/v1/models?alt=sse&key=***&b=1 failed",
    );
  });
});
