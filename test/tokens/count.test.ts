// Token counting: exact as the tokenizer counts, whatever came before; pathological texts in bounded
// pieces, sampled, and the count says ≈.
import { describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { createTokenCounter } from "../../src/tokens/count.js";

/** Texts of the fragments the tokenizer splits on: words, digits, punctuation, runs of white space, text outside ASCII. */
function texts(count: number): string[] {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed % n;
  };
  const parts = [
    "a",
    "Word",
    "HTTP",
    "12345",
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\n\n",
    ".",
    ",",
    "/",
    "'s",
    "-",
    "`",
    "*",
    "#",
    "中文",
    "\u3000",
    "\u00a0",
    "é",
    "<|",
    "|>",
  ];
  return Array.from({ length: count }, () => {
    let text = "";
    for (let i = random(200); i > 0; i--) text += parts[random(parts.length)]!;
    return text;
  });
}

describe("token counts", () => {
  it("are the tokenizer's, text after text", async () => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    for (const text of texts(600)) expect(counter.text(text), JSON.stringify(text)).toBe(countTokens(text));
    expect(counter.approximate).toBe(false);
  });

  it("stay the tokenizer's once more distinct words were counted than the counter keeps", async () => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    const many = Array.from({ length: 70_000 }, (_, i) => `w${i.toString(36)}x`).join(" ");
    expect(counter.text(many)).toBe(countTokens(many));
    const again = "the parser state machine\n- a list item\n`code` and more";
    expect(counter.text(again)).toBe(countTokens(again));
  });

  it("count a special token a user wrote as its text", async () => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    const text = "the model stops at <|endoftext|> and <|im_start|>";
    expect(counter.text(text)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
  });
});

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
    const truth = countTokens(text);
    const cut = exact.text(text);
    expect(Math.abs(cut - truth) / truth).toBeLessThan(0.05);
  });

  it("a hex dump is counted from samples, within a per cent of the exact count", async () => {
    const counter = await createTokenCounter("openai/gpt-4.1");
    let seed = 3;
    let hex = "";
    for (let i = 0; i < 200_000; i++) {
      seed = (seed * 1664525 + 1013904223) >>> 0;
      hex += "0123456789abcdef".charAt(seed >>> 28);
    }
    const truth = countTokens(hex);
    expect(Math.abs(counter.text(hex) - truth) / truth).toBeLessThan(0.01);
    expect(counter.approximate).toBe(true);
  });
});
