// The compact tool's own checks: malformed calls come back to the model with the fix.
import * as fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { PromptInterruptedError } from "../../src/tools/prompter.js";
import { COMPACT_PARAMETERS, createCompactTool } from "../../src/tools/compact.js";
import { createTokenCounter } from "../../src/tokens/count.js";
import type { ToolContext } from "../../src/tools/types.js";
import { resetClock, turns } from "../support/stream.js";
import { droppedText, renderCompactPreview } from "../../src/render/compact-preview.js";
import { anyNumber, anyString, objectContaining } from "../support/matchers.js";
import { lostReasoning } from "../../src/llm/reasoning-binding.js";

beforeEach(resetClock);

// Fresh ids on every call, as jp's own are: the ids shown in a preview must be the ids recorded.
let lastId = 0;
const tool = createCompactTool({
  preview: { render: renderCompactPreview, dropped: droppedText },
  now: () => new Date("2026-06-01T00:00:00Z"),
  newId: () => `k${++lastId}`,
  hints: {},
  counter: () => createTokenCounter("openai/gpt-4.1", "chars"),
  frame: () => Promise.resolve({ tools: [], capOf: () => Number.MAX_SAFE_INTEGER }),
  lostReasoning,
  conversationId: "c1",
});
const ctx = (): ToolContext => ({
  events: turns(4),
  cwd: "/",
  signal: new AbortController().signal,
  turn: 3,
});

describe("compact tool", () => {
  it("is explicit, asks by default, and describes how to quote", () => {
    expect(tool.enable).toEqual({ state: false, allowToggle: "if_named" });
    expect(tool.run).toBe("ask");
    expect(tool.description).toContain("verbatim");
    expect(tool.description).toContain("take effect when the next turn starts");
  });

  it.each([
    [{}, "invalid compact call at rules: "],
    [{ rules: [] }, "invalid compact call at rules: "],
    [
      { rules: [{ summary: "S" }] },
      "invalid compact call at rules[0].note: note is required: say in one sentence why.",
    ],
    [
      { rules: [{ note: "n", summary: "S", when: "now" }] },
      "invalid compact call at rules[0]: unknown field when; a rule accepts keep_first",
    ],
    [{ rules: [{ note: "n", tool_calls: "shred" }] }, "invalid compact call at rules[0].tool_calls"],
    [
      { rules: [{ note: "n", summary: "S", tool_calls: "strip" }] },
      "a summary replaces its turns whole, so tool_calls would do nothing there; drop tool_calls, or give it a rule of its own for other turns",
    ],
  ])("rejects %j with a fix", (args, message) => {
    expect(tool.validate!(args as Record<string, unknown>, ctx())).toContain(message);
  });

  it("returns deferred compactions as host effects, with token figures, and tells the model when they apply", async () => {
    const outcome = await tool.execute(
      { rules: [{ keep_first: 1, summary: "Two turns of setup.", note: "setup is done" }] },
      ctx(),
    );
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toBe(
      "Recorded 1 compaction; they take effect when the next turn starts: turns 2–3 replaced by your summary.",
    );
    expect(outcome.effects).toEqual([
      objectContaining({
        type: "compaction",
        from_turn: 1,
        to_turn: 2,
        deferred_until_turn: 4,
        source: "assistant",
        stats: { tokens_before: anyNumber, tokens_after: anyNumber },
      }),
    ]);
  });
});

describe("a pin in a compact call", () => {
  it("is recorded first, takes effect at once, and the rule's range goes around it", async () => {
    const outcome = await tool.execute(
      { rules: [{ pin_quote: "t2", summary: "Setup.", note: "t2 holds the task" }] },
      ctx(),
    );
    expect(outcome.isError).toBe(false);
    expect(outcome.content).toBe(
      "Pinned turn 2: no compaction changes it. Recorded 1 compaction; they take effect when the next turn starts: turns 1–3 replaced by your summary.",
    );
    expect(outcome.effects).toEqual([
      {
        type: "pin",
        timestamp: anyString,
        turn: 1,
        pinned: true,
        source: "assistant",
        note: "t2 holds the task",
      },
      objectContaining({ type: "compaction", from_turn: 0, to_turn: 2 }),
    ]);
  });

  it("is named in the preview with the turn's opening words", () => {
    const preview = renderCompactPreview(turns(3), [], [1]);
    expect(preview).toContain("compact — 1 pin proposed");
    expect(preview).toContain('pin turn 2: no compaction changes it ("t2")');
  });
});

