// GPT-6.2 through the real bin/jp and the Responses API's local server, as
// OpenAI's latest-model guide (https://developers.openai.com/api/docs/guides/latest-model)
// states it: the reusable system prompt goes first in `input` as a developer
// message ("models append the top-level `instructions` content after
// `input`"), and the preview of a compaction says which reasoning the API
// drops after the edit ("drops reasoning items after mid-conversation edits").
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const SYSTEM = "You help with a CSV parser. Keep answers short.";

async function workspace(model: string): Promise<QWorkspace> {
  w = await qWorkspace({
    provider: "openai",
    api: "responses",
    model,
    extraConfig: `[assistant]\nsystem_prompt = "${SYSTEM}"\n\n[assistant.reasoning]\neffort = "medium"\n`,
  });
  return w;
}

async function ask(ws: QWorkspace, n: number): Promise<void> {
  ws.mock.push({ reasoning: `thinking ${n}`, text: `answer ${n}` });
  const r = await ws.jp("q", `question ${n}`);
  expect(r.stderr).not.toMatch(/error/);
  expect(r.code).toBe(0);
}

describe("GPT-6.2 on the Responses API", () => {
  it("gpt-6.2-sol's request starts its input with the system prompt as a developer message, and sends no instructions", async () => {
    const ws = await workspace("openai/gpt-6.2-sol");
    await ask(ws, 1);
    await ask(ws, 2);
    for (const { body } of ws.mock.requests) {
      expect(body).not.toHaveProperty("instructions");
      expect((body.input as unknown[])[0]).toEqual({ role: "developer", content: SYSTEM });
    }
    // The preview of an edit names the reasoning the API drops after it.
    const dry = await ws.jp("c", "compact", "--turn", "1", "--summary", "Question 1.", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/Reasoning: the thinking of turn 2 \(≈?\d+ tokens\) stops going back/);
  });

  it("an older model keeps the system prompt in instructions, and its preview names no reasoning", async () => {
    const ws = await workspace("openai/gpt-6.1-sol");
    await ask(ws, 1);
    await ask(ws, 2);
    expect(ws.mock.requests[0]!.body.instructions).toBe(SYSTEM);
    expect((ws.mock.requests[0]!.body.input as { role?: string }[])[0]!.role).toBe("user");
    const dry = await ws.jp("c", "compact", "--turn", "1", "--summary", "Question 1.", "--dry-run");
    expect(dry.stdout).not.toContain("Reasoning:");
  });
});
