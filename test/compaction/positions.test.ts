// The CLI position grammar (--from/--to/--turn/--first/--last): 1-based, -1 is the last turn,
// the same meaning as the rule language's ranges.
import { describe, expect, it } from "vitest";
import {
  firstTurns,
  lastTurns,
  parseCliBound,
  parseSpec,
  PositionSyntaxError,
  resolveRange,
  turnSelector,
  type StreamFacts,
} from "../../src/compaction/index.js";

const facts = (turnCount: number): StreamFacts => ({
  turnCount,
  turnStarts: [],
  afterLastCompaction: 0,
  now: 0,
});

describe("parseCliBound", () => {
  it("maps N to index N-1 and -N to N-1 before the end", () => {
    expect(parseCliBound("3", "--from")).toEqual({ kind: "absolute", index: 2 });
    expect(parseCliBound("-1", "--to")).toEqual({ kind: "from_end", offset: 0 });
    expect(parseCliBound("5h", "--from")).toEqual({ kind: "ago", ms: 5 * 3_600_000 });
    expect(parseCliBound("last-compaction", "--from")).toEqual({ kind: "last_compaction" });
  });

  it("gives --to -1, --turn ..-1 and the rule language's ..-1 one meaning: through the last turn", () => {
    const all = { ok: true, range: { from: 0, to: 9 } };
    expect(resolveRange({ to: parseCliBound("-1", "--to") }, facts(10))).toEqual(all);
    expect(resolveRange(turnSelector("..-1"), facts(10))).toEqual(all);
    expect(resolveRange({ to: parseSpec("r:..-1").range!.to! }, facts(10))).toEqual(all);
    // ..-3 ends at the third turn from the end, everywhere.
    const upToThird = { ok: true, range: { from: 0, to: 7 } };
    expect(resolveRange(turnSelector("..-3"), facts(10))).toEqual(upToThird);
    expect(resolveRange({ to: parseSpec("r:..-3").range!.to! }, facts(10))).toEqual(upToThird);
    // Only the lone shorthand -N is a count: r:-3 keeps the last three.
    expect(resolveRange(parseSpec("r:-3").range!, facts(10))).toEqual({
      ok: true,
      range: { from: 0, to: 6 },
    });
  });

  it("selects the same start with --from -N as with --last N", () => {
    expect(resolveRange({ from: parseCliBound("-4", "--from") }, facts(10))).toEqual(
      resolveRange(lastTurns("4"), facts(10)),
    );
  });

  it.each([
    ["0", "--from", "--from 0 is not a turn: turns are numbered from 1, and -1 is the last"],
    ["last-compaction", "--to", "--to does not take 'last-compaction'; only --from does"],
    ["yesterday", "--from", "--from 'yesterday' is not a turn position"],
  ] as const)("rejects %s for %s", (value, flag, message) => {
    expect(() => parseCliBound(value, flag)).toThrow(PositionSyntaxError);
    expect(() => parseCliBound(value, flag)).toThrow(message);
  });
});

describe("selectors", () => {
  it("--first N is turns 1..N, --last N the last N, --turn A..B inclusive", () => {
    expect(resolveRange(firstTurns("3"), facts(10))).toEqual({ ok: true, range: { from: 0, to: 2 } });
    expect(resolveRange(lastTurns("3"), facts(10))).toEqual({ ok: true, range: { from: 7, to: 9 } });
    expect(resolveRange(turnSelector("2..5"), facts(10))).toEqual({ ok: true, range: { from: 1, to: 4 } });
    expect(resolveRange(turnSelector("4"), facts(10))).toEqual({ ok: true, range: { from: 3, to: 3 } });
    expect(resolveRange(turnSelector("..-2"), facts(10))).toEqual({ ok: true, range: { from: 0, to: 8 } });
  });

  it("rejects zero and malformed values", () => {
    expect(() => firstTurns("0")).toThrow("--first takes a positive number of turns, got '0'");
    expect(() => lastTurns("x")).toThrow("--last takes a positive number of turns, got 'x'");
    expect(() => turnSelector("0..3")).toThrow("--turn '0..3' is not a turn or range");
    expect(() => turnSelector("5..2")).toThrow("--turn '5..2' starts after it ends");
  });
});
