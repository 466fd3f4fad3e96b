// A conversation already over its model's window, with automatic compaction on: `jp q` is
// answered in a bounded number of requests, each within the window, and the log stays valid.
import { afterEach, describe, expect, it } from "vitest";
import { checkProviderView, project } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { ConversationStore } from "../../src/store/conversations.js";
import { workspaceAt } from "../../src/store/workspace.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { at } from "../support/stream.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const WINDOW = 8_000;

/** Prose of about `chars` characters, different for every `seed`, that no mechanical cut shortens. */
function prose(seed: number, chars: number): string {
  const words = "parser token column quote escape header row field buffer stream".split(" ");
  let out = "";
  for (let i = 0; out.length < chars; i++)
    out += `${words[(seed * 7 + i * 3) % words.length]}${(seed * 31 + i) % 97} `;
  return out.trim();
}

/** Six finished turns of thinking, a long tool result and a long answer: about three times the window. */
function heavyHistory(): Event[] {
  const events: Event[] = [];
  let second = 0;
  for (let t = 0; t < 6; t++) {
    const ts = () => at(second++);
    events.push(
      { type: "turn_start", timestamp: ts() },
      { type: "chat_request", timestamp: ts(), content: `question ${t + 1}: ${prose(t, 1_500)}` },
      {
        type: "chat_response",
        timestamp: ts(),
        reasoning: prose(t + 50, 3_000),
        metadata: { signature: `sig${t}` },
      },
      {
        type: "tool_call_request",
        timestamp: ts(),
        id: `call${t}`,
        name: "read",
        arguments: { path: `src/f${t}.ts` },
      },
      {
        type: "tool_call_response",
        timestamp: ts(),
        id: `call${t}`,
        content: prose(t + 100, 6_000),
        is_error: false,
      },
      { type: "chat_response", timestamp: ts(), message: `answer ${t + 1}: ${prose(t + 200, 7_000)}` },
    );
  }
  return events;
}

/** What an earlier automatic compaction left: turns 1–6 stripped (on a model of a larger window), and a seventh turn. */
function strippedHistory(): Event[] {
  return [
    ...heavyHistory(),
    {
      type: "compaction",
      timestamp: at(100),
      id: "earlier-auto",
      from_turn: 0,
      to_turn: 5,
      reasoning: "strip",
      tool_calls: { policy: "strip", request: true, response: true },
      source: "auto",
    },
    { type: "turn_start", timestamp: at(101) },
    { type: "chat_request", timestamp: at(102), content: "question 7: what is left?" },
    { type: "chat_response", timestamp: at(103), message: "answer 7: the quoting of headers." },
  ];
}

const isSummaryRequest = (body: Record<string, unknown>) =>
  typeof body.system === "string" && body.system.startsWith("You write the summary");

const SUMMARY_RULE = "\n[conversation.compaction.auto.rule.summary]\n";

describe("a conversation over its window, automatic compaction on", () => {
  it.each([
    {
      // Stripping leaves turns 1–6's questions and answers, over the window.
      under: "the default (mechanical) rule",
      rule: "",
      history: heavyHistory,
      turns: 6,
      model: "anthropic/claude-mock",
      forTheWindow: true,
    },
    {
      // An earlier automatic strip of turns 1–6 is where the rule's summaries roll forward from.
      under: "a summary rule, after an automatic strip",
      rule: SUMMARY_RULE,
      history: strippedHistory,
      turns: 7,
      model: "anthropic/claude-mock",
      forTheWindow: true,
    },
    {
      // Its provider writes summaries, but would be sent the turns whole: over its window, jp writes it.
      under: "a summary rule on the default model",
      rule: SUMMARY_RULE,
      history: heavyHistory,
      turns: 6,
      model: "anthropic/claude-sonnet-5-5",
      forTheWindow: false,
      says: "-token window of anthropic/claude-sonnet-5-5, which would read them whole: jp writes the summary itself",
    },
  ])(
    "is answered under $under, in a bounded number of requests, each within the window",
    async ({ rule, history, turns, model, forTheWindow, says }) => {
      w = await qWorkspace({
        model,
        extraConfig: `[models."${model}"]\ncontext_window = ${WINDOW}\nmax_output_tokens = 1000\n\n[conversation.compaction.auto]\nenabled = true\n${rule}`,
        script: [{ text: "Here is the answer." }],
        route: (body) =>
          isSummaryRequest(body) ? { text: "Six turns of parser work, summarized." } : undefined,
      });
      const store = new ConversationStore(workspaceAt(w.root, w.env));
      const ref = store.create({ title: "heavy", events: history() });
      store.setActive(ref.id);
      const result = await w.jp("q", "and now?");
      expect(result.stderr).not.toContain("it was not sent");
      expect(result.code).toBe(0);
      expect(result.stdout).toContain("Here is the answer.");
      // It says what it did: the summarizer's input cut and split, the turns summarized (for the window).
      expect(result.stderr).toMatch(/cut \d+ long tool outputs? .* summarized in \d+ parts of whole turns/);
      expect(result.stderr).toMatch(
        new RegExp(`context compacted: \\d+k → \\d+ tokens \\(.*turns 1–${turns} summarized.*\\)`),
      );
      if (says) expect(result.stderr).toContain(says);
      if (forTheWindow)
        expect(result.stderr).toContain(`over the ${WINDOW.toLocaleString("en")}-token window`);
      // Bounded: the answer, the configured rule's summary, at most one summary per earlier turn and one of those.
      const requests = w.mock.requests;
      expect(requests.filter((r) => !isSummaryRequest(r.body))).toHaveLength(1);
      expect(requests.length).toBeLessThanOrEqual(1 + (rule ? 1 : 0) + turns + 1);
      for (const r of requests) expect(JSON.stringify(r.body).length / 4).toBeLessThanOrEqual(WINDOW);
      const events = w.events();
      expect(events.filter((e) => e.type === "compaction" && e.summary).at(-1)).toMatchObject({
        from_turn: 0,
        to_turn: turns - 1,
        source: "auto",
      });
      expect(checkProviderView(project(events).events, { lastTurnFinished: true })).toEqual([]);
    },
  );
});
