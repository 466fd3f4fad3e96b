// The local server's on-demand compaction, held to its documented rules and
// error cases (compaction-rules.ts quotes each): it must refuse what the real
// API refuses, or the tests that use it prove nothing.
import { afterEach, describe, expect, it } from "vitest";
import { postMessages, startMockLlm, type MockLlm } from "./mock-llm.js";
import { COMPACTION_BETA } from "./preserved-thinking.js";

let mock: MockLlm | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

type Block = Record<string, unknown>;
const HISTORY = [
  { role: "user", content: [{ type: "text", text: "Name the entities." }] },
  { role: "assistant", content: [{ type: "text", text: "Recipe and Step." }] },
];

async function post(body: Record<string, unknown>, beta: string | undefined = COMPACTION_BETA) {
  return postMessages(mock!, { model: "claude-opus-5", max_tokens: 4096, ...body }, beta);
}

/** The block a compaction request returns, from its stream (it arrives whole, at its start). */
async function summarised(): Promise<Block> {
  mock = await startMockLlm([
    { text: "The user named Recipe and Step.", usage: { input: 144, output: 276 } },
  ]);
  const { status, text } = await post({ messages: HISTORY, compaction: { type: "summarize" } });
  expect(status).toBe(200);
  expect(text).not.toContain("content_block_delta");
  expect(text).toContain('"stop_reason":"compaction"');
  // The top level counts nothing; the call is the compaction iteration.
  expect(text).toContain(
    '"usage":{"input_tokens":0,"output_tokens":0,"iterations":[{"type":"compaction","input_tokens":144,"output_tokens":276}]}',
  );
  const start = text.split("\n").find((l) => l.includes('"content_block_start"'))!;
  return (JSON.parse(start.slice("data: ".length)) as { content_block: Block }).content_block;
}

const after = (block: Block, extra: Block[] = []) => [
  { role: "assistant", content: [block, ...extra] },
  { role: "user", content: [{ type: "text", text: "Now fields for Step." }] },
];

describe("the mock's on-demand compaction", () => {
  it("answers a compaction request with the block alone, and takes it back first, with the header", async () => {
    const block = await summarised();
    expect(Object.keys(block).sort()).toEqual(["content", "signature", "type"]);
    mock!.push({ text: "title, position." });
    expect((await post({ messages: after(block) })).status).toBe(200);
  });

  it("plays each documented error", async () => {
    const block = await summarised();
    const refused = async (body: Record<string, unknown>, beta?: string) => {
      const r = await post(body, beta);
      expect(r.status).toBe(400);
      return r.text;
    };
    // A later request without the header: a validation error that does not mention it.
    const unheaded = await refused({ messages: after(block) }, "");
    expect(unheaded).toContain("`compaction` is not one of the expected content block types");
    expect(unheaded).not.toContain(COMPACTION_BETA);
    // The block not first.
    expect(await refused({ messages: [...HISTORY, ...after(block)] })).toContain(
      "compaction_block_misplaced",
    );
    // Two blocks.
    expect(await refused({ messages: after(block, [block]) })).toContain("only one compaction block");
    // Changed after it was returned.
    expect(await refused({ messages: after({ ...block, content: "Other." }) })).toContain(
      "compaction_content_mismatch",
    );
    expect(await refused({ messages: after({ ...block, signature: "forged" }) })).toContain(
      "compaction_signature_invalid",
    );
    // Fields the API did not return.
    expect(await refused({ messages: after({ ...block, citations: null }) })).toContain(
      "messages.0.content.0.compaction.citations: Extra inputs are not permitted",
    );
    const summarize = { compaction: { type: "summarize" } };
    // The compaction request without the header.
    expect(await refused({ messages: HISTORY, ...summarize }, "")).toContain(
      `requires anthropic-beta: ${COMPACTION_BETA}`,
    );
    expect(await refused({ messages: [], ...summarize })).toContain("compaction_nothing_to_summarize");
    expect(
      await refused({
        messages: [
          ...HISTORY,
          { role: "assistant", content: [{ type: "tool_use", id: "t", name: "x", input: {} }] },
        ],
        ...summarize,
      }),
    ).toContain("tool call with no result");
    expect(await refused({ messages: HISTORY, ...summarize, tool_choice: { type: "any" } })).toContain(
      "tool_choice",
    );
    expect(await refused({ messages: HISTORY, ...summarize, stop_sequences: ["x"] })).toContain(
      "stop_sequences",
    );
    expect(await refused({ messages: HISTORY, ...summarize, context_management: { edits: [] } })).toContain(
      "context_management",
    );
  });

  it("a summary that does not come is a 200 with empty content and the call's stop reason; compaction_unavailable is a 529", async () => {
    mock = await startMockLlm([
      { stop: "max_tokens", usage: { input: 144, output: 4096 } },
      { fault: { status: 529, error_code: "compaction_unavailable", message: "Compaction is unavailable." } },
    ]);
    const cut = await post({ messages: HISTORY, compaction: { type: "summarize" } });
    expect(cut.status).toBe(200);
    expect(cut.text).not.toContain("content_block_start");
    expect(cut.text).toContain('"stop_reason":"max_tokens"');
    const unavailable = await post({ messages: HISTORY, compaction: { type: "summarize" } });
    expect(unavailable.status).toBe(529);
    expect(JSON.parse(unavailable.text)).toMatchObject({
      error: { type: "overloaded_error", details: { error_code: "compaction_unavailable" } },
    });
  });
});
