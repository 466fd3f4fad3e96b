// fast-check generators: random well-formed streams with random stacks of
// compactions, resets and deferrals.
import fc from "fast-check";
import { UnknownEvent, type Compaction, type Event, type ToolPolicy } from "../../src/events/index.js";

const TOOL_NAMES = ["grep", "read", "write", "search"];
const at = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();

const toolPolicy: fc.Arbitrary<ToolPolicy> = fc.oneof(
  fc.record({ policy: fc.constant("strip" as const), request: fc.boolean(), response: fc.boolean() }),
  fc.constant({ policy: "omit" as const }),
);

const turnShape = fc.record({
  reasoning: fc.boolean(),
  tools: fc.array(fc.record({ name: fc.constantFrom(...TOOL_NAMES), error: fc.boolean() }), { maxLength: 4 }),
  message: fc.boolean(),
  globalAfter: fc.constantFrom("none", "none", "config_delta", "unknown"),
});

/** A well-formed stream: every turn has a request, every tool call its response. */
export const rawStream = fc
  .tuple(fc.array(turnShape, { minLength: 1, maxLength: 10 }), fc.boolean())
  .map(([shapes, implicitFirst]) => {
    const events: Event[] = [];
    let clock = 0;
    let callId = 0;
    shapes.forEach((shape, t) => {
      if (!(t === 0 && implicitFirst)) events.push({ type: "turn_start", timestamp: at(clock++) });
      events.push({ type: "chat_request", timestamp: at(clock++), content: `request ${t}` });
      if (shape.reasoning)
        events.push({ type: "chat_response", timestamp: at(clock++), reasoning: `thinking ${t}` });
      for (const tool of shape.tools) {
        const id = `call_${callId++}`;
        events.push({
          type: "tool_call_request",
          timestamp: at(clock++),
          id,
          name: tool.name,
          arguments: { t },
        });
        events.push({
          type: "tool_call_response",
          timestamp: at(clock++),
          id,
          content: `result ${id}`,
          is_error: tool.error,
        });
      }
      if (shape.message)
        events.push({ type: "chat_response", timestamp: at(clock++), message: `message ${t}` });
      if (shape.globalAfter === "config_delta")
        events.push({ type: "config_delta", timestamp: at(clock++), delta: { t } });
      if (shape.globalAfter === "unknown")
        events.push(new UnknownEvent({ type: "x_future", timestamp: at(clock++), t }));
    });
    return { events, turnCount: shapes.length };
  });

const overlay = (turnCount: number, toolIds: string[]) =>
  fc.oneof(
    fc
      .record({
        from: fc.nat({ max: turnCount + 1 }),
        length: fc.nat({ max: turnCount + 1 }),
        time: fc.nat({ max: 20 }),
        summary: fc.option(
          fc.record({
            text: fc.constantFrom("S1", "S2", "same"),
            source: fc.constantFrom("derived" as const, "supplied" as const),
          }),
          { nil: undefined },
        ),
        reasoning: fc.option(fc.constant("strip" as const), { nil: undefined }),
        tool_calls: fc.option(toolPolicy, { nil: undefined }),
        overrides: fc.option(fc.dictionary(fc.constantFrom(...TOOL_NAMES), toolPolicy, { maxKeys: 2 }), {
          nil: undefined,
        }),
        deferred: fc.option(fc.nat({ max: turnCount + 2 }), { nil: undefined }),
        toCall: fc.option(fc.constantFrom(...(toolIds.length ? toolIds : ["none"])), { nil: undefined }),
      })
      .map((r) => ({ kind: "compaction" as const, ...r })),
    fc.record({
      kind: fc.constant("reset" as const),
      all: fc.boolean(),
      pick: fc.array(fc.nat({ max: 12 }), { maxLength: 3 }),
      time: fc.nat({ max: 20 }),
    }),
    fc.record({
      kind: fc.constant("pin" as const),
      turn: fc.nat({ max: turnCount }),
      pinned: fc.boolean(),
      time: fc.nat({ max: 20 }),
    }),
  );

/** A raw stream with a random stack of compactions and resets inserted at random places. */
export const compactedStream = rawStream.chain(({ events, turnCount }) => {
  const toolIds = events.filter((e) => e.type === "tool_call_request").map((e) => e.id);
  return fc
    .array(fc.tuple(overlay(turnCount, toolIds), fc.nat({ max: events.length })), { maxLength: 8 })
    .map((overlays) => {
      const out = [...events];
      const ids: string[] = [];
      overlays.forEach(([o, position], i) => {
        let entry: Event;
        if (o.kind === "compaction") {
          const c: Compaction = {
            type: "compaction",
            timestamp: at(1000 + o.time),
            id: `k${i}`,
            from_turn: o.from,
            to_turn: o.from + o.length,
            source: "user",
          };
          if (o.summary) c.summary = o.summary;
          if (o.reasoning) c.reasoning = o.reasoning;
          if (o.tool_calls) c.tool_calls = o.tool_calls;
          if (o.overrides && Object.keys(o.overrides).length) c.tool_overrides = o.overrides;
          if (o.deferred !== undefined) c.deferred_until_turn = o.deferred;
          if (o.toCall !== undefined && o.toCall !== "none") c.to_call = o.toCall;
          ids.push(c.id);
          entry = c;
        } else if (o.kind === "pin") {
          entry = { type: "pin", timestamp: at(1000 + o.time), turn: o.turn, pinned: o.pinned };
        } else {
          entry = o.all
            ? { type: "compaction_reset", timestamp: at(1000 + o.time) }
            : { type: "compaction_reset", timestamp: at(1000 + o.time), ids: o.pick.map((n) => `k${n}`) };
        }
        // Overlays go between turns or at the end, never inside a tool pair.
        let p = Math.min(position, out.length);
        while (p < out.length && out[p - 1]?.type === "tool_call_request") p++;
        out.splice(p, 0, entry);
      });
      return { events: out, turnCount };
    });
});
