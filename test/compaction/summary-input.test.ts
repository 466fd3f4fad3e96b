import { describe, expect, it } from "vitest";
import { fitSummaryInput } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { transcript } from "../../src/llm/summarize.js";
import { parserSession } from "../support/parser-session.js";

const measure = (events: readonly Event[]) => transcript(events).length;

describe("fitSummaryInput", () => {
  const session = parserSession();
  const whole = measure(session);

  it("leaves an input that fits as it is, and says nothing", () => {
    expect(fitSummaryInput(session, whole, measure)).toEqual({ parts: [session], steps: [] });
  });

  it("cuts long tool outputs to their head and tail first, and says so", () => {
    const fitted = fitSummaryInput(session, Math.floor(whole / 2), measure);
    expect(fitted.parts).toHaveLength(1);
    expect(measure(fitted.parts[0]!)).toBeLessThanOrEqual(whole / 2);
    expect(fitted.steps).toEqual([expect.stringMatching(/^cut \d+ long tool outputs and arguments/)]);
    // The user's words are whole.
    const asked = (events: readonly Event[]) => events.filter((e) => e.type === "chat_request");
    expect(asked(fitted.parts[0]!)).toEqual(asked(session));
  });

  it("then splits into parts of whole turns that each fit, in order, losing no turn", () => {
    const max = 9_000;
    const fitted = fitSummaryInput(session, max, measure);
    expect(fitted.parts.length).toBeGreaterThan(1);
    for (const part of fitted.parts) expect(measure(part)).toBeLessThanOrEqual(max);
    expect(fitted.steps[1]).toBe(
      `summarized in ${fitted.parts.length} parts of whole turns, then the parts' summaries together`,
    );
    const questions = fitted.parts.flat().filter((e) => e.type === "chat_request");
    expect(questions).toEqual(session.filter((e) => e.type === "chat_request"));
  });
});

describe("the summarizer's transcript", () => {
  it("never carries the model's reasoning as text", () => {
    const text = transcript(session());
    expect(text).not.toMatch(/thinking/i);
    expect(text).not.toContain("Read the parser and its tokenizer first.");
    expect(text).toContain("ASSISTANT: The splitter ignores quote state.");
  });
  function session(): Event[] {
    return parserSession();
  }
});
