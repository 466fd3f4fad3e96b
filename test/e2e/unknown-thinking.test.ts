// The user's explicit thinking setting wins over jp's ignorance, through the
// real bin/jp: a model neither jp's table nor the Models API describes (a
// proxy's name) gets the thinking as configured; if the provider refuses it,
// jp says so once, asks again without it, and remembers (the user's cache).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const MODEL = "anthropic/claude-lab-7";
// A window is known (so jp knows something of the model), its thinking is not.
const CONFIG = `[models."${MODEL}"]\ncontext_window = 200000\n\n[assistant.reasoning]\nbudget_tokens = 4096\n`;

async function workspace(): Promise<QWorkspace> {
  w = await qWorkspace({ model: MODEL, extraConfig: CONFIG, request: "max_tokens = 16000\n" });
  return w;
}

describe("thinking for a model jp knows nothing of", () => {
  it("-r with a budget sends the thinking as configured", async () => {
    const ws = await workspace();
    ws.mock.push({ reasoning: "weighing it", signature: "sig-1", text: "An answer." });
    const r = await ws.jp("q", "-r", "Think about it.");
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("does not think");
    expect(ws.mock.requests[0]!.body.thinking).toEqual({ type: "enabled", budget_tokens: 4096 });
    expect(ws.events().some((e) => e.type === "chat_response" && e.reasoning === "weighing it")).toBe(true);
  });

  it("a refusal is said once, asked again without thinking, and remembered", async () => {
    const ws = await workspace();
    ws.mock.push(
      { fault: { status: 400, message: "thinking: Extra inputs are not permitted" } },
      { text: "An answer without thinking." },
    );
    const first = await ws.jp("q", "-r", "Think about it.");
    expect(first.code).toBe(0);
    const said = first.stderr.match(/refused the thinking sent as configured/g) ?? [];
    expect(said).toHaveLength(1);
    expect(first.stderr).toContain("asking again without it, and from now on (remembered in");
    expect(ws.mock.requests[0]!.body).toHaveProperty("thinking");
    expect(ws.mock.requests[1]!.body).not.toHaveProperty("thinking");
    const remembered = path.join(ws.root, ".cache/jp/refused-thinking.json");
    expect(JSON.parse(fs.readFileSync(remembered, "utf8"))).toMatchObject({
      [MODEL]: { reason: expect.stringContaining("thinking") as unknown },
    });
    // The next question sends none, and nothing is refused or said again.
    ws.mock.push({ text: "Another answer." });
    const next = await ws.jp("q", "-r", "And this?");
    expect(next.code).toBe(0);
    expect(next.stderr).not.toContain("refused");
    expect(ws.mock.requests[2]!.body).not.toHaveProperty("thinking");
  });
});
