// A generated summary is shown when it is written, and its request is billed:
// counted in the conversation's usage and cost like any other request.
import * as fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  if (w) fs.rmSync(w.root, { recursive: true, force: true });
  w = undefined;
});

const SUMMARY = "The user asked three questions about the parser.\nNext: nothing pending.";

describe("generated summaries", () => {
  it("are printed once written, and their request counts in show's usage", async () => {
    w = await qWorkspace({
      script: [
        { text: "one", usage: { input: 100, output: 10 } },
        { text: "two", usage: { input: 120, output: 10 } },
        { text: "three", usage: { input: 140, output: 10 } },
        { text: SUMMARY, usage: { input: 300, output: 25 } },
      ],
    });
    for (const q of ["first?", "second?", "third?"]) expect((await w.jp("q", q)).code).toBe(0);
    const compacted = await w.jp("c", "compact", "-k", "s:1..2");
    expect(compacted.code).toBe(0);
    expect(compacted.stderr).toContain("summary written in ");
    expect(compacted.stderr).toContain("by anthropic/claude-mock (in 300 · out 25 tokens):");
    expect(compacted.stderr).toContain(
      "  │ The user asked three questions about the parser.\n  │ Next: nothing pending.",
    );
    // The summarizing request is the fourth the provider answered, and the log bills it.
    expect(w.mock.requests).toHaveLength(4);
    const compaction = w.events().find((e) => e.type === "compaction");
    expect(compaction).toMatchObject({
      metadata: { model: "anthropic/claude-mock", usage: { input_tokens: 300, output_tokens: 25 } },
    });
    const show = JSON.parse((await w.jp("c", "show", "--json")).stdout) as {
      usage: { requests: number; input_tokens: number; output_tokens: number };
    };
    expect(show.usage).toMatchObject({ requests: 4, input_tokens: 660, output_tokens: 55 });
    expect((await w.jp("c", "show")).stdout).toContain("usage:       4 requests, in 660 · out 55");
  });
});
