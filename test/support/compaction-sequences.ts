// Random sequences of every way jp compacts (by the user, stacked and
// overlapping; automatic, of earlier turns and inside the turn in progress; by
// the compact tool; pins; resets), each planned by the planner that makes it
// in jp, on real conversations: what the property tests of compaction run.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import {
  earlierTurnsRange,
  planAssistantRules,
  planCurrentTurnStrip,
  planRule,
  project,
  type CompactionRule,
} from "../../src/compaction/index.js";
import { turnCount, type Compaction, type Event } from "../../src/events/index.js";
import { readLog } from "../../src/store/log.js";
import { convertJpConversation } from "../../src/store/import-jp.js";
import { parserSession } from "./parser-session.js";
import { REPO_ROOT } from "./workspace.js";

const INSTRUCTIONS: Event = {
  type: "config_delta",
  timestamp: "2026-01-01T00:00:00.000Z",
  delta: {
    assistant: {
      system_prompt: "You are a careful Rust reviewer.",
      instructions: [{ title: "Style", items: ["Never change a public signature."] }],
    },
  },
};

/** The conversations the sequences run on: real JP ones, the bundled sample, the parser session. */
function conversations(): Event[][] {
  const jp = path.join(REPO_ROOT, "fixtures/jp-conversations");
  const real = fs
    .readdirSync(jp)
    .filter((d) => fs.statSync(path.join(jp, d)).isDirectory())
    .flatMap((d) => {
      const c = convertJpConversation(path.join(jp, d));
      return "reason" in c ? [] : [c.events];
    });
  const sampleDir = path.join(REPO_ROOT, "fixtures/sample/.jp/conversations/17900000000-tidy-the-csv-parser");
  const sample = readLog(path.join(sampleDir, "events.jsonl")).events;
  return [...real, sample, parserSession()].map((events) => [INSTRUCTIONS, ...events]);
}

export const BASES = conversations();

export type Op =
  | { kind: "user"; from: number; span: number; policy: "summary" | "strip" }
  | { kind: "tool"; keepLast: number; span: number }
  | { kind: "auto-turns" }
  | { kind: "auto-strip" }
  | { kind: "work" }
  | { kind: "pin"; turn: number }
  | { kind: "reset"; newest: boolean };

export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("user" as const),
    from: fc.nat(40),
    span: fc.nat(6),
    policy: fc.constantFrom("summary" as const, "strip" as const),
  }),
  fc.record({ kind: fc.constant("tool" as const), keepLast: fc.nat(3), span: fc.nat(6) }),
  fc.constant({ kind: "auto-turns" as const }),
  fc.constant({ kind: "auto-strip" as const }),
  fc.constant({ kind: "work" as const }),
  fc.record({ kind: fc.constant("pin" as const), turn: fc.nat(40) }),
  fc.record({ kind: fc.constant("reset" as const), newest: fc.boolean() }),
);

/** A sequence's state: the log so far, and a clock for the events it appends. */
export class Session {
  private tick = 0;
  readonly question: string;

  constructor(public events: Event[]) {
    this.question = `What is left? (${events.length})`;
    this.ask(this.question);
  }

  stamp(): string {
    return new Date(Date.UTC(2030, 0, 1) + this.tick++ * 1000).toISOString();
  }

  /** A new turn in progress: the user's question. */
  ask(question: string): void {
    this.events.push(
      { type: "turn_start", timestamp: this.stamp() },
      { type: "chat_request", timestamp: this.stamp(), content: question },
    );
  }

  /** A tool call and its result in the turn in progress. */
  work(): void {
    const id = `call_w${this.tick}`;
    this.events.push(
      {
        type: "tool_call_request",
        timestamp: this.stamp(),
        id,
        name: "run_command",
        arguments: { command: "npm test" },
      },
      { type: "tool_call_response", timestamp: this.stamp(), id, content: "x".repeat(400), is_error: false },
    );
  }

  /** A compaction recorded now; resetting it at once must give back the request before it, byte for byte. */
  record(c: Compaction | undefined): void {
    if (!c) return;
    const before = JSON.stringify(project(this.events).events);
    const undone = [
      ...this.events,
      c,
      { type: "compaction_reset" as const, timestamp: this.stamp(), ids: [c.id] },
    ];
    expect(JSON.stringify(project(undone).events)).toBe(before);
    this.events.push(c);
  }
}

const planned = (
  events: readonly Event[],
  rule: CompactionRule,
  id: string,
  timestamp: string,
  source: "user" | "auto",
) => {
  const plan = planRule(events, rule, { id, timestamp, now: Date.parse(timestamp), source });
  if (plan.kind === "ready") return plan.compaction;
  if (plan.kind === "needs_summary") return plan.complete("A summary.", "test/model");
  return undefined;
};

export function apply(s: Session, o: Op, n: number): void {
  const turns = turnCount(s.events);
  const id = `k${n}`;
  switch (o.kind) {
    case "user": {
      // Made between turns (compact, q -k): the turn in progress is finished first, a new one asked after.
      s.events.push({ type: "chat_response", timestamp: s.stamp(), message: "Done for now." });
      const from = o.from % turns;
      const rule: CompactionRule = {
        from: { kind: "absolute", index: from },
        to: { kind: "absolute", index: Math.min(turns - 1, from + o.span) },
        ...(o.policy === "summary"
          ? { summary: { kind: "derive" } }
          : { reasoning: "strip", tool_calls: { policy: "strip", request: true, response: true } }),
      };
      s.record(planned(s.events, rule, id, s.stamp(), "user"));
      s.ask(`Next question ${n}`);
      return;
    }
    case "tool": {
      const plan = planAssistantRules(
        s.events,
        [{ keep_last: o.keepLast, summary: "Earlier work.", note: "tidy" }],
        { ids: [id], now: Date.parse(s.stamp()) },
      );
      if (plan.ok) for (const c of plan.compactions) s.record(c);
      return;
    }
    case "auto-turns": {
      const range = earlierTurnsRange(s.events);
      if (!range) return;
      const rule: CompactionRule = {
        from: { kind: "absolute", index: range.from },
        to: { kind: "absolute", index: range.to },
        summary: { kind: "derive" },
      };
      s.record(planned(s.events, rule, id, s.stamp(), "auto"));
      return;
    }
    case "auto-strip":
      s.record(
        planCurrentTurnStrip(s.events, {
          budget: 0,
          keepTail: 0,
          measure: (e) => JSON.stringify(e).length,
          tokens: (e) => JSON.stringify(e).length,
          id,
          timestamp: s.stamp(),
        }),
      );
      return;
    case "work":
      s.work();
      return;
    case "pin":
      s.events.push({
        type: "pin",
        timestamp: s.stamp(),
        turn: o.turn % turns,
        pinned: true,
        source: "user",
      });
      return;
    case "reset": {
      const ids = s.events.flatMap((e) => (e.type === "compaction" ? [e.id] : []));
      s.events.push({
        type: "compaction_reset",
        timestamp: s.stamp(),
        ...(o.newest && ids.length ? { ids: [ids.at(-1)!] } : {}),
      });
      return;
    }
  }
}
