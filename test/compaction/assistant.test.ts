import { beforeEach, describe, expect, it } from "vitest";
import { planAssistantRules, project, type AssistantRule } from "../../src/compaction/index.js";
import type { Compaction, Event } from "../../src/events/index.js";
import { compaction, resetClock, summary, turn } from "../support/stream.js";
import { stringContaining, stringMatching } from "../support/matchers.js";

beforeEach(resetClock);

const convo = (): Event[] => [
  ...turn({ request: "Set up the project skeleton.", message: "Created package.json and src/index.ts." }),
  ...turn({ request: "Add a CSV parser.", message: "Added src/csv.ts with a split-based parser." }),
  ...turn({ request: "Quoted fields break it.", message: "Rewrote it as a state machine." }),
  ...turn({ request: "Now add a delimiter option.", message: "Added parseLine(line, delimiter)." }),
  // The turn in progress: the user's request to compact.
  ...turn({ request: "summarize everything except the current task" }),
];

const plan = (events: Event[], rules: AssistantRule[]) =>
  planAssistantRules(events, rules, {
    ids: rules.map((_, i) => `a${i}`),
    now: Date.parse("2026-06-01T00:00:00Z"),
  });
const ok = (result: ReturnType<typeof plan>): Compaction[] => {
  if (!result.ok) throw new Error(result.error);
  return result.compactions;
};

