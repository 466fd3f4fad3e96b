// `jp q -k`: the conversation is compacted before the question, and the line
// saying so reads its token counts as every other line of jp does (grouped).
import { afterEach, expect, it } from "vitest";
import { sampleWorkspace, type QWorkspace } from "../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("says what -k compacted, its token counts grouped by thousands", async () => {
  // A long answer, then -k summarizing all turns but the last: thousands of tokens before.
  w = await sampleWorkspace({
    script: [{ text: "a long answer. ".repeat(1000) }, { text: "the summary" }, { text: "ok" }],
  });
  expect((await w.jp("q", "tell me all")).code).toBe(0);
  const asked = await w.jp("q", "-k", "s:..-1", "what now?");
  expect(asked.code, asked.stderr).toBe(0);
  const line = asked.stderr.split("\n").find((l) => l.startsWith("compacted "));
  expect(line).toMatch(/^compacted turns? [\d–-]+: \d{1,3}(?:,\d{3})+ → [\d,]+ tokens$/);
});
