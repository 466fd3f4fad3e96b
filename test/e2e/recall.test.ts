// The model never loses what compaction or a cut took: through `jp q`
// against the mock, the model's `recall` calls read back, from the raw log,
// a detail the view no longer shows (by turn, by tool call range, by query);
// a long tool output is recorded whole and shown as head and tail.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT } from "../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const DETAIL = "/etc/deploy/keys/zebra-42.pem";
const sent = (n: number) => JSON.stringify(w!.mock.requests[n]!.body);
const toolNames = (n: number) =>
  ((w!.mock.requests[n]!.body.tools as { name: string }[] | undefined) ?? []).map((t) => t.name);
const resultOf = (events: Event[], id: string) =>
  events.find((e) => e.type === "tool_call_response" && e.id === id) as { content: string } | undefined;
const callsRecall = (id: string, args: Record<string, unknown>): ScriptedResponse => ({
  tool_calls: [{ id, name: "recall", arguments: args }],
});

describe("recall after a compaction", () => {
  it("is not offered before one; after a summary drops a detail, reads it back by turn, by call and by query", async () => {
    w = await qWorkspace({
      script: [
        { tool_calls: [{ id: "toolu_count", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: `Noted: the key is at ${DETAIL}, and notes.txt has 5 words.` },
        { text: "ok" },
        callsRecall("toolu_r1", { turns: "1" }),
        callsRecall("toolu_r2", { call: "toolu_count" }),
        callsRecall("toolu_r3", { query: "zebra-42" }),
        { text: `It is ${DETAIL}.` },
      ],
    });
    expect((await w.jp("q", `The deploy key is at ${DETAIL}. Count the words in notes.txt.`)).code).toBe(0);
    expect((await w.jp("q", "thanks")).code).toBe(0);
    // Nothing is compacted yet: recall is not offered.
    expect(toolNames(0)).toEqual(["count_words"]);
    expect(toolNames(2)).not.toContain("recall");

    // Without the record of the work, which would keep the user's words (test/e2e/record.test.ts).
    const compact = await w.jp(
      "c",
      "compact",
      "--turn",
      "1",
      "--summary",
      "The user set up a deploy key.",
      "--no-record",
    );
    expect(compact.code).toBe(0);
    expect((await w.jp("q", "Where was the key again?")).code).toBe(0);
    const first = w.mock.requests[3]!;
    // The view has the summary with its marker, not the detail; recall is offered.
    expect(sent(3)).not.toContain("zebra-42");
    expect(sent(3)).toContain('turn 1; recall {\\"turns\\":\\"1\\"} reads it');
    expect(toolNames(3)).toContain("recall");
    expect(first.body.tool_choice).toMatchObject({ type: "auto" });

    const events = w.events();
    // By turn: the user's words and the answer, whole.
    expect(resultOf(events, "toolu_r1")!.content).toContain(`The deploy key is at ${DETAIL}`);
    expect(resultOf(events, "toolu_r1")!.content).toContain("── turn 1 ──");
    // By call: the compacted tool call with its recorded output.
    expect(resultOf(events, "toolu_r2")!.content).toMatch(
      /tool result count_words toolu_count, characters 0-\d+ of \d+:\n5/,
    );
    // By query: found in what the summary took from view.
    expect(resultOf(events, "toolu_r3")!.content).toContain(DETAIL);
    expect(resultOf(events, "toolu_r3")!.content).toMatch(/── turn 1, user ──/);
    // Read-only: the log keeps every raw event, and recall asked nothing.
    expect(events.filter((e) => e.type === "compaction")).toHaveLength(1);
    expect(sent(6)).toContain(DETAIL);
  });

  it("answers a call it cannot serve as a tool error the model can act on", async () => {
    w = await qWorkspace({
      script: [
        { text: "first" },
        callsRecall("toolu_bad", { turns: "9" }),
        callsRecall("toolu_two", { turns: "1", query: "x" }),
        { text: "done" },
      ],
    });
    await w.jp("q", "hello");
    await w.jp("c", "compact", "--turn", "1", "--summary", "A greeting.");
    expect((await w.jp("q", "go")).code).toBe(0);
    const events = w.events();
    expect(events.find((e) => e.type === "tool_call_response" && e.id === "toolu_bad")).toMatchObject({
      is_error: true,
      content: "turns 9 are not in this conversation: it has turns 1-2",
    });
    expect(events.find((e) => e.type === "tool_call_response" && e.id === "toolu_two")).toMatchObject({
      is_error: true,
      content: "give exactly one of turns, call or query",
    });
  });
});

describe("a long tool output", () => {
  const BIG = `
[conversation.tools.big_log]
source = "local"
summary = "Print the build log"
command = ["node", "-e", "process.stdout.write('BEGIN ' + 'a'.repeat(150000) + ' NEEDLE-7731 ' + 'b'.repeat(150000) + ' FAILED: 3 tests')"]
run = "unattended"
`;

  it("is recorded whole, shown as head and tail within the cap with a marker, and its middle recalled", async () => {
    const total = 300_000 + "BEGIN  NEEDLE-7731  FAILED: 3 tests".length;
    const needle = "BEGIN ".length + 150_000 + 1;
    w = await qWorkspace({
      extraConfig: BIG,
      script: [
        { tool_calls: [{ id: "toolu_log", name: "big_log", arguments: {} }] },
        callsRecall("toolu_mid", { call: "toolu_log", offset: needle - 100, length: 200 }),
        { text: "The build failed; I found the needle." },
      ],
    });
    expect((await w.jp("q", "-T", "-t=big_log", "-t=recall", "run the build")).code).toBe(0);
    const recorded = resultOf(w.events(), "toolu_log")!.content;
    expect(recorded).toHaveLength(total);
    expect(recorded.indexOf("NEEDLE-7731")).toBe(needle);
    const view = (w.mock.requests[1]!.body.messages as { content: unknown }[]).flatMap((m) =>
      Array.isArray(m.content) ? (m.content as { type: string; content?: string }[]) : [],
    );
    const shown = view.find((b) => b.type === "tool_result")!.content!;
    expect(Buffer.byteLength(shown)).toBeLessThan(64 * 1024 + 300);
    // Head and tail: the start and the failure at the end are both in view; the middle is not.
    expect(shown.startsWith("BEGIN ")).toBe(true);
    expect(shown.endsWith("FAILED: 3 tests")).toBe(true);
    expect(shown).not.toContain("NEEDLE-7731");
    const cut = total - 64 * 1024;
    expect(shown).toContain(
      `[… ${cut.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} characters cut from the middle of this output; recall {"call":"toolu_log","offset":32768,"length":${cut}} reads them]`,
    );
    expect(toolNames(1)).toContain("recall");
    // recall reads the middle back from the log, and says how to read on.
    const middle = resultOf(w.events(), "toolu_mid")!.content;
    expect(middle).toContain(`characters ${needle - 100}-${needle + 100} of ${total}:`);
    expect(middle).toContain("NEEDLE-7731");
    expect(middle).toContain(`recall {"call":"toolu_log","offset":${needle + 100}}`);
  });

  it("follows max_output_bytes as a view setting: a larger cap later shows more without touching the log", async () => {
    w = await qWorkspace({
      extraConfig: `${BIG}max_output_bytes = 400000\n`,
      script: [{ tool_calls: [{ id: "toolu_log", name: "big_log", arguments: {} }] }, { text: "ok" }],
    });
    expect((await w.jp("q", "-T", "-t=big_log", "run the build")).code).toBe(0);
    expect(sent(1)).toContain("NEEDLE-7731");
    expect(toolNames(1)).not.toContain("recall");
  });
});

describe("recall on a large log", () => {
  it("a jp process answers a 20,000-word query at once, and a search of 30 MB of compacted turns finds the last one", async () => {
    w = await qWorkspace({ script: [{ text: "first" }] });
    expect((await w.jp("q", "-n", "hello")).code).toBe(0);
    // 15,000 turns of 2,000 characters, all compacted away, the needle in the last.
    const ts = "2026-01-01T00:00:00Z";
    const turns = 15_000;
    const lines: string[] = [];
    for (let i = 0; i < turns; i++)
      lines.push(
        JSON.stringify({ type: "turn_start", timestamp: ts }),
        JSON.stringify({
          type: "chat_request",
          timestamp: ts,
          content: `${"word ".repeat(400)}${i === turns - 1 ? "needle-9911" : ""}`,
        }),
        JSON.stringify({ type: "chat_response", timestamp: ts, message: "noted" }),
      );
    lines.push(
      JSON.stringify({
        type: "compaction",
        timestamp: ts,
        id: "all",
        from_turn: 0,
        to_turn: turns,
        source: "user",
        summary: { text: "long talk", source: "derived" },
      }),
    );
    fs.appendFileSync(path.join(w.folder(), "events.jsonl"), lines.join("\n") + "\n");
    const flood = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(" ");
    w.mock.push(
      callsRecall("toolu_flood", { query: flood }),
      callsRecall("toolu_many", { query: flood.slice(0, 1000) }),
      callsRecall("toolu_needle", { query: "needle-9911 word" }),
      { text: "found it" },
    );
    const asked = await execa(path.join(REPO_ROOT, "bin/jp"), ["q", "where is the needle?"], {
      cwd: w.root,
      env: w.env,
      reject: false,
      stdin: "ignore",
      timeout: 60_000,
    });
    expect(asked.exitCode, asked.stderr).toBe(0);
    const events = w.events();
    expect(resultOf(events, "toolu_flood")!.content).toMatch(
      /^invalid arguments for recall: invalid recall call at query: .*1000/,
    );
    expect(resultOf(events, "toolu_many")!.content).toMatch(
      /^the query has \d+ words; recall searches for at most 32/,
    );
    expect(resultOf(events, "toolu_needle")!.content).toContain(`── turn ${turns + 1}, user ──`);
    expect(resultOf(events, "toolu_needle")!.content).not.toContain("the search stopped");
  });
});
