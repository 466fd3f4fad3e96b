// Test helpers: a working session of three turns fixing a parser, with the
// facts a compaction must not take from the model planted in it (rules, paths,
// commands, error codes, a URL, dates), and the long tool outputs such a
// session reads. What the record of the work is held to.
import type { Event } from "../../src/events/index.js";

/** The facts planted in the session, each of which the next request must hold verbatim. */
export const PLANTED_FACTS = [
  // rules the user set
  "never change the public signature of parseLine",
  "always run `npm test -- parser` before you say it works",
  "Refs: JP-4411",
  // paths
  "src/parser/line.ts",
  "src/parser/tokens.ts",
  "test/parser/line.test.ts",
  "docs/grammar.md",
  // commands
  "npm test -- parser",
  "node scripts/smoke.js fixtures/big.csv",
  // error codes
  "ERR_4711",
  "TypeError",
  // a URL and dates
  "https://spec.example.org/csv/rfc4180#section-2",
  "2026-12-18",
  "JP-4411",
] as const;

/** Lines of a long file or test log, so the session is the size a real one is. */
function bulk(label: string, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `${label} ${i + 1}: const field${i} = tokens[${i}] ?? defaultValue; // keeps column ${i}`,
  ).join("\n");
}

/** The session's events: three turns, then nothing in progress. `at` stamps them from a base time. */
export function parserSession(base = Date.parse("2026-12-01T09:00:00Z")): Event[] {
  let tick = 0;
  const timestamp = () => new Date(base + tick++ * 1000).toISOString();
  const call = (
    id: string,
    name: string,
    args: Record<string, unknown>,
    content: string,
    isError = false,
  ) => [
    { type: "tool_call_request" as const, timestamp: timestamp(), id, name, arguments: args },
    { type: "tool_call_response" as const, timestamp: timestamp(), id, content, is_error: isError },
  ];
  return [
    { type: "turn_start", timestamp: timestamp() },
    {
      type: "chat_request",
      timestamp: timestamp(),
      content:
        "The CSV parser drops quoted fields that hold a comma. Fix it in src/parser/line.ts. " +
        "Rules for this work: never change the public signature of parseLine. " +
        "You must always run `npm test -- parser` before you say it works. " +
        "Every commit needs the trailer Refs: JP-4411. " +
        "The grammar is https://spec.example.org/csv/rfc4180#section-2 and the fix is due 2026-12-18.",
    },
    { type: "chat_response", timestamp: timestamp(), reasoning: "Read the parser and its tokenizer first." },
    ...call("call_1", "read_file", { path: "src/parser/line.ts" }, bulk("line.ts", 120)),
    ...call("call_2", "read_file", { path: "src/parser/tokens.ts" }, bulk("tokens.ts", 90)),
    ...call("call_3", "read_file", { path: "docs/grammar.md" }, bulk("grammar", 60)),
    {
      type: "chat_response",
      timestamp: timestamp(),
      message: "The splitter ignores quote state. I will track inQuotes while scanning.",
    },
    { type: "turn_start", timestamp: timestamp() },
    {
      type: "chat_request",
      timestamp: timestamp(),
      content: "Go ahead and make the change, then run the tests.",
    },
    ...call(
      "call_4",
      "write_file",
      { path: "src/parser/line.ts", content: bulk("new line.ts", 110) },
      "wrote 110 lines",
    ),
    ...call(
      "call_5",
      "run_command",
      { command: "npm test -- parser" },
      `${bulk("test log", 80)}\nFAIL test/parser/line.test.ts\n  ERR_4711: unterminated quote at column 14\nTests: 1 failed, 23 passed`,
      true,
    ),
    ...call(
      "call_6",
      "write_file",
      { path: "src/parser/line.ts", content: bulk("fixed line.ts", 110) },
      "wrote 110 lines",
    ),
    ...call(
      "call_7",
      "run_command",
      { command: "npm test -- parser" },
      `${bulk("test log", 80)}\nTests: 24 passed`,
    ),
    { type: "chat_response", timestamp: timestamp(), message: "The parser tests pass now." },
    { type: "turn_start", timestamp: timestamp() },
    { type: "chat_request", timestamp: timestamp(), content: "Try it on the big file." },
    ...call(
      "call_8",
      "run_command",
      { command: "node scripts/smoke.js fixtures/big.csv" },
      `${bulk("smoke", 40)}\nTypeError: Cannot read properties of undefined (reading 'trim')\n    at parseLine (src/parser/line.ts:88:21)`,
      true,
    ),
    {
      type: "chat_response",
      timestamp: timestamp(),
      message: "The smoke run still fails on the big file; the TypeError is not fixed yet.",
    },
  ];
}
