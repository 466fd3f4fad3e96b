// `print` of an answer cut short says so below it, as the log records it:
// stopped at the terminal (Ctrl-C), its stream failed, or its output limit
// reached. An answer the model ended says nothing more.
import { expect, it } from "vitest";
import { isKind, type Event, type JsonObject } from "../../../../src/events/index.js";
import { workspaceWith } from "../../../support/conversation.js";
import { turn } from "../../../support/stream.js";

/** A turn whose answer's last event carries `metadata` (as the turn loop records a cut one). */
function answered(request: string, message: string, metadata: JsonObject = {}): Event[] {
  const events = turn({ request, message });
  const last = events.at(-1);
  if (!last || !isKind(last, "chat_response")) throw new Error("a turn ends with its answer");
  last.metadata = { model: "anthropic/claude-mock", ...metadata };
  return events;
}

it("marks each cut answer with why it was cut, and no whole one", async () => {
  const f = workspaceWith([
    ...answered("one", "stopped while", { interrupted: true }),
    ...answered("two", "a stream that", { stream_failed: "the connection closed" }),
    ...answered("three", "an answer at its", { stop_reason: "max_tokens" }),
    ...answered("four", "a whole answer.", { stop_reason: "end" }),
  ]);
  const printed = (await f.run("conversation", "print")).stdout;
  expect(printed).toContain("  stopped while\n  ✂ cut: stopped (Ctrl-C) before the answer was complete");
  expect(printed).toContain("  a stream that\n  ✂ cut: its stream failed (the connection closed)");
  expect(printed).toContain("  an answer at its\n  ✂ cut: the answer reached its output limit (max_tokens)");
  expect(printed.match(/✂/g)).toHaveLength(3);
});
