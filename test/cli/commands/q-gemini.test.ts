// jp q against Google's Gemini API spoken natively, through the mock server
// speaking `streamGenerateContent?alt=sse` and `GET /v1beta/models/{id}`.
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../../src/events/index.js";
import { sdkTypeErrors } from "../../support/sdk-types.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Body = Record<string, unknown>;
type Part = {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: Body;
  functionResponse?: Body;
};
type Content = { role: string; parts: Part[] };
const bodies = () => w!.mock.requests.map((r) => r.body);
const contents = (n: number) => (bodies()[n] as { contents: Content[] }).contents;

describe("jp q with google/…", () => {
  it("streams a plain answer, sends the key in x-goog-api-key and the system prompt as systemInstruction, and records usage", async () => {
    w = await qWorkspace({
      provider: "google",
      script: [{ text: "Hello from Gemini.", usage: { input: 30, output: 6 } }],
    });
    const result = await w.jp("q", "hi");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Hello from Gemini.");
    const request = w.mock.requests[0]!;
    expect(request.path).toBe("/v1beta/models/gemini-mock:streamGenerateContent?alt=sse");
    expect(request.headers["x-goog-api-key"]).toBe("sk-mock-SECRET-4242");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "hi" }] }],
      systemInstruction: { parts: [{ text: expect.any(String) as unknown }] },
      generationConfig: { maxOutputTokens: 8192 },
    });
    const answer = w.events().find((e) => e.type === "chat_response")!;
    expect(answer.metadata).toMatchObject({
      model: "google/gemini-mock",
      usage: { input_tokens: 30, output_tokens: 6 },
    });
  });

  it("runs a two-request tool loop, sending the call back with its thought signature on the same part", async () => {
    w = await qWorkspace({
      provider: "google",
      script: [
        {
          reasoning: "I will count the words.",
          signature: "SIG_GEMINI_1",
          tool_calls: [{ id: "fc_1", name: "count_words", arguments: { path: "notes.txt" } }],
        },
        { text: "There are 5 words." },
      ],
      extraConfig: '[assistant.reasoning]\neffort = "high"\n',
    });
    const result = await w.jp("q", "count notes.txt");
    expect(result.code).toBe(0);
    expect(bodies()[0]).toMatchObject({
      generationConfig: { thinkingConfig: { includeThoughts: true } },
      tools: [{ functionDeclarations: [{ name: "count_words" }] }],
      toolConfig: { functionCallingConfig: { mode: "AUTO" } },
    });
    expect(contents(1)).toEqual([
      { role: "user", parts: [{ text: "count notes.txt" }] },
      {
        role: "model",
        parts: [
          {
            functionCall: { id: "fc_1", name: "count_words", args: { path: "notes.txt" } },
            thoughtSignature: "SIG_GEMINI_1",
          },
        ],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              id: "fc_1",
              name: "count_words",
              response: { output: expect.stringContaining("5") as unknown },
            },
          },
        ],
      },
    ]);
    const call = w
      .events()
      .find((e): e is Extract<Event, { type: "tool_call_request" }> => e.type === "tool_call_request")!;
    expect(call.metadata).toMatchObject({ google_thought_signature: "SIG_GEMINI_1" });
    expect(result.stdout).toContain("There are 5 words.");
    expect(sdkTypeErrors("gemini", bodies())).toEqual([]);
  });

  it("keeps a signature that ends a text answer on the empty part it came on, and sends it back so, to that model only", async () => {
    w = await qWorkspace({
      provider: "google",
      script: [
        { reasoning: "hm", signature: "SIG_TEXT", text: "Done." },
        { text: "Again." },
        { text: "Third." },
      ],
    });
    expect((await w.jp("q", "one")).code).toBe(0);
    expect((await w.jp("q", "two")).code).toBe(0);
    const model = contents(1).find((c) => c.role === "model")!;
    // A thought summary without a signature is for the reader: the signature carries the model's thinking.
    // The signature came on an empty part after the text (as Gemini 3 ends an answer): it goes back on one.
    expect(model.parts).toEqual([{ text: "Done." }, { text: "", thoughtSignature: "SIG_TEXT" }]);
    // On another model, neither the thought nor the signature goes back.
    expect((await w.jp("q", "-m", "google/gemini-other", "three")).code).toBe(0);
    expect(JSON.stringify(contents(2))).not.toContain("SIG_TEXT");
    expect(JSON.stringify(contents(2))).not.toContain('"thought":true');
  });

  it("reads chunks split anywhere in the byte stream", async () => {
    const chunk = (parts: Body[], extra: Body = {}) =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, index: 0, ...extra }] })}\n\n`;
    const body =
      chunk([{ text: "Hel" }]) +
      chunk([{ text: "lo, wörld" }]) +
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts: [] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } })}\n\n`;
    const pieces: string[] = [];
    // Pieces of 7 characters split event lines and JSON alike.
    for (let i = 0; i < body.length; i += 7) pieces.push(body.slice(i, i + 7));
    w = await qWorkspace({ provider: "google", script: [{ raw: { pieces } }] });
    expect((await w.jp("q", "hi")).stdout).toContain("Hello, wörld");
  });

  it("records a call the output cap cut off as not run, and says which setting to raise", async () => {
    w = await qWorkspace({
      provider: "google",
      script: [{ text: "partial answ", stop: "max_tokens" }],
      request: "max_continuations = 0",
    });
    const result = await w.jp("q", "write a lot");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("cut off at the token limit");
    expect(w.events().find((e) => e.type === "chat_response")!.metadata).toMatchObject({
      stop_reason: "max_tokens",
    });
  });

  it("reports Google's error body in one line and keeps the question", async () => {
    w = await qWorkspace({
      provider: "google",
      script: [{ fault: { status: 400, message: "Request contains an invalid argument." } }],
    });
    const result = await w.jp("q", "hi");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Request contains an invalid argument.");
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
  });

  it("takes the window from the models API (cached) and guards requests with it", async () => {
    w = await qWorkspace({ provider: "google", script: [{ text: "ok" }] });
    w.mock.models.set("gemini-mock", {
      name: "models/gemini-mock",
      inputTokenLimit: 2000,
      outputTokenLimit: 4000,
    });
    const big = await w.jp("q", "x ".repeat(6000));
    expect(big.code).not.toBe(0);
    expect(big.stderr).toContain("more than the 2,000-token context window of google/gemini-mock");
    expect(w.mock.requests).toHaveLength(0);
    expect((await w.jp("q", "small")).code).toBe(0);
    expect(bodies()[0]).toMatchObject({ generationConfig: { maxOutputTokens: 4000 } });
    expect(w.mock.modelRequests.map((r) => r.path)).toEqual(["/v1beta/models/gemini-mock"]);
  });
});
