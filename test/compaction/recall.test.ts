import { describe, expect, it } from "vitest";
import { recall, RECALL_LIMIT, RECALL_QUERY_WORDS } from "../../src/compaction/recall.js";
import type { Event } from "../../src/events/index.js";

const ts = "2026-01-01T00:00:00Z";

/** One turn whose tool call has `args` characters of arguments and `output` characters of output. */
function bigCall(args: number, output: number): Event[] {
  return [
    { type: "turn_start", timestamp: ts },
    { type: "chat_request", timestamp: ts, content: "write the file" },
    {
      type: "tool_call_request",
      timestamp: ts,
      id: "c1",
      name: "write",
      arguments: { body: "a".repeat(args) },
    },
    { type: "tool_call_response", timestamp: ts, id: "c1", content: "o".repeat(output), is_error: false },
  ];
}

describe("recall's answers stay within their limit", () => {
  it("a call with megabytes of arguments: the arguments in part, the output paged, all within the limit", () => {
    const answer = recall(bigCall(2_800_000, 50_000), { call: "c1" });
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.text.length).toBeLessThanOrEqual(RECALL_LIMIT);
    expect(answer.text).toContain("more characters of arguments");
    // The note says where the output goes on, and reading on from there stays bounded too.
    const next = /recall (\{"call":"c1","offset":\d+\})/.exec(answer.text)![1]!;
    const more = recall(bigCall(2_800_000, 50_000), JSON.parse(next) as { call: string; offset: number });
    expect(more.ok && more.text.length <= RECALL_LIMIT).toBe(true);
  });

  it("an asked length beyond the limit is held to it", () => {
    const answer = recall(bigCall(10, 100_000), { call: "c1", length: 90_000 });
    expect(answer.ok && answer.text.length <= RECALL_LIMIT).toBe(true);
  });

  it("turns whose text is long: cut at the limit, the note included", () => {
    const answer = recall(bigCall(10, 100_000), { turns: "1" });
    expect(answer.ok && answer.text.length <= RECALL_LIMIT).toBe(true);
    expect(answer.ok && answer.text).toContain("more characters: ask for fewer turns");
  });
});

describe("recall's queries", () => {
  it("refuses more words than it searches for, saying how many it takes", () => {
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(" ");
    const answer = recall(bigCall(10, 10), { query: words });
    expect(answer).toEqual({
      ok: false,
      error: `the query has 20,000 words; recall searches for at most ${RECALL_QUERY_WORDS} (all must occur): give the few that matter`,
    });
  });

  it("searches with as many words as it takes", () => {
    const words = Array.from({ length: RECALL_QUERY_WORDS }, () => "ooo").join(" ");
    expect(recall(bigCall(10, 10), { query: words }).ok).toBe(true);
  });
});
