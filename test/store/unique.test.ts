import { describe, expect, it } from "vitest";
import { uniqueToken } from "../../src/store/unique.js";

describe("uniqueToken", () => {
  it("is hex, safe in a file name, and never repeats within a process", () => {
    const tokens = Array.from({ length: 100_000 }, uniqueToken);
    for (const token of tokens.slice(0, 100)) expect(token).toMatch(/^[0-9a-f]{20,40}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
