// The recorded Gemini interactions of the official SDK's own system tests
// (fixtures/sdk-streams/google, see its NOTICE) replayed to `jp q` over real
// HTTP: each response as the server streamed it, each of jp's requests held
// against the request the SDK recorded for the same step.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  isJsonObject,
  type ChatResponse,
  type Event,
  type ToolCallRequest,
} from "../../../../src/events/index.js";
import type { ScriptedResponse } from "../../../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";
import { sdkTypeErrors } from "../../../support/sdk-types.js";
import { REPO_ROOT } from "../../../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

interface Interaction {
  request: { url: string; bodySegments: GeminiBody[] };
  response: { statusCode: number; bodySegments: unknown[] };
}
interface GeminiBody {
  contents: { role: string; parts: Record<string, unknown>[] }[];
  [field: string]: unknown;
}

function recording(name: string): Interaction[] {
  const file = path.join(REPO_ROOT, "fixtures/sdk-streams/google", `${name}.json`);
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { interactions: Interaction[] }).interactions;
}

/** A recorded response as the server sent it: each chunk one server-sent event, or the error body whole. */
function replayed(interaction: Interaction): ScriptedResponse {
  const { statusCode, bodySegments } = interaction.response;
  if (statusCode !== 200)
    return {
      raw: {
        status: statusCode,
        pieces: bodySegments.map((s) => JSON.stringify(s)),
        headers: { "content-type": "application/json" },
      },
    };
  return { raw: { pieces: bodySegments.map((s) => `data: ${JSON.stringify(s)}\r\n\r\n`) } };
}

const sent = (n: number) => w!.mock.requests[n]!.body as unknown as GeminiBody;
const responses = (events: Event[]) =>
  events.filter(
    (e): e is ChatResponse | ToolCallRequest => e.type === "chat_response" || e.type === "tool_call_request",
  );

/** The SDK test's customDivide, as a local tool; it answers as the SDK test's stub did (42, then 2). */
const DIVIDE = `
[conversation.tools.customDivide]
source = "local"
summary = "Custom divide function"
command = ["node", "-e", "const a = JSON.parse(require('fs').readFileSync(0, 'utf8')); process.stdout.write(a.numerator === 10 ? '42' : '2')"]
run = "unattended"
[conversation.tools.customDivide.parameters.numerator]
type = "number"
required = true
[conversation.tools.customDivide.parameters.denominator]
type = "number"
required = true
`;

