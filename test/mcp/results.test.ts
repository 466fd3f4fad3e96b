// What an MCP tool result becomes: every content kind said in words, images
// kept beside the text, structured content given only when there is no other content.
import { describe, expect, it } from "vitest";
import { mcpOutcome } from "../../src/mcp/results.js";

describe("mcpOutcome", () => {
  it("joins text blocks and keeps isError", () => {
    expect(
      mcpOutcome({
        content: [
          { type: "text", text: "one" },
          { type: "text", text: "two" },
        ],
        isError: true,
      }),
    ).toEqual({ content: "one\ntwo", isError: true, images: [] });
  });

  it("gives structured content as JSON only when the server gave no content, once either way", () => {
    expect(mcpOutcome({ content: [], structuredContent: { a: 1 } }).content).toBe('{\n  "a": 1\n}');
    expect(
      mcpOutcome({ content: [{ type: "text", text: '{"a": 1}' }], structuredContent: { a: 1 } }).content,
    ).toBe('{"a": 1}');
    // The reference filesystem server's read_text_file: the file's text, and the same text
    // as { content }: the model is sent the text once.
    const file = "line one\nline two\n";
    expect(
      mcpOutcome({ content: [{ type: "text", text: file }], structuredContent: { content: file } }).content,
    ).toBe(file);
  });

  it("keeps images beside a note in the text, and names what it does not pass on", () => {
    const outcome = mcpOutcome({
      content: [
        { type: "image", data: "AAAA", mimeType: "image/webp" },
        { type: "audio", data: "AAAAAAAA", mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///x.bin", blob: "AAAA", mimeType: "application/zip" } },
        { type: "something_new" },
      ],
    });
    expect(outcome.images).toEqual([{ media_type: "image/webp", data: "AAAA" }]);
    expect(outcome.content).toBe(
      [
        "[image: image/webp, 3 bytes]",
        "[audio: audio/wav, 6 bytes; not passed on]",
        "[resource <file:///x.bin>: application/zip, 3 bytes; not passed on]",
        "[something_new content jp does not show]",
      ].join("\n"),
    );
  });

  it("says so when there is no result at all", () => {
    expect(mcpOutcome(undefined)).toEqual({
      content: "the server sent no result",
      isError: true,
      images: [],
    });
  });
});
