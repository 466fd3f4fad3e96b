// bench/auto: planning and projecting an auto compaction on a 200-turn,
// 2,000-tool-call conversation, versus projecting it once, in the same run.
import { earlierTurnsRange, planCurrentTurnStrip, planRule, project } from "../dist/compaction/index.js";
import { createTokenCounter } from "../dist/tokens/count.js";
import { compare, rng } from "./lib.js";

function conversation() {
  const random = rng(5);
  const events = [];
  let t = Date.UTC(2026, 0, 1);
  const ts = () => new Date((t += 1000)).toISOString();
  const words = (n) => Array.from({ length: n }, () => Math.floor(random() * 1e6).toString(36)).join(" ");
  for (let turn = 0; turn < 200; turn++) {
    events.push(
      { type: "turn_start", timestamp: ts() },
      { type: "chat_request", timestamp: ts(), content: words(30) },
    );
    for (let c = 0; c < 10; c++) {
      const id = `call_${turn}_${c}`;
      events.push({
        type: "tool_call_request",
        timestamp: ts(),
        id,
        name: "read",
        arguments: { path: `f${c}` },
      });
      events.push({ type: "tool_call_response", timestamp: ts(), id, is_error: false, content: words(150) });
    }
    events.push({ type: "chat_response", timestamp: ts(), message: words(40) });
  }
  return events;
}

export async function autoBench() {
  const events = conversation();
  const counter = await createTokenCounter("openai/gpt-4.1");
  const measure = (evs) => counter.events(project(evs).events);
  const total = measure(events);
  const budget = Math.floor(total / 3);
  const plan = () => {
    const range = earlierTurnsRange(events);
    const whole = planRule(
      events,
      {
        reasoning: "strip",
        tool_calls: { policy: "strip", request: true, response: true },
        from: { kind: "absolute", index: range.from },
        to: { kind: "absolute", index: range.to },
      },
      { id: "a1", timestamp: "2027-01-01T00:00:00Z", now: 0, source: "auto" },
    );
    const next = [...events, whole.compaction];
    const strip = planCurrentTurnStrip(next, {
      budget,
      keepTail: 500,
      measure,
      tokens: (evs) => counter.events(evs),
      id: "a2",
      timestamp: "2027-01-01T00:00:01Z",
    });
    return project(strip ? [...next, strip] : next);
  };
  plan();
  const { a, b } = compare(plan, () => project(events), 9);
  return {
    name: "auto",
    ratio: a / b,
    limit: 20,
    detail: `plan + project an auto compaction ${a.toFixed(1)} ms vs project once ${b.toFixed(1)} ms (200 turns, 2,000 tool calls, ${total.toLocaleString("en-US")} tokens, budget ${budget.toLocaleString("en-US")})`,
  };
}
