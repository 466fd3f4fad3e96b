// `show` lists each compaction with what it saves, in the tense of its state:
// one in force saves tokens; one reset saved them, and saves none now.
import { expect, it } from "vitest";
import { workspaceWith } from "../../../support/conversation.js";
import { compaction, STRIP, workTurns } from "../../../support/stream.js";

it("says a reset compaction saves nothing now, and an active one what it saves", async () => {
  const stats = { tokens_before: 74_000, tokens_after: 11_848 };
  const f = workspaceWith([
    ...workTurns(6),
    compaction({ id: "undone", from_turn: 0, to_turn: 2, tool_calls: STRIP, stats }),
    { type: "compaction_reset", timestamp: "2026-12-01T00:10:00.000Z", ids: ["undone"] },
    compaction({ id: "kept", from_turn: 0, to_turn: 3, tool_calls: STRIP, stats }),
  ]);
  const shown = (await f.run("conversation", "show")).stdout;
  expect(shown).toMatch(
    /#1 undone .*\[user, reset: it saved 62,152 tokens while in force, and saves none now\]/,
  );
  expect(shown).toMatch(/#2 kept .*\[user, active, saves 62,152 tokens\]/);
});
