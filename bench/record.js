// bench/record: projecting a 1,000-turn working log under a summary of all
// but its last turn, with the record of the work of those turns (read from
// every question, tool call and output, then rendered), versus projecting
// the same log uncompacted and writing it out as a request body would be
// (what the record stands in for), in the same run.
import { isWorkRecord, project } from "../dist/compaction/index.js";
import { compare, rng } from "./lib.js";

function conversation(turns) {
  const random = rng(11);
  const events = [];
  let t = Date.UTC(2026, 0, 1);
  const ts = () => new Date((t += 1000)).toISOString();
  const words = (n) => Array.from({ length: n }, () => Math.floor(random() * 1e6).toString(36)).join(" ");
  const hex = (n) => Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");
  for (let turn = 0; turn < turns; turn++) {
    events.push(
      { type: "turn_start", timestamp: ts() },
      {
        type: "chat_request",
        timestamp: ts(),
        content: `Fix src/mod${turn}.rs. Never change the public API. See https://example.org/t/${turn}. ${words(20)}`,
      },
    );
    for (let c = 0; c < 4; c++) {
      const id = `call_${turn}_${c}`;
      const command = c % 2 === 0;
      events.push({
        type: "tool_call_request",
        timestamp: ts(),
        id,
        name: command ? "run_command" : "read_file",
        arguments: command ? { command: `cargo test -p mod${turn % 50}` } : { path: `src/mod${turn}.rs` },
      });
      const failed = command && random() < 0.3;
      events.push({
        type: "tool_call_response",
        timestamp: ts(),
        id,
        is_error: failed,
        content: `${words(120)}\n${hex(2000)}\n${failed ? `error[E0308]: mismatched types at src/mod${turn}.rs:12:5` : "test result: ok"}`,
      });
    }
    events.push({ type: "chat_response", timestamp: ts(), message: words(40) });
  }
  return events;
}

export function recordBench() {
  const turns = 1000;
  const events = conversation(turns);
  const summary = (record) => ({
    type: "compaction",
    timestamp: "2027-01-01T00:00:00.000Z",
    id: "k1",
    from_turn: 0,
    to_turn: turns - 2,
    summary: { text: "The work so far.", source: "supplied", author: "user" },
    ...(record ? {} : { record: false }),
    source: "user",
  });
  const withRecord = [...events, summary(true)];
  const without = [...events, summary(false)];
  const record = project(withRecord).events.find(isWorkRecord);
  if (!record) throw new Error("bench/record: no record of the work was made");
  const { a, b } = compare(
    () => project(withRecord),
    () => JSON.stringify(project(events).events),
    9,
  );
  const { a: off } = compare(
    () => project(without),
    () => undefined,
    3,
  );
  return {
    name: "record",
    ratio: a / b,
    limit: 4,
    detail: `project under a summary with the record ${a.toFixed(1)} ms (without it ${off.toFixed(1)} ms) vs the uncompacted request projected and serialized ${b.toFixed(1)} ms (1,000 turns, 4,000 tool calls, 12 MB of output; the record ${record.content.length.toLocaleString("en-US")} characters)`,
  };
}