describe("Gemini streams recorded by the official SDK", () => {
  it("runs the SDK's three-request function-calling loop, each thought signature sent back on its own part", async () => {
    const steps = recording(
      "AFC_Streaming_Tests_chat_stream_AFC_enabled_AFC_max_calls_exceeded_Google_AI_can_continue_after_max_calls_exceeded",
    );
    w = await qWorkspace({ provider: "google", script: steps.map(replayed), extraConfig: DIVIDE });
    const question = steps[0]!.request.bodySegments[0]!.contents[0]!.parts[0]!.text as string;
    // The SDK's test offered customDivide alone.
    const result = await w.jp("q", "-m", "google/gemini-2.5-flash", "-T", "-t=customDivide", question);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("The result is 2.");
    expect(w.mock.requests).toHaveLength(3);
    for (const [n, step] of steps.entries()) {
      expect(w.mock.requests[n]!.path).toBe(step.request.url);
      const recorded = step.request.bodySegments[0]!;
      const mine = sent(n);
      // The conversation so far is the SDK's, part for part: the model's turns (calls
      // and their signatures) byte for byte, the tool's turns with the same output.
      expect(mine.contents).toHaveLength(recorded.contents.length);
      recorded.contents.forEach((content, i) => {
        if (content.role === "model") expect(mine.contents[i]).toEqual(content);
        else if (content.parts[0]!.functionResponse !== undefined) {
          // A local tool's output is its text: 42 goes back as "42". No id: the server sent none.
          const { name, response } = content.parts[0]!.functionResponse as {
            name: string;
            response: { output: number };
          };
          expect(mine.contents[i]).toEqual({
            role: "user",
            parts: [{ functionResponse: { name, response: { output: String(response.output) } } }],
          });
        } else expect(mine.contents[i]).toEqual(content);
      });
      expect(mine.toolConfig).toEqual(recorded.toolConfig);
      // jp's declaration says also which arguments are required.
      expect(mine.tools).toMatchObject(recorded.tools as object);
    }
    expect(
      sdkTypeErrors(
        "gemini",
        w.mock.requests.map((r) => r.body),
      ),
    ).toEqual([]);
    // Usage as the server counted it, thoughts apart.
    const usage = responses(w.events()).flatMap((e) =>
      isJsonObject(e.metadata) && e.metadata.usage !== undefined ? [e.metadata.usage] : [],
    );
    expect(usage[0]).toMatchObject({
      input_tokens: 81,
      output_tokens: 20 + 179,
      reasoning_tokens: 179,
    });
    // The answer's own signature goes back on its text part in the next question's request.
    w.mock.push({ text: "ok" });
    expect((await w.jp("q", "-m", "google/gemini-2.5-flash", "thanks")).code).toBe(0);
    const last = steps[2]!.response.bodySegments[0] as {
      candidates: { content: { parts: Record<string, unknown>[] } }[];
    };
    expect(sent(3).contents.at(-2)).toEqual({ role: "model", parts: last.candidates[0]!.content.parts });
  });

  it("replays the SDK's plain streamed answer, split anywhere, into one text block", async () => {
    const [step] = recording("Chats_Tests_sendMessage_Google_AI_with_text_stream");
    const whole = replayed(step!).raw!.pieces.join("");
    // As a network would cut it: pieces of 37 bytes, through events and multi-byte characters.
    const pieces: string[] = [];
    for (let i = 0; i < whole.length; i += 37) pieces.push(whole.slice(i, i + 37));
    w = await qWorkspace({ provider: "google", script: [{ raw: { pieces } }] });
    const result = await w.jp("q", "why is the sky blue?");
    expect(result.code).toBe(0);
    const chunks = step!.response.bodySegments as {
      candidates: { content: { parts: { text: string }[] } }[];
    }[];
    const expected = chunks.map((c) => c.candidates[0]!.content.parts[0]!.text).join("");
    const kept = responses(w.events());
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ type: "chat_response", message: expected });
    expect(result.stdout).toContain("Rayleigh scattering");
    expect(sent(0).contents).toEqual(step!.request.bodySegments[0]!.contents);
  });

  it("reports the SDK's recorded 404 in one line naming the model, and keeps the question", async () => {
    const [step] = recording("Chats_Tests_sendMessage_Send_message_stream_with_error");
    w = await qWorkspace({ provider: "google", script: [replayed(step!)] });
    const result = await w.jp("q", "why is the sky blue?");
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("is not found for API version v1beta");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(w.events().map((e) => e.type)).toEqual(["turn_start", "chat_request", "request_failed"]);
  });

  it("keeps the SDK's recorded thought part, cut off at the output limit, as reasoning", async () => {
    const [step] = recording("Client_Tests_test_thinking_generate_content_should_return_thought_field");
    w = await qWorkspace({
      provider: "google",
      script: [replayed(step!)],
      extraConfig: '[assistant.reasoning]\neffort = "low"\n',
      request: "max_continuations = 0",
    });
    const result = await w.jp("q", "What is the sum of natural numbers from 1 to 100?");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("cut off at the token limit");
    const thought = responses(w.events()).find((e) => e.type === "chat_response" && e.reasoning);
    expect(thought?.type === "chat_response" && thought.reasoning).toMatch(/^\*\*Breaking Down the Sum/);
    // Asked with thoughts included, as the SDK's test asked.
    expect(sent(0).generationConfig).toMatchObject({ thinkingConfig: { includeThoughts: true } });
  });
});
