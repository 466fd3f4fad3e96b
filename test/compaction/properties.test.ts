// Invariants of the projection over random well-formed streams with random stacks of compactions.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isWorkRecord,
  checkProviderView,
  indexCompactions,
  project,
  projectionOutline,
  projectStream,
  streamShape,
  type TurnOrigin,
} from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { groupTurns, isGlobal, UnknownEvent } from "../../src/events/index.js";
import { compactedStream, rawStream } from "../support/arbitrary.js";

const RUNS = { numRuns: 400 };

/** A stream that can be read only once, as a log streamed from disk is. */
function* once(events: readonly Event[]): Generator<Event> {
  yield* events;
}

describe("projection properties", () => {
  it("projects the same in one streamed pass, given the shape of the stream, and outlines it beforehand", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        const whole = project(events);
        const shape = streamShape(once(events));
        const out: Event[] = [];
        const origins: TurnOrigin[] = [];
        const streamed = projectStream(once(events), shape, {
          event: (e) => out.push(e),
          origin: (o) => origins.push(o),
        });
        expect(out).toEqual(whole.events);
        expect(origins).toEqual(whole.turns.map((turn) => turn.origin));
        expect(streamed.settled).toEqual(whole.settled);
        expect(streamed.stats).toEqual(whole.stats);
        expect(projectionOutline(shape)).toEqual({
          turns: whole.turns.map((turn) => turn.origin).length,
          activeCompactions: whole.stats.activeCompactions,
        });
      }),
      RUNS,
    );
  });

  it("leaves a pinned turn exactly as it is, under any stack of compactions", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        const pinned = streamShape(events).pinned;
        const raw = groupTurns(events.filter((e) => !isGlobal(e)));
        for (const turn of project(events).turns) {
          if (turn.origin.kind !== "kept" || !pinned.has(turn.origin.turn)) continue;
          // A record of the work may open the turn after a compaction: the turn's own events are untouched.
          expect(turn.events.filter((e) => !isWorkRecord(e))).toEqual(raw[turn.origin.turn]!.events);
        }
      }),
      RUNS,
    );
  });

  it("projecting twice equals projecting once", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        const once = project(events).events;
        expect(project(once).events).toEqual(once);
      }),
      RUNS,
    );
  });

  it("with no compaction the output is the input", () => {
    fc.assert(
      fc.property(rawStream, ({ events }) => {
        expect(project(events).events).toEqual(events);
      }),
      RUNS,
    );
  });

  it("with no active compaction the output is the input without compaction entries", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        fc.pre(indexCompactions(events).entries.every((e) => e.state.kind !== "active"));
        expect(project(events).events).toEqual(
          events.filter((e) => e.type !== "compaction" && e.type !== "compaction_reset"),
        );
      }),
      RUNS,
    );
  });

  it("leaves no tool response without its request, and passes checkProviderView", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        expect(checkProviderView(project(events).events)).toEqual([]);
      }),
      RUNS,
    );
  });

  it("is deterministic", () => {
    fc.assert(
      fc.property(compactedStream, ({ events }) => {
        const copy = events.map((e) =>
          e instanceof UnknownEvent ? new UnknownEvent(structuredClone(e.raw)) : structuredClone(e),
        );
        expect(project(events)).toEqual(project(copy));
      }),
      RUNS,
    );
  });

  it("accounts for every raw turn exactly once in origins, one origin per projected turn", () => {
    fc.assert(
      fc.property(compactedStream, ({ events, turnCount }) => {
        const p = project(events);
        const covered = p.turns
          .map((turn) => turn.origin)
          .flatMap((o) =>
            o.kind === "kept" ? [o.turn] : Array.from({ length: o.to - o.from + 1 }, (_, i) => o.from + i),
          );
        expect(covered).toEqual(Array.from({ length: turnCount }, (_, i) => i));
        expect(groupTurns(p.events)).toHaveLength(p.turns.map((turn) => turn.origin).length);
      }),
      RUNS,
    );
  });
});
