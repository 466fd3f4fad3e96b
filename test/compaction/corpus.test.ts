// Runs a matrix of rules over every recorded JP conversation (after import) and checks the projection invariants.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkProviderView,
  planRule,
  project,
  type CompactionRule,
  type PlanOptions,
} from "../../src/compaction/index.js";
import { isSent, NO_TURN, TurnCounter, groupTurns, turnCount, type Event } from "../../src/events/index.js";
import { convertJpConversation, findJpConversations } from "../../src/store/import-jp.js";
import { FIXTURES_DIR } from "../support/workspace.js";

const present = fs.existsSync(FIXTURES_DIR);
if (!present) console.warn(`corpus projection tests skipped: ${FIXTURES_DIR} is absent`);

const conversations: [string, Event[]][] = present
  ? findJpConversations(FIXTURES_DIR).flatMap((dir) => {
      const converted = convertJpConversation(dir);
      return "reason" in converted ? [] : [[path.basename(dir), converted.events] as [string, Event[]]];
    })
  : [];

const NOW = Date.parse("2026-12-01T00:00:00Z");
let seq = 0;
function apply(events: Event[], rule: CompactionRule, extra: Partial<PlanOptions> = {}): Event[] {
  seq += 1;
  const plan = planRule(events, rule, {
    id: `m${seq}`,
    timestamp: new Date(NOW + seq * 1000).toISOString(),
    now: NOW,
    source: "user",
    ...extra,
  });
  if (plan.kind === "ready") return [...events, plan.compaction];
  if (plan.kind === "needs_summary")
    return [...events, plan.complete("A summary of the middle of the conversation.")];
  return events;
}

const keep1 = { keepFirst: { kind: "count", turns: 1 }, keepLast: { kind: "count", turns: 1 } } as const;
const STRIP = { policy: "strip", request: true, response: true } as const;

const MATRIX: [string, (events: Event[]) => Event[]][] = [
  ["reasoning strip", (e) => apply(e, { reasoning: "strip" })],
  ["tools strip", (e) => apply(e, { tool_calls: STRIP })],
  [
    "tools strip-requests",
    (e) => apply(e, { tool_calls: { policy: "strip", request: true, response: false } }),
  ],
  [
    "tools strip-responses",
    (e) => apply(e, { tool_calls: { policy: "strip", request: false, response: true } }),
  ],
  ["tools omit", (e) => apply(e, { tool_calls: { policy: "omit" } })],
  ["summary of the middle", (e) => apply(e, { summary: { kind: "derive" }, ...keep1 })],
  [
    "two stacked rules",
    (e) => apply(apply(e, { reasoning: "strip" }), { tool_calls: { policy: "omit" }, ...keep1 }),
  ],
  [
    "per-tool override",
    (e) =>
      apply(
        e,
        { tool_calls: STRIP },
        { toolHints: { fs_read_file: "keep", fs_grep_files: "omit", "*": "strip-responses" } },
      ),
  ],
  [
    "deferred rule (inactive)",
    (e) => apply(e, { reasoning: "strip", tool_calls: STRIP }, { deferredUntilTurn: turnCount(e) }),
  ],
  [
    "deferred rule (active)",
    (e) => apply(e, { reasoning: "strip", tool_calls: STRIP }, { deferredUntilTurn: turnCount(e) - 1 }),
  ],
  [
    "reset",
    (e) => [
      ...apply(e, { summary: { kind: "derive" }, ...keep1 }),
      { type: "compaction_reset", timestamp: new Date(NOW + 999_000).toISOString() },
    ],
  ],
];

/** Raw turns holding an event a provider request carries. */
function visibleTurns(events: readonly Event[]): number[] {
  return groupTurns(events)
    .filter((t) => t.events.some(isSent))
    .map((t) => t.index);
}

function withoutInvisibleTurns(events: readonly Event[]): Event[] {
  const shown = new Set(visibleTurns(events));
  const counter = new TurnCounter();
  return events.filter((e) => {
    const t = counter.next(e);
    return t === NO_TURN || shown.has(t);
  });
}

const sizes = new Map<string, { raw: number; projected: number }>();
const size = (events: Event[]) => events.reduce((n, e) => n + JSON.stringify(e).length, 0);

describe.skipIf(!present)("projection over the JP corpus", () => {
  const cases = conversations.flatMap(([name, events]) =>
    MATRIX.map(([policy, build]) => [policy, name, events, build] as const),
  );

  it.each(cases)("%s on %s keeps the invariants", (policy, _name, raw, build) => {
    const events = build(raw);
    const p = project(events);
    // Projecting twice changes nothing; the output is deterministic.
    expect(project(p.events).events).toEqual(p.events);
    expect(project(events)).toEqual(p);
    // Projection introduces no provider-view problem the raw stream did not already have.
    const before = checkProviderView(project(raw).events).length;
    expect(checkProviderView(p.events).length).toBeLessThanOrEqual(before);
    expect(checkProviderView(p.events).filter((x) => x.kind === "orphan_response")).toEqual([]);
    // Every raw turn a model can see is accounted for exactly once; a turn with nothing
    // visible is left out, or folded into the summary around it.
    const covered = p.turns
      .map((turn) => turn.origin)
      .flatMap((o) =>
        o.kind === "kept" ? [o.turn] : Array.from({ length: o.to - o.from + 1 }, (_, i) => o.from + i),
      );
    const shown = visibleTurns(raw);
    expect(covered).toEqual([...new Set(covered)].sort((a, b) => a - b));
    expect(shown.filter((t) => !covered.includes(t))).toEqual([]);
    expect(
      p.turns.map((turn) => turn.origin).filter((o) => o.kind === "kept" && !shown.includes(o.turn)),
    ).toEqual([]);
    expect(groupTurns(p.events)).toHaveLength(p.turns.map((turn) => turn.origin).length);
    if (policy === "reset" || policy === "deferred rule (inactive)")
      expect(p.events).toEqual(withoutInvisibleTurns(raw));

    const s = sizes.get(policy) ?? { raw: 0, projected: 0 };
    s.raw += size(raw);
    s.projected += size(p.events);
    sizes.set(policy, s);
  });

  afterAll(() => {
    const lines = [...sizes].map(
      ([policy, s]) =>
        `  ${policy.padEnd(26)} ${((100 * s.projected) / s.raw).toFixed(1).padStart(5)}% of raw`,
    );
    console.log(
      `projected view size relative to raw, over ${conversations.length} conversations:\n${lines.join("\n")}`,
    );
  });
});
