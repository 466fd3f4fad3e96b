// The compact tool's own checks: malformed calls come back to the model with the fix.
import { beforeEach, describe, expect, it } from "vitest";
import { createCompactTool } from "../../src/tools/compact.js";
import { createTokenCounter } from "../../src/tokens/count.js";
import type { ToolContext } from "../../src/tools/types.js";
import { resetClock, turns } from "../support/stream.js";

beforeEach(resetClock);

const tool = createCompactTool({
  now: () => new Date("2026-06-01T00:00:00Z"),
  newId: () => "k1",
  hints: {},
  counter: () => createTokenCounter("openai/gpt-4.1", "chars"),
  conversationId: "c1",
});
const ctx = (): ToolContext => ({
  events: turns(4),
  cwd: "/",
  signal: new AbortController().signal,
  turn: 3,
});

describe("compact tool", () => {
  it("is explicit, asks by default, and describes how to quote", () => {
    expect(tool.enable).toBe("explicit");
    expect(tool.run).toBe("ask");
    expect(tool.description).toContain("verbatim");
    expect(tool.description).toContain("take effect when the next turn starts");
  });

  it.each([
    [{}, "invalid compact call at rules: "],
    [{ rules: [] }, "invalid compact call at rules: "],
    [
      { rules: [{ summary: "S" }] },
      "invalid compact call at rules[0].note: note is required: say in one sentence why.",
    ],
    [
      { rules: [{ note: "n", summary: "S", when: "now" }] },
      "invalid compact call at rules[0]: unknown field when; a rule accepts keep_first",
    ],
    [{ rules: [{ note: "n", tool_calls: "shred" }] }, "invalid compact call at rules[0].tool_calls"],
  ])("rejects %j with a fix", (args, message) => {
    expect(tool.validate!(args as Record<string, unknown>, ctx())).toContain(message);
  });

  it("returns deferred compactions as host effects, with token figures, and tells the model when they apply", async () => {
    const outcome = await tool.execute(
      { rules: [{ keep_first: 1, summary: "Two turns of setup.", note: "setup is done" }] },
      ctx(),
    );
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toBe(
      "Recorded 1 compaction; they take effect when the next turn starts: turns 2..3 replaced by your summary.",
    );
    expect(outcome.effects).toEqual([
      expect.objectContaining({
        type: "compaction",
        from_turn: 1,
        to_turn: 2,
        deferred_until_turn: 4,
        source: "assistant",
        stats: { tokens_before: expect.any(Number), tokens_after: expect.any(Number) },
      }),
    ]);
  });
});