describe("spill files", () => {
  const prompter = (answers: string[]) => ({
    interactive: true,
    say: () => undefined,
    choose: () => Promise.resolve(answers.shift()!),
    editText: (text: string) => Promise.resolve(text),
  });
  const spillOf = (text: string) => /dropped +(\S+\.md)/.exec(text)![1]!;
  const args = { rules: [{ keep_last: 1, summary: "S", note: "done" }] };

  it("an edit left without a change (or with an editor error) goes back to the prompt, the rules as they were", async () => {
    const shown: string[] = [];
    const p = {
      ...prompter(["e", "y"]),
      say: (t: string) => void shown.push(t),
      editText: () => Promise.resolve(undefined),
    };
    expect(await tool.approve!(args, ctx(), p as never)).toEqual({ run: true, args });
    expect(shown).toContain("edit cancelled; the rules are as they were");
  });

  it("a summary the user changed with e is recorded as the assistant's, edited by the user; one left alone is not", async () => {
    const changed = { rules: [{ keep_last: 1, summary: "S, as I put it", note: "done" }] };
    const p = { ...prompter(["e", "y"]), editText: () => Promise.resolve(JSON.stringify(changed)) };
    const approval = await tool.approve!(args, ctx(), p as never);
    expect(approval).toEqual({ run: true, args: changed });
    const outcome = await tool.execute(changed, ctx());
    expect(outcome.effects).toEqual([
      objectContaining({
        summary: { text: "S, as I put it", source: "supplied", author: "assistant", edited_by: "user" },
      }),
    ]);
    const untouched = await tool.execute(args, ctx());
    expect(untouched.effects).toEqual([
      objectContaining({ summary: { text: "S", source: "supplied", author: "assistant" } }),
    ]);
  });

  it("are deleted when the prompt is left with Ctrl-C", async () => {
    const shown: string[] = [];
    const p = {
      ...prompter([]),
      say: (t: string) => void shown.push(t),
      choose: () => Promise.reject(new PromptInterruptedError()),
    };
    await expect(tool.approve!(args, ctx(), p as never)).rejects.toThrow(PromptInterruptedError);
    expect(fs.existsSync(spillOf(shown.join("\n")))).toBe(false);
  });

  it("are deleted when the compaction is declined with a reason, which the assistant receives", async () => {
    const shown: string[] = [];
    const p = {
      ...prompter(["r"]),
      say: (t: string) => void shown.push(t),
      ask: () => Promise.resolve("keep turn 2, it has the schema"),
    };
    expect(await tool.approve!(args, ctx(), p as never)).toEqual({
      run: false,
      reason:
        "the user declined the proposed compaction: keep turn 2, it has the schema; nothing was recorded",
    });
    expect(fs.existsSync(spillOf(shown.join("\n")))).toBe(false);
  });

  it("are deleted when the compaction is declined", async () => {
    const shown: string[] = [];
    const p = { ...prompter(["n"]), say: (t: string) => void shown.push(t) };
    const approval = await tool.approve!(args, ctx(), p as never);
    expect(approval).toMatchObject({ run: false });
    const spill = spillOf(shown.join("\n"));
    expect(fs.existsSync(spill)).toBe(false);
  });

  it("are kept when approved, and their path is recorded on the compaction", async () => {
    const shown: string[] = [];
    const p = { ...prompter(["y"]), say: (t: string) => void shown.push(t) };
    expect(await tool.approve!(args, ctx(), p as never)).toMatchObject({ run: true });
    const spill = spillOf(shown.join("\n"));
    const outcome = await tool.execute(args, ctx());
    expect(fs.existsSync(spill)).toBe(true);
    expect(outcome.effects?.[0]).toMatchObject({ type: "compaction", metadata: { spill_file: spill } });
    fs.rmSync(spill);
  });
});

describe("the compact tool's argument schema", () => {
  it("sends the model the JSON Schema of the arguments it validates", () => {
    const schema = COMPACT_PARAMETERS as {
      $schema?: string;
      required: string[];
      properties: {
        rules: {
          minItems: number;
          items: { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
        };
      };
    };
    expect(schema.$schema).toBeUndefined();
    expect(schema.required).toEqual(["rules"]);
    const rule = schema.properties.rules.items;
    expect(schema.properties.rules.minItems).toBe(1);
    expect(Object.keys(rule.properties)).toEqual([
      "keep_first",
      "keep_last",
      "before_quote",
      "after_quote",
      "reasoning",
      "tool_calls",
      "summary",
      "pin_quote",
      "note",
    ]);
    expect(rule.required).toEqual(["note"]);
    expect(rule.additionalProperties).toBe(false);
    expect(rule.properties.tool_calls).toMatchObject({
      enum: ["strip", "strip-requests", "strip-responses", "omit"],
    });
  });
});
