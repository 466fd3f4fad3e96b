// The invariants no compaction may break, over random sequences of every way
// jp compacts (by the user, stacked and overlapping; automatic, of earlier
// turns and inside the turn in progress; by the compact tool; pins; resets),
// each planned by the planner that makes it in jp, on real conversations:
// the instructions a conversation recorded, pinned turns and the question of
// the turn in progress are in every projected request byte for byte, and
// resetting a compaction at once gives back exactly the request sent before it
// (any compaction, later: test/turn/undo.test.ts).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWorkRecord, project, streamShape } from "../../src/compaction/index.js";
import { groupTurns, isGlobal } from "../../src/events/index.js";
import { apply, BASES, op, Session } from "../support/compaction-sequences.js";

/** Every invariant, on the log as it stands. */
function check(s: Session): void {
  const view = project(s.events);
  const sent = view.events.filter((e) => !isWorkRecord(e));
  // The instructions the conversation recorded, each in place and whole.
  const deltas = s.events.filter((e) => e.type === "config_delta");
  expect(view.events.filter((e) => e.type === "config_delta")).toEqual(deltas);
  // The question of the turn in progress, byte for byte.
  const current = groupTurns(s.events.filter((e) => !isGlobal(e))).at(-1)!;
  const question = current.events.find((e) => e.type === "chat_request");
  expect(question).toBeDefined();
  expect(sent).toContainEqual(question);
  // Pinned turns, byte for byte.
  const pinned = streamShape(s.events).pinned;
  const raw = groupTurns(s.events.filter((e) => !isGlobal(e)));
  for (const turn of view.turns)
    if (turn.origin.kind === "kept" && pinned.has(turn.origin.turn))
      expect(turn.events.filter((e) => !isWorkRecord(e))).toEqual(raw[turn.origin.turn]!.events);
  for (const t of pinned)
    expect(view.turns.some((turn) => turn.origin.kind === "kept" && turn.origin.turn === t)).toBe(true);
}

describe("invariants no compaction may break", () => {
  it("hold after any sequence of compactions, pins and resets, on real conversations", () => {
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fc.array(op, { minLength: 1, maxLength: 8 }), (base, ops) => {
        const s = new Session([...BASES[base]!]);
        ops.forEach((o, n) => {
          apply(s, o, n);
          check(s);
        });
      }),
      { numRuns: 1000 },
    );
  });
});