describe("planAssistantRules", () => {
  it("counts keep_last in turns the model saw: a question that failed before it saw it is not one", () => {
    const events: Event[] = [
      ...turn({ request: "Set up the project skeleton.", message: "Created package.json." }),
      ...turn({ request: "Add a CSV parser.", message: "Added src/csv.ts." }),
      // Turn 3 failed before the model saw it (the provider was down): no answer.
      ...turn({ request: "Quoted fields break it." }),
      {
        type: "request_failed",
        timestamp: "2026-06-01T00:00:00.000Z",
        turn: 2,
        reason: "connection refused",
      },
      ...turn({ request: "compact all but the last turn you answered" }),
    ];
    const [c] = ok(plan(events, [{ summary: "Setup.", keep_last: 2, note: "older turns" }]));
    // The last two turns the model saw are turn 2 and this one: only turn 1 is folded.
    expect(c).toMatchObject({ from_turn: 0, to_turn: 0 });
  });

  it("pins the turn a pin_quote names, first, so the rule's summary goes around it", () => {
    const events = convo();
    const result = plan(events, [
      { pin_quote: "Quoted fields break it.", summary: "Early setup.", keep_last: 1, note: "keep the task" },
    ]);
    if (!result.ok) throw new Error(result.error);
    expect(result.pins).toEqual([
      {
        type: "pin",
        timestamp: "2026-06-01T00:00:00.000Z",
        turn: 2,
        pinned: true,
        source: "assistant",
        note: "keep the task",
      },
    ]);
    const [c] = result.compactions;
    expect([c!.from_turn, c!.to_turn]).toEqual([0, 3]);
    // Active, the compaction leaves the pinned turn as it is.
    const active = { ...c!, deferred_until_turn: undefined };
    const view = project([...events, ...result.pins, active]);
    expect(view.turns.find((t) => t.origin.kind === "kept" && t.origin.turn === 2)).toBeDefined();
    // A rule may only pin; a pin_quote that matches nothing is one error.
    const only = plan(events, [{ pin_quote: "Now add a delimiter option.", note: "n" }]);
    expect(only).toMatchObject({ ok: true, compactions: [], pins: [{ turn: 3 }] });
    expect(plan(events, [{ pin_quote: "no such words anywhere", note: "n" }])).toMatchObject({
      ok: false,
      error: stringContaining("pin_quote: quote not found"),
    });
  });

  it("resolves before_quote and after_quote to raw turns", () => {
    const [c] = ok(
      plan(convo(), [
        {
          after_quote: "Add a CSV parser",
          before_quote: "Now add a delimiter option",
          summary: "S",
          note: "n",
        },
      ]),
    );
    expect([c!.from_turn, c!.to_turn]).toEqual([2, 2]);
    const [d] = ok(plan(convo(), [{ before_quote: "Now add a delimiter option", summary: "S", note: "n" }]));
    expect([d!.from_turn, d!.to_turn]).toEqual([0, 2]);
  });

  it("records assistant summaries as supplied, deferred to the next turn, with the note", () => {
    const [c] = ok(plan(convo(), [{ keep_last: 2, summary: "The gist.", note: "done with setup" }]));
    expect(c).toMatchObject({
      from_turn: 0,
      to_turn: 2,
      source: "assistant",
      deferred_until_turn: 5,
      note: "done with setup",
      summary: { text: "The gist.", source: "supplied", author: "assistant" },
    });
  });

  it("clamps keep_last to at least 1 so the turn in progress is never folded", () => {
    const [c] = ok(plan(convo(), [{ keep_last: 0, reasoning: "strip", note: "n" }]));
    expect(c!.to_turn).toBe(3);
    const [d] = ok(plan(convo(), [{ reasoning: "strip", note: "n" }]));
    expect(d!.to_turn).toBe(3);
  });

  it("truncates the note to 200 characters", () => {
    const [c] = ok(plan(convo(), [{ reasoning: "strip", note: "x".repeat(300) }]));
    expect(Array.from(c!.note!)).toHaveLength(200);
  });

  it("returns candidates for an ambiguous quote and the closest turns for a missing one", () => {
    const ambiguous = plan(convo(), [{ before_quote: "Add", summary: "S", note: "n" }]);
    expect(ambiguous).toEqual({
      ok: false,
      error: stringMatching(
        /^before_quote: quote matches \d turns: turn 2: .*Quote a longer, distinctive passage\.$/,
      ),
    });
    const missing = plan(convo(), [{ before_quote: "add the delimiter knob", summary: "S", note: "n" }]);
    expect(missing).toEqual({ ok: false, error: stringContaining("before_quote: quote not found") });
  });

  it("reports a quote inside an existing summary as already compacted", () => {
    const events = [
      ...convo(),
      compaction({ from_turn: 0, to_turn: 1, summary: summary("We set up the project and a parser.") }),
    ];
    expect(
      plan(events, [{ after_quote: "set up the project and a parser", reasoning: "strip", note: "n" }]),
    ).toEqual({
      ok: false,
      error:
        "after_quote: quote lies inside the summary of turns 1–2, which is already compacted; anchor on a turn outside it",
    });
  });

  it("plans a second call in the same turn against the first, refusing to widen its supplied summary", () => {
    const [first] = ok(
      plan(convo(), [
        {
          after_quote: "Set up the project skeleton",
          before_quote: "Now add a delimiter option",
          summary: "Parser.",
          note: "n",
        },
      ]),
    );
    expect([first!.from_turn, first!.to_turn]).toEqual([1, 2]);
    const stream = [...convo(), first!];
    // The first call is deferred, yet the second sees it: a partial overlap would widen a supplied summary.
    const second = plan(stream, [{ before_quote: "Quoted fields break it", summary: "Setup.", note: "n" }]);
    expect(second).toEqual({
      ok: false,
      error: stringContaining("turns 1–2 overlap an existing summary over turns 2–3"),
    });
    const [containing] = ok(
      plan(stream, [{ before_quote: "Now add a delimiter option", summary: "Everything.", note: "n" }]),
    );
    expect([containing!.from_turn, containing!.to_turn]).toEqual([0, 2]);
    const [mechanical] = ok(
      plan(stream, [{ before_quote: "Now add a delimiter option", reasoning: "strip", note: "n" }]),
    );
    expect([mechanical!.from_turn, mechanical!.to_turn]).toEqual([0, 2]);
  });

  it("keeps recorded rules inactive for the rest of the turn and applies them when the next turn starts", () => {
    const events = convo();
    const [c] = ok(plan(events, [{ keep_last: 2, summary: "The gist.", note: "n" }]));
    const sameTurn = [...events, c!];
    expect(project(sameTurn).events).toEqual(project(events).events);
    const nextTurn = [...sameTurn, ...turn("next")];
    expect(project(nextTurn).turns.map((turn) => turn.origin)[0]).toEqual({
      kind: "summary",
      from: 0,
      to: 2,
      compaction: "a0",
    });
  });

  it("needs a policy on every rule", () => {
    expect(plan(convo(), [{ keep_last: 2, note: "n" }])).toEqual({
      ok: false,
      error: "give at least one of summary, reasoning, tool_calls or pin_quote",
    });
  });
});
