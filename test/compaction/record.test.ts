import { describe, expect, it } from "vitest";
import {
  factsAtRisk,
  isWorkRecord,
  project,
  RECORD_MAX_TOKENS,
  tokensOfChars,
  WORK_RECORD_KEY,
} from "../../src/compaction/index.js";
import type { ChatRequest, Compaction, Event } from "../../src/events/index.js";
import { parserSession, PLANTED_FACTS } from "../support/parser-session.js";

const summaryOf = (over: Partial<Compaction> = {}): Compaction => ({
  type: "compaction",
  timestamp: "2026-12-01T10:00:00.000Z",
  id: "k1",
  from_turn: 0,
  to_turn: 2,
  summary: { text: "We worked on the parser together.", source: "supplied", author: "user" },
  source: "user",
  ...over,
});

const isRecord = (e: Event): e is ChatRequest => isWorkRecord(e);
const sentText = (events: readonly Event[]) => JSON.stringify(events);
const held = (events: readonly Event[]) =>
  PLANTED_FACTS.filter((f) => sentText(events).includes(JSON.stringify(f).slice(1, -1)));

describe("the record of the work", () => {
  it("keeps the planted facts of a summarised session in view, verbatim, at the compaction's place", () => {
    const raw = parserSession();
    const view = project([...raw, summaryOf()]).events;
    expect(held(view)).toEqual([...PLANTED_FACTS]);
    const record = view.find(isRecord);
    expect(record?.metadata).toEqual({ [WORK_RECORD_KEY]: "k1" });
    // After the summary turn, before anything asked later.
    expect(view.at(-1)).toBe(record);
    expect(record?.content).toContain("ERR_4711: unterminated quote at column 14, resolved in turn 2");
    expect(record?.content).toMatch(
      /Open:\n- TypeError: Cannot read properties of undefined \(reading 'trim'\) \[from `node scripts\/smoke.js fixtures\/big.csv`\] \(turn 3\)/,
    );
    expect(tokensOfChars((record?.content ?? "").length)).toBeLessThanOrEqual(RECORD_MAX_TOKENS);
  });

  it("is what fails without it: the summary alone holds none of the facts", () => {
    const view = project([...parserSession(), summaryOf({ record: false })]).events;
    expect(view.some(isWorkRecord)).toBe(false);
    expect(held(view)).toEqual([]);
  });

  it("is the same bytes for the same log, and later turns do not change it", () => {
    const raw = [...parserSession(), summaryOf()];
    const first = project(raw).events;
    const later: Event[] = [
      ...raw,
      { type: "turn_start", timestamp: "2026-12-01T11:00:00.000Z" },
      { type: "chat_request", timestamp: "2026-12-01T11:00:01.000Z", content: "Now fix the TypeError." },
    ];
    // What is sent (turn starts are not): the next turn's question comes after the record, nothing moves.
    const sent = (events: readonly Event[]) => events.filter((e) => e.type !== "turn_start");
    const next = sent(project(later).events);
    expect(JSON.stringify(next.slice(0, sent(first).length))).toBe(JSON.stringify(sent(first)));
    expect(next.at(-1)).toMatchObject({ content: "Now fix the TypeError." });
    expect(JSON.stringify(project(raw).events)).toBe(JSON.stringify(first));
  });

  it("comes after the turns kept before the compaction, so their prefix is as it was", () => {
    const raw = parserSession();
    const view = project([...raw, summaryOf({ to_turn: 1 })]).events;
    const recordAt = view.findIndex(isWorkRecord);
    const lastAnswer = view.findIndex(
      (e) => e.type === "chat_response" && e.message?.startsWith("The smoke run still fails") === true,
    );
    expect(recordAt).toBeGreaterThan(lastAnswer);
  });

  it("is left out when a newer summary takes all its turns, and gone once its compaction is reset", () => {
    const raw = parserSession();
    const wider = summaryOf({ id: "k2", timestamp: "2026-12-01T10:30:00.000Z" });
    const both = project([...raw, summaryOf({ to_turn: 1 }), wider]).events.filter(isRecord);
    expect(both.map((e) => e.metadata?.[WORK_RECORD_KEY])).toEqual(["k2"]);
    const reset: Event = { type: "compaction_reset", timestamp: "2026-12-01T12:00:00.000Z" };
    expect(project([...raw, summaryOf(), reset]).events).toEqual(raw);
  });

  it("is bounded on a long log, most recent first", () => {
    const raw: Event[] = [];
    for (let t = 0; t < 400; t++)
      raw.push(
        { type: "turn_start", timestamp: "2026-12-01T09:00:00.000Z" },
        {
          type: "chat_request",
          timestamp: "2026-12-01T09:00:00.000Z",
          content: `Step ${t}: never touch src/module${t}.ts and always run \`make check${t}\`.`,
        },
        { type: "chat_response", timestamp: "2026-12-01T09:00:00.000Z", message: `done ${t}` },
      );
    const view = project([...raw, summaryOf({ to_turn: 399 })]).events;
    const record = view.find(isRecord)?.content ?? "";
    expect(tokensOfChars(record.length)).toBeLessThanOrEqual(RECORD_MAX_TOKENS);
    expect(record).toContain("src/module399.ts");
    expect(record).not.toContain("src/module0.ts");
    expect(record).toMatch(/more items left out to keep this record short/);
  });

  it("counts for the loss report: what it holds is not at risk", () => {
    const raw = parserSession();
    const before = project(raw).events;
    const withRecord = factsAtRisk(before, project([...raw, summaryOf()]).events).map((f) => f.text);
    const without = factsAtRisk(before, project([...raw, summaryOf({ record: false })]).events).map(
      (f) => f.text,
    );
    expect(without).toEqual(expect.arrayContaining(["ERR_4711", "src/parser/line.ts"]));
    expect(withRecord).not.toContain("ERR_4711");
    expect(withRecord).not.toContain("src/parser/line.ts");
    expect(withRecord.length).toBeLessThan(without.length);
  });
});
