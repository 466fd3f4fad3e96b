// A stream that fails partway, through the real bin/jp: what arrived is kept
// in the log, marked as cut, as an interrupted answer is, and `--retry` asks
// the question again.
import { afterEach, describe, expect, it } from "vitest";
import { STREAM_FAILED_KEY } from "../../src/events/index.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

type Message = { role: string; content: { type: string; text?: string }[] };

describe("a stream cut after its first words", () => {
  it("keeps them in the log, marked as cut; --retry asks again, once", async () => {
    // No retries: the first attempt's words are what arrived.
    w = await qWorkspace({ request: "max_retries = 0\n" });
    // message_start, the text block's start, then two deltas of 10 characters: the connection drops.
    w.mock.push({
      text: "The first words of an answer that never ends.",
      text_piece: 10,
      fault: { cut_after_events: 4 },
    });
    const cut = await w.jp("q", "Explain the parser.");
    expect(cut.code).toBe(1);
    expect(cut.stderr).toContain("was cut off before it was complete");
    expect(cut.stderr).toContain("what arrived is kept in the log, marked as cut");
    const kept = w.events().find((e) => e.type === "chat_response")!;
    expect(kept).toMatchObject({ message: "The first words of a" });
    expect((kept as { metadata: Record<string, unknown> }).metadata[STREAM_FAILED_KEY]).toMatch(/cut off/);
    expect(w.events().some((e) => e.type === "request_failed")).toBe(true);

    w.mock.push({ text: "The whole answer." });
    const retried = await w.jp("q", "--retry");
    expect(retried.stderr).not.toMatch(/error/);
    expect(retried.code).toBe(0);
    // The question was asked again, after what arrived the first time.
    const messages = (w.mock.requests.at(-1)!.body as { messages: Message[] }).messages;
    const texts = messages.flatMap((m) => m.content.map((b) => `${m.role}: ${b.text ?? ""}`));
    expect(texts).toEqual([
      "user: Explain the parser.",
      "assistant: The first words of a",
      "user: Explain the parser.",
    ]);
    const again = await w.jp("q", "--retry");
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("--retry asks once");
  });
});
