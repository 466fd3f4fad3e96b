// Automatic compaction against the mock LLM server: one long agent turn under a token budget.
import { afterEach, describe, expect, it } from "vitest";
import { checkProviderView, project } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { createTokenCounter } from "../../src/tokens/count.js";
import type { ScriptedResponse } from "../support/mock-llm.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { anyNumber, anyString } from "../support/matchers.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const BIG_TOOL = `[conversation.tools.big]
source = "local"
summary = "Print about 5 KB of data"
command = ["node", "-e", "const c = require('crypto'); let s = ''; while (s.length < 5000) s += c.randomBytes(9).toString('base64') + ' '; process.stdout.write(s.slice(0, 5000))"]
run = "unattended"
`;

function agentScript(calls: number): ScriptedResponse[] {
  const out: ScriptedResponse[] = [];
  for (let i = 0; i < calls; i++)
    out.push({
      text: i === 0 ? "Working through the data." : "",
      tool_calls: [{ id: `toolu_${i}`, name: "big", arguments: {} }],
    });
  out.push({ text: "Done with all the data." });
  return out;
}

const isSummaryRequest = (body: Record<string, unknown>) =>
  typeof body.system === "string" && body.system.startsWith("You write the summary");

/** Every point where a request was built: just before each group of assistant responses. */
function requestPrefixes(events: Event[]): Event[][] {
  const assistant = (e: Event) => e.type === "chat_response" || e.type === "tool_call_request";
  return events.flatMap((e, i) =>
    assistant(e) && i > 0 && !assistant(events[i - 1]!) ? [events.slice(0, i)] : [],
  );
}

async function expectUnderBudget(events: Event[], budget: number) {
  const counter = await createTokenCounter("anthropic/claude-mock");
  for (const prefix of requestPrefixes(events)) {
    const projected = project(prefix).events;
    expect(counter.events(projected)).toBeLessThanOrEqual(budget);
    expect(checkProviderView(projected, { lastTurnFinished: true })).toEqual([]);
  }
}

describe("automatic compaction", () => {
  it("keeps every request of a 60-call turn under max_tokens = 20000, and the log keeps every raw result", async () => {
    w = await qWorkspace({
      extraConfig: `${BIG_TOOL}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 20000\n`,
      script: agentScript(60),
    });
    const result = await w.jp("q", "-t=big", "process all the data");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Done with all the data.");
    expect(result.stderr).toMatch(/context compacted: \d+k? → \d+k? tokens \(\d+ tool results stripped\)/);
    const events = w.events();
    const results = events.filter((e) => e.type === "tool_call_response");
    expect(results).toHaveLength(60);
    for (const r of results) expect(r.content.length).toBe(5000);
    const autos = events.filter((e) => e.type === "compaction");
    expect(autos.length).toBeGreaterThan(0);
    for (const c of autos)
      expect(c).toMatchObject({
        source: "auto",
        to_call: anyString,
        stats: { tokens_before: anyNumber, tokens_after: anyNumber },
      });
    await expectUnderBudget(events, 20000);
    // The last request still shows the newest results verbatim.
    const last = JSON.stringify(w.mock.requests.at(-1)!.body);
    expect(last).toContain('"tool_use_id":"toolu_59"');
    expect(last).toContain("[compacted] big: success");
  });

  it("folds earlier turns with a summary rule, using the mock's summary", async () => {
    w = await qWorkspace({
      extraConfig: `${BIG_TOOL}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 20000\n\n[conversation.compaction.auto.rule.summary]\ninstructions = "You write the summary of the earlier turns."\n`,
      script: [...agentScript(4), ...agentScript(30)],
      route: (body) =>
        isSummaryRequest(body) ? { text: "Earlier, the agent processed four batches of data." } : undefined,
    });
    await w.jp("q", "-t=big", "first batch");
    const result = await w.jp("q", "-t=big", "second batch");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/context compacted: .*turns 1–1 summarized/);
    const summary = w.events().find((e) => e.type === "compaction" && e.summary);
    expect(summary).toMatchObject({
      source: "auto",
      from_turn: 0,
      to_turn: 0,
      summary: { text: "Earlier, the agent processed four batches of data.", source: "derived" },
    });
    await expectUnderBudget(w.events(), 20000);
    // The 30-step turn: each of its 31 requests holds its question verbatim, and the record of turn 1
    // from the compaction on; answered in a bounded number of requests (one summary among them).
    const asked = w.mock.requests.filter((r) => !isSummaryRequest(r.body));
    const turn = asked.slice(5).map((r) => JSON.stringify(r.body));
    expect(turn).toHaveLength(31);
    for (const body of turn) expect(body).toContain('"text":"second batch"');
    expect(turn.at(-1)).toContain("[Record of the work in turn 1");
    expect(w.mock.requests.length - asked.length).toBe(1);
  });

  it("falls back to mechanical stripping when the summariser fails, recording no summary", async () => {
    w = await qWorkspace({
      extraConfig: `${BIG_TOOL}\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 20000\n\n[conversation.compaction.auto.rule.summary]\ninstructions = "You write the summary of the earlier turns."\n`,
      script: [...agentScript(4), ...agentScript(30)],
      route: (body) =>
        isSummaryRequest(body) ? { fault: { status: 500, message: "summariser down" } } : undefined,
    });
    await w.jp("q", "-t=big", "first batch");
    const result = await w.jp("-c", "assistant.request.max_retries=1", "q", "-t=big", "second batch");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("the summary for automatic compaction failed");
    expect(result.stderr).toContain("stripping mechanically instead");
    const compactions = w.events().filter((e) => e.type === "compaction");
    expect(compactions.some((c) => c.summary)).toBe(false);
    expect(compactions.some((c) => c.from_turn === 0 && c.to_turn === 0 && c.tool_calls)).toBe(true);
    await expectUnderBudget(w.events(), 20000);
  });

  it("stops after three attempts that free nothing and says why; the provider then decides", async () => {
    w = await qWorkspace({
      extraConfig: `[conversation.tools.small]\nsource = "local"\nsummary = "tiny"\ncommand = ["echo", "ok"]\nrun = "unattended"\n\n[conversation.compaction.auto]\nenabled = true\nmax_tokens = 300\nkeep_tail = 100000\n`,
      script: [
        { tool_calls: [{ id: "t1", name: "small", arguments: {} }] },
        { tool_calls: [{ id: "t2", name: "small", arguments: {} }] },
        { tool_calls: [{ id: "t3", name: "small", arguments: {} }] },
        { text: "finished" },
      ],
    });
    const result = await w.jp("q", "-t=small", "word ".repeat(600));
    expect(result.code).toBe(0);
    expect(result.stderr.match(/automatic compaction stopped/g)).toHaveLength(1);
    expect(result.stderr).toContain("3 attempts in a row freed nothing");
    expect(w.events().filter((e) => e.type === "compaction")).toEqual([]);
  });
});
