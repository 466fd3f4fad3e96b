// Per-tool compaction hints say which tools they name, and a hint that names
// no tool (a typo) is said, not silently applied to nothing.
import { afterEach, describe, expect, it } from "vitest";
import { loadScript } from "../../../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("tool hints", () => {
  it("are named in a dry run, and one naming no tool is warned about", async () => {
    w = await qWorkspace({
      script: [...loadScript("tool-then-answer"), ...loadScript("second-turn")],
      extraConfig: '[conversation.tools.serch]\ncompaction = "strip"\n',
    });
    expect((await w.jp("q", "count")).code).toBe(0);
    expect((await w.jp("q", "again")).code).toBe(0);
    const dry = await w.jp("conversation", "compact", "--dry-run", "-k", "r+t:1..1");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("2 tool hints (count_words, serch)");
    expect(dry.stderr).toContain(
      "conversation.tools.serch.compaction names no tool of your config or of this conversation (a typo?)",
    );
    expect(dry.stderr).not.toContain("count_words.compaction");
  });
});
