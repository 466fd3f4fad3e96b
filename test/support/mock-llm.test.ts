// The local server refuses what the real APIs refuse: a request without the
// credentials or version header the provider requires never gets an answer,
// so a jp that forgot one fails here as it would against the real service.
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "./mock-llm.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function post(path: string, headers: Record<string, string>) {
  mock ??= await startMockLlm(Array.from({ length: 4 }, () => ({ text: "hi" })));
  const res = await fetch(`${mock.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ model: "m", messages: [], stream: true }),
  });
  return { status: res.status, body: await res.text() };
}

describe("the mock server's refusals", () => {
  it("Anthropic: no x-api-key is 401, a Bearer token is not one, and no anthropic-version is 400", async () => {
    expect((await post("/v1/messages", {})).status).toBe(401);
    expect((await post("/v1/messages", { authorization: "Bearer k" })).status).toBe(401);
    const unversioned = await post("/v1/messages", { "x-api-key": "k" });
    expect(unversioned.status).toBe(400);
    expect(unversioned.body).toContain("anthropic-version: header is required");
    const whole = await post("/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" });
    expect(whole.status).toBe(200);
  });

  it("OpenAI Responses: no Bearer key is 401", async () => {
    expect((await post("/v1/responses", {})).status).toBe(401);
    expect((await post("/v1/responses", { authorization: "Bearer k" })).status).toBe(200);
  });

  it("Gemini: no key is 403 PERMISSION_DENIED", async () => {
    const refused = await post("/v1beta/models/g:streamGenerateContent?alt=sse", {});
    expect(refused.status).toBe(403);
    expect(refused.body).toContain("PERMISSION_DENIED");
    expect(
      (await post("/v1beta/models/g:streamGenerateContent?alt=sse", { "x-goog-api-key": "k" })).status,
    ).toBe(200);
  });

  it("a local server (Ollama, llama.cpp) asks for nothing", async () => {
    expect((await post("/api/chat", {})).status).toBe(200);
    expect((await post("/v1/chat/completions", {})).status).toBe(200);
  });
});
