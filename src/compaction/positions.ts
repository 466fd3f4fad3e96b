// Owns the CLI's turn-position grammar: `--from`, `--to`, `--turn`, `--first`,
// `--last`. Positions are 1-based; `-1` is the last turn; a range `A..B` is
// inclusive, as in the rule language (rules.ts).
import { parseDuration, resolveBound, resolveEnd, type RangeBound, type StreamFacts } from "./bounds.js";
import { PositionSyntaxError } from "./errors.js";

export interface Window {
  from?: RangeBound;
  to?: RangeBound;
}

/**
 * A turn in a range, the one grammar of `--from`, `--to`, `--turn`, `print
 * --turn` and `-k` ranges: `N` is turn N (1-based), `-N` the Nth from the end
 * (-1 the last). Undefined for anything else, 0 included.
 */
export function turnBound(text: string): RangeBound | undefined {
  const m = /^(-?)(\d+)$/.exec(text.trim());
  if (!m || Number(m[2]) === 0) return undefined;
  const n = Number(m[2]);
  return m[1] ? { kind: "from_end", offset: n - 1 } : { kind: "absolute", index: n - 1 };
}

/** `--from B` / `--to B`: `N` (1-based), `-N` (-1 is the last turn), a duration, or (for --from) `last-compaction`. */
export function parseCliBound(value: string, flag: "--from" | "--to"): RangeBound {
  const text = value.trim();
  const turn = turnBound(text);
  if (turn) return turn;
  if (/^-?0+$/.test(text))
    throw new PositionSyntaxError(`${flag} 0 is not a turn: turns are numbered from 1, and -1 is the last`);
  if (text === "last-compaction" || text === "last") {
    if (flag === "--to") throw new PositionSyntaxError(`--to does not take '${text}'; only --from does`);
    return { kind: "last_compaction" };
  }
  const ms = parseDuration(text);
  if (ms !== undefined) return { kind: "ago", ms };
  throw new PositionSyntaxError(
    `${flag} '${value}' is not a turn position`,
    "use a turn number (3), a position from the end (-1 is the last turn), a duration (5h, 2days) or last-compaction",
  );
}

function positiveCount(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) === 0) {
    throw new PositionSyntaxError(`${flag} takes a positive number of turns, got '${value}'`);
  }
  return Number(value);
}

/** `--first N`: turns 1..N. */
export function firstTurns(value: string): Window {
  const n = positiveCount(value, "--first");
  return { from: { kind: "absolute", index: 0 }, to: { kind: "absolute", index: n - 1 } };
}

/** `--last N`: the last N turns. */
export function lastTurns(value: string): Window {
  const n = positiveCount(value, "--last");
  return { from: { kind: "from_end", offset: n - 1 } };
}

/** `--turn N` or `--turn A..B` (inclusive, 1-based; either end may be omitted). */
export function turnSelector(value: string): Window {
  const text = value.trim();
  const parts = text.split("..");
  const one = (part: string): RangeBound => {
    const turn = turnBound(part);
    if (!turn)
      throw new PositionSyntaxError(
        `--turn '${value}' is not a turn or range`,
        "use --turn 3, --turn 2..5, --turn 4.. or --turn ..-2",
      );
    return turn;
  };
  if (parts.length === 1) {
    const bound = one(text);
    return { from: bound, to: bound };
  }
  if (parts.length !== 2) throw new PositionSyntaxError(`--turn '${value}' has more than one '..'`);
  const window: Window = {};
  if (parts[0]) window.from = one(parts[0]);
  if (parts[1]) window.to = one(parts[1]);
  if (
    window.from?.kind === "absolute" &&
    window.to?.kind === "absolute" &&
    window.from.index > window.to.index
  ) {
    throw new PositionSyntaxError(`--turn '${value}' starts after it ends`);
  }
  return window;
}

/** A turn position as the user wrote it: 3, or -2 from the end. */
function shown(bound: RangeBound): string | undefined {
  if (bound.kind === "absolute") return String(bound.index + 1);
  if (bound.kind === "from_end") return String(-(bound.offset + 1));
  return undefined;
}

/**
 * What is wrong with a window the user chose explicitly (`--turn`,
 * `--from/--to`), against one conversation: a turn it does not have, or a
 * start after the end. Every command that takes a window says the same, and
 * none cuts a range silently. `--first N`/`--last N` are counts, "at most N".
 */
export function windowProblem(window: Window, facts: StreamFacts, flags: string): string | undefined {
  const count = facts.turnCount;
  if (count === 0) return "the conversation has no turns yet";
  for (const bound of [window.from, window.to]) {
    if (!bound) continue;
    const at = resolveBound(bound, facts);
    const written = shown(bound);
    if (written !== undefined && (at < 0 || at >= count))
      return `${flags}: there is no turn ${written}; the conversation has ${count === 1 ? "1 turn" : `turns 1–${count} (or -1 to -${count})`}`;
  }
  const from = window.from ? resolveBound(window.from, facts) : 0;
  const to = window.to ? resolveEnd(window.to, facts) : count - 1;
  if (from > Math.min(to, count - 1))
    return from >= count
      ? `${flags}: no turn starts in that range (the last turn, ${count}, is before it)`
      : `${flags}: the range starts at turn ${from + 1}, after it ends at turn ${to + 1}`;
  return undefined;
}
