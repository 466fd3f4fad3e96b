// Exact undo: resetting any compaction — not only the last, with others
// stacked on it or overlapping it, automatic or by the compact tool, with
// turns after it — gives back the request that would be built without it,
// byte for byte: the projection, the request jp builds and the body on the
// wire. Where nothing but compactions came after it, resetting it and those
// gives back the very request sent before it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { project } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { anthropicRequest } from "../../src/llm/providers/anthropic/request.js";
import type { Tool } from "../../src/tools/types.js";
import { buildRequest } from "../../src/turn/request.js";
import type { TurnOptions } from "../../src/turn/types.js";
import { apply, BASES, op, Session, type Op } from "../support/compaction-sequences.js";
import { memoryLog, recordingOutput, scriptedPrompter, scriptedProvider } from "../support/doubles.js";

const RUN_COMMAND: Tool = {
  name: "run_command",
  description: "Run a shell command",
  parameters: { type: "object", properties: { command: { type: "string" } } },
  source: "local",
  run: "ask",
  enable: { state: true, allowToggle: "any" },
  // Never run: only its definition is sent.
  execute: () => Promise.reject(new Error("not run in this test")),
};

/** A turn's options: on a plain model, and on one whose reasoning is bound to its prefix (what goes back depends on the view). */
function options(preservedThinking: boolean): TurnOptions {
  return {
    log: memoryLog(),
    provider: scriptedProvider([]),
    modelId: "anthropic/claude-mock",
    modelName: "claude-mock",
    system: "You are a careful Rust reviewer.",
    maxTokens: 1000,
    maxRetries: 0,
    backoffMs: 0,
    tools: [RUN_COMMAND],
    prompter: scriptedPrompter(),
    output: recordingOutput(),
    now: () => new Date(0),
    cwd: "/",
    signal: new AbortController().signal,
    cache: { key: "conversation", ttl: "5m" },
    // Long outputs shown as head and tail (the sequences' results are 400 bytes).
    outputCap: () => 300,
    ...(preservedThinking ? { facts: { preservedThinking: true } } : {}),
  };
}

const PLAIN = options(false);
const BOUND = options(true);

/** Everything a request is, as text: the projection, and the wire body built from it on both kinds of model. */
function sent(events: readonly Event[]): string {
  return JSON.stringify([
    project(events).events,
    ...[PLAIN, BOUND].map((o) => anthropicRequest(buildRequest(events, o, false).request).body),
  ]);
}

let tick = 0;
const reset = (ids: string[]): Event => ({
  type: "compaction_reset",
  timestamp: new Date(Date.UTC(2031, 0, 1) + tick++ * 1000).toISOString(),
  ids,
});

/** What the compactions reset were: by whom, and what came after them. */
interface Coverage {
  bySource: Record<string, number>;
  turnsAfter: number;
  onlyCompactionsAfter: number;
}

/** Every compaction of the log, reset on its own and with all those after it, against the log without them. */
function checkUndo(events: readonly Event[], seen: Coverage): void {
  events.forEach((e, i) => {
    if (e.type !== "compaction") return;
    // Whatever came after it: the request as if it had never been made.
    expect(sent([...events, reset([e.id])])).toBe(sent(events.filter((x) => x !== e)));
    const after = events.slice(i + 1);
    seen.bySource[e.source] = (seen.bySource[e.source] ?? 0) + 1;
    if (after.some((x) => x.type === "turn_start")) seen.turnsAfter++;
    // Reset with every compaction stacked after it: the log without them all.
    const stacked = after.filter((x) => x.type === "compaction");
    const undone = sent([...events, reset([e.id, ...stacked.map((x) => x.id)])]);
    expect(undone).toBe(sent(events.filter((x, j) => j < i || (x.type !== "compaction" && j > i))));
    // Only compactions after it: that is the very request sent before it.
    if (after.length && stacked.length === after.length) {
      seen.onlyCompactionsAfter++;
      expect(undone).toBe(sent(events.slice(0, i)));
    }
  });
}

describe("exact undo", () => {
  it("holds for a summary widened by a later one, an automatic strip inside a turn and the compact tool's, each reset in the middle", () => {
    const s = new Session([...BASES.at(-1)!]);
    const ops: Op[] = [
      { kind: "user", from: 0, span: 1, policy: "summary" },
      { kind: "user", from: 1, span: 2, policy: "summary" },
      { kind: "user", from: 2, span: 4, policy: "strip" },
      { kind: "work" },
      { kind: "work" },
      { kind: "auto-strip" },
      { kind: "tool", keepLast: 1, span: 0 },
      { kind: "auto-turns" },
    ];
    ops.forEach((o, n) => {
      apply(s, o, n);
    });
    const made = s.events.filter((e) => e.type === "compaction");
    // Turns 1–2 summarized, widened to 1–4; 3–6 stripped over them; the first result of the turn in
    // progress stripped; the compact tool's summary of 1–6 (deferred); then 1–6 summarized automatically.
    expect(made.map((c) => [c.source, c.from_turn, c.to_turn, c.summary ? "summary" : "strip"])).toEqual([
      ["user", 0, 1, "summary"],
      ["user", 0, 3, "summary"],
      ["user", 2, 5, "strip"],
      ["auto", 6, 6, "strip"],
      ["assistant", 0, 5, "summary"],
      ["auto", 0, 5, "summary"],
    ]);
    const seen: Coverage = { bySource: {}, turnsAfter: 0, onlyCompactionsAfter: 0 };
    checkUndo(s.events, seen);
    expect(seen).toEqual({
      bySource: { user: 3, auto: 2, assistant: 1 },
      turnsAfter: 3,
      onlyCompactionsAfter: 2,
    });
  });

  it("resetting any compaction of a random sequence gives back the request without it, byte for byte", () => {
    const seen: Coverage = { bySource: {}, turnsAfter: 0, onlyCompactionsAfter: 0 };
    fc.assert(
      fc.property(fc.nat(BASES.length - 1), fc.array(op, { minLength: 2, maxLength: 8 }), (base, ops) => {
        const s = new Session([...BASES[base]!]);
        ops.forEach((o, n) => {
          apply(s, o, n);
        });
        checkUndo(s.events, seen);
      }),
      { numRuns: 60 },
    );
    // The sequences reset compactions of every source, with turns after them, and stacked ones.
    for (const source of ["user", "assistant", "auto"]) expect(seen.bySource[source]).toBeGreaterThan(10);
    expect(seen.turnsAfter).toBeGreaterThan(20);
  });
});
