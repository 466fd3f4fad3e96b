// The recall tool's search gives the event loop its turn while it reads a
// large log: Ctrl-C (a timer, a signal handler) is served mid-search and
// stops it, and a search past its time budget answers with what it found.
import { describe, expect, it } from "vitest";
import { recallSteps } from "../../src/compaction/recall.js";
import type { Event } from "../../src/events/index.js";
import { driveRecall } from "../../src/tools/recall.js";

const ts = "2026-01-01T00:00:00Z";

/** `turns` turns of 2,000 characters each, compacted away, with "needle" in the first and the last. */
function largeCompactedLog(turns: number): Event[] {
  const events: Event[] = [];
  for (let i = 0; i < turns; i++) {
    const mark = i === 0 || i === turns - 1 ? " needle" : "";
    events.push(
      { type: "turn_start", timestamp: ts },
      { type: "chat_request", timestamp: ts, content: `${"word ".repeat(400)}${mark}` },
      { type: "chat_response", timestamp: ts, message: "noted" },
    );
  }
  events.push({
    type: "compaction",
    timestamp: ts,
    id: "all",
    from_turn: 0,
    to_turn: turns - 1,
    source: "user",
    summary: { text: "long talk", source: "derived" },
  });
  return events;
}

const events = largeCompactedLog(50_000);
const search = () => recallSteps(events, { query: "needle word" });

describe("recall's search, driven as the tool drives it", () => {
  it("reads the whole log when nothing stops it", async () => {
    const answer = await driveRecall(search(), new AbortController().signal);
    expect(answer?.ok && answer.text).toContain("── turn 50000, user ──");
    expect(answer?.ok && answer.text).not.toContain("the search stopped");
  });

  it("stops on Ctrl-C served while it runs: the signal handler gets its turn mid-search", async () => {
    const interrupt = new AbortController();
    // Runs only when the search gives the event loop a turn; a search that held it would finish first.
    setImmediate(() => {
      interrupt.abort();
    });
    expect(await driveRecall(search(), interrupt.signal)).toBeUndefined();
  });

  it("answers with what it found when its time budget is spent, saying where it stopped", async () => {
    const answer = await driveRecall(search(), new AbortController().signal, 0);
    expect(answer?.ok).toBe(true);
    expect(answer?.ok && answer.text).toMatch(
      /\[the search stopped at turn \d+ before reading the rest of the log/,
    );
    expect(answer?.ok && answer.text).not.toContain("turn 50000");
  });
});
