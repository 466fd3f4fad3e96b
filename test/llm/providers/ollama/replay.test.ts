// Ollama's documented /api/chat streams (fixtures/sdk-streams/ollama, see its
// NOTICE) replayed to `jp q` over real HTTP, cut into pieces as a network
// would, and jp's bodies checked against the official library's request type.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { ScriptedResponse } from "../../../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";
import { sdkTypeErrors } from "../../../support/sdk-types.js";
import { REPO_ROOT } from "../../../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** A documented stream, in pieces of at most 29 bytes. */
function documented(file: string): ScriptedResponse {
  const text = fs.readFileSync(path.join(REPO_ROOT, "fixtures/sdk-streams/ollama", file), "utf8");
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += 29) pieces.push(text.slice(i, i + 29));
  return { raw: { pieces, headers: { "content-type": "application/x-ndjson" } } };
}

const bodies = () => w!.mock.requests.map((r) => r.body);

describe("Ollama's documented /api/chat streams", () => {
  it("streams the documented answer and records the final line's counts", async () => {
    w = await qWorkspace({ provider: "ollama", script: [documented("chat-streaming.ndjson")] });
    const result = await w.jp("q", "why is the sky blue?");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("The");
    const answer = w.events().find((e) => e.type === "chat_response");
    expect(answer).toMatchObject({
      message: "The",
      metadata: { usage: { input_tokens: 26, output_tokens: 282 } },
    });
    expect(sdkTypeErrors("ollama", bodies())).toEqual([]);
  });

  it("runs the documented tool call, which has no id, and answers it by the tool's name", async () => {
    const weather = `
[conversation.tools.get_weather]
source = "local"
summary = "Get the weather in a given city"
command = ["node", "-e", "process.stdout.write('sunny in ' + JSON.parse(require('fs').readFileSync(0, 'utf8')).city)"]
run = "unattended"
[conversation.tools.get_weather.parameters.city]
type = "string"
description = "The city to get the weather for"
required = true
`;
    w = await qWorkspace({
      provider: "ollama",
      script: [documented("chat-streaming-tools.ndjson"), { text: "Sunny." }],
      extraConfig: weather,
    });
    const result = await w.jp("q", "-T", "-t=get_weather", "what is the weather in tokyo?");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Sunny.");
    // The documented request's tool, as jp declared it.
    expect(bodies()[0]).toMatchObject({
      tools: [
        {
          type: "function",
          function: {
            name: "get_weather",
            parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
          },
        },
      ],
    });
    const call = w.events().find((e) => e.type === "tool_call_request");
    expect(call).toMatchObject({ name: "get_weather", arguments: { city: "Tokyo" } });
    // Back as Ollama documents a tool loop: the call as it came, the result named by its tool,
    // both carrying the id jp gave the call (the documented call has none), so they pair.
    const id = call?.type === "tool_call_request" ? call.id : "";
    expect((bodies()[1] as { messages: unknown[] }).messages.slice(-2)).toEqual([
      {
        role: "assistant",
        content: "",
        tool_calls: [{ id, function: { name: "get_weather", arguments: { city: "Tokyo" } } }],
      },
      { role: "tool", content: "sunny in Tokyo", tool_name: "get_weather", tool_call_id: id },
    ]);
    expect(sdkTypeErrors("ollama", bodies())).toEqual([]);
  });
});
