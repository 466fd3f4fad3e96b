// What the compact tool's spill file says a compaction drops.
import { beforeEach, describe, expect, it } from "vitest";
import { droppedText } from "../../src/render/compact-preview.js";
import { compaction, resetClock, turn } from "../support/stream.js";

beforeEach(resetClock);

describe("droppedText", () => {
  it("names the tool of a stripped result whose request stays in view", () => {
    const events = turn({
      request: "find it",
      tools: [{ id: "toolu_1", name: "grep", result: "src/a.ts:3" }],
    });
    const c = compaction({
      from_turn: 0,
      to_turn: 0,
      tool_calls: { policy: "strip", request: false, response: true },
    });
    const text = droppedText(events, c);
    expect(text).toContain("tool result grep toolu_1 ok");
    expect(text).not.toContain("unknown");
    // The request is not dropped, so it is not listed as dropped.
    expect(text).not.toContain("tool call grep");
  });
});
