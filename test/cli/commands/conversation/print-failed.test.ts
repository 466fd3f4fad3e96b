// Failed questions in print, print --compacted and show: each marked with its reason and what came of it.
import { afterEach, beforeEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";

let w: QWorkspace;
beforeEach(async () => {
  w = await qWorkspace({
    script: [
      { text: "first answer" },
      { fault: { status: 400, message: "bad thing" } },
      { text: "retried answer" },
      { fault: { status: 400, message: "worse thing" } },
    ],
  });
  // Turn 1 answered, turn 2 failed and asked again as turn 3, turn 4 failed and left.
  for (const args of [
    ["q", "-n", "one"],
    ["q", "two"],
    ["q", "--retry"],
    ["q", "four"],
  ])
    await w.jp(...args);
});
afterEach(async () => {
  await w.close();
});

it("print marks each failed question in place, and says what came of it", async () => {
  const out = (await w.jp("conversation", "print")).stdout;
  expect(out).toContain(
    "✗ the question of turn 2 failed: anthropic refused the request (400): bad thing; that turn is not sent to the model",
  );
  expect(out).toMatch(/── turn 3 [^\n]*\n\nuser \(asks turn 2's failed question again\)\n {2}two/);
  expect(out).toContain(
    [
      "2 failed questions, not sent to the model:",
      "  turn 2: anthropic refused the request (400): bad thing — asked again as turn 3",
      "  turn 4: anthropic refused the request (400): worse thing — never answered",
    ].join("\n"),
  );
});

it("print --compacted says which turns are not sent and why", async () => {
  const out = (await w.jp("conversation", "print", "--compacted")).stdout;
  expect(out).toContain("4 raw turns → 2 projected turns.");
  expect(out).toContain(
    "Not sent: turn 2, its question failed (anthropic refused the request (400): bad thing); asked again as turn 3",
  );
  expect(out).toContain(
    "Not sent: turn 4, its question failed (anthropic refused the request (400): worse thing); never answered",
  );
});

it("show --json lists the failed questions, and show says them", async () => {
  const details = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as {
    failed_questions: unknown;
  };
  expect(details.failed_questions).toEqual([
    { turn: 2, reason: "anthropic refused the request (400): bad thing", retried_as: 3 },
    { turn: 4, reason: "anthropic refused the request (400): worse thing", retried_as: null },
  ]);
  const text = (await w.jp("conversation", "show")).stdout;
  expect(text).toContain(
    "failed:      turn 4, anthropic refused the request (400): worse thing; never answered (not sent to the model)",
  );
});
