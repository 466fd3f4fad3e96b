// A cache entry's short name: stable from run to run (a changed name only
// costs a cache miss, but every run would miss), 16 hex digits, and apart for
// texts a character apart.
import { describe, expect, it } from "vitest";
import { shortHash } from "../src/short-hash.js";

describe("shortHash", () => {
  it("names a text the same way every time, in 16 hex digits", () => {
    expect(shortHash("https://api.anthropic.com")).toBe(shortHash("https://api.anthropic.com"));
    expect(shortHash("")).toMatch(/^[0-9a-f]{16}$/);
    expect(shortHash("/home/me/project")).toMatch(/^[0-9a-f]{16}$/);
  });

  it("names texts a character apart apart, in both halves", () => {
    const base = "http://127.0.0.1:11434/v1";
    const texts = new Set<string>();
    for (let i = 0; i <= base.length; i++)
      for (const c of ["0", "1", "é", "🙂"]) texts.add(base.slice(0, i) + c + base.slice(i));
    const names = [...texts].map(shortHash);
    const halves = names.flatMap((n) => [n.slice(0, 8), n.slice(8)]);
    expect(texts.size).toBeGreaterThan(90);
    expect(new Set(names).size).toBe(texts.size);
    expect(new Set(halves).size).toBe(halves.length);
  });
});
