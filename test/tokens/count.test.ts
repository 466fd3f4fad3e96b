// Token counting of pathological texts: bounded pieces, and the count says ≈.
import { describe, expect, it } from "vitest";
import { createTokenCounter } from "../../src/tokens/count.js";

describe("token counts of pathological texts", () => {
  it("a megabyte of one character or base64 is counted in pieces and marked approximate", async () => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    expect(counter.approximate).toBe(false);
    expect(counter.text("an ordinary sentence about the parser")).toBeGreaterThan(0);
    expect(counter.approximate).toBe(false);
    const run = counter.text("a".repeat(1024 * 1024));
    const base64 = counter.text(Buffer.alloc(786_432).toString("base64"));
    expect(run).toBeGreaterThan(0);
    expect(base64).toBeGreaterThan(0);
    expect(counter.approximate).toBe(true);
  });

  it("a cut count stays close to the exact one", async () => {
    const exact = await createTokenCounter("openai/gpt-4.1");
    const text = "x9".repeat(1500);
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    const truth = countTokens(text);
    const cut = exact.text(text);
    expect(Math.abs(cut - truth) / truth).toBeLessThan(0.05);
  });
});
