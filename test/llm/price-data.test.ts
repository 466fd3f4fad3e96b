// The maintained price data as jp reads it: the figures of the providers'
// pricing and model pages (read 2026-12-04), found through the snapshot of
// @pydantic/genai-prices taken at build time and jp's supplement, tiers and
// dated changes included.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import {
  bundledPriceData,
  dataFacts,
  matchesModel,
  priceDataSources,
  toPrice,
} from "../../src/llm/price-data.js";
import { tempDir } from "../support/workspace.js";

const NOW = new Date("2026-12-05T12:00:00Z");
// No fetched copy: the user's cache is empty.
const emptyCache = { XDG_CACHE_HOME: tempDir() };
const facts = (id: string, now = NOW) => {
  const [provider = "", name = ""] = id.split("/");
  return dataFacts(provider, name, now, priceDataSources(emptyCache, provider));
};

describe("the price data", () => {
  it("has the snapshot of @pydantic/genai-prices that the build took", () => {
    const snapshot = JSON.parse(fs.readFileSync(bundledPriceData("anthropic"), "utf8")) as { source: string };
    expect(snapshot.source).toMatch(/^@pydantic\/genai-prices \d+\.\d+\.\d+$/);
    expect(facts("anthropic/claude-opus-5-5")?.source).toBe(snapshot.source);
  });

  it("prices Anthropic's cache reads per model, as the pricing page gives them", () => {
    expect(facts("anthropic/claude-fable-5-1")?.price).toMatchObject({
      input: 10,
      output: 50,
      cache_read: 0.25,
    });
    expect(facts("anthropic/claude-fable-5-2")?.price).toMatchObject({
      input: 8,
      output: 40,
      cache_read: 0.2,
    });
    expect(facts("anthropic/claude-opus-5-5")?.price).toMatchObject({
      input: 4,
      output: 20,
      cache_read: 0.2,
    });
    // Sonnet 5.5's cache reads were halved on 2026-10-07: a request before then paid the old rate.
    expect(facts("anthropic/claude-sonnet-5-5")?.price).toMatchObject({
      input: 2,
      output: 10,
      cache_read: 0.1,
    });
    expect(facts("anthropic/claude-sonnet-5-5", new Date("2026-10-01"))?.price?.cache_read).toBe(0.2);
  });

  it("prices Claude Haiku 5.5 by prompt length: 5x above 100,000 tokens", () => {
    expect(facts("anthropic/claude-haiku-5-5")).toMatchObject({
      contextWindow: 1_000_000,
      price: {
        input: 0.1,
        output: 0.5,
        cache_write: 0.125,
        tiers: [{ above: 100_000, input: 0.5, output: 2.5, cache_read: 0.05, cache_write: 0.625 }],
      },
    });
  });

  it("knows OpenAI's current models: GPT-5.6 Luna's window and cut prices, cache writes, GPT-6.x", () => {
    expect(facts("openai/gpt-5.6-luna")).toMatchObject({
      contextWindow: 1_050_000,
      price: { input: 0.2, cache_read: 0.02, output: 1.2, cache_write: 0.25 },
    });
    expect(facts("openai/gpt-6.2-sol")).toMatchObject({
      contextWindow: 1_050_000,
      price: {
        input: 2,
        output: 10,
        cache_read: 0.1,
        cache_write: 2.5,
        // Over 272K input tokens: input and cache double, output 1.5x, for the whole request.
        tiers: [{ above: 272_000, input: 4, output: 15, cache_read: 0.2, cache_write: 5 }],
      },
    });
    expect(facts("openai/gpt-6.1-terra")?.price).toMatchObject({ input: 1, output: 5, cache_read: 0.05 });
  });

  it("knows Gemini 4 Argon, whose prices doubled on 2026-12-01", () => {
    expect(facts("google/gemini-4-argon")).toMatchObject({
      contextWindow: 1_048_576,
      price: { input: 4, output: 20, cache_read: 0.2 },
    });
    expect(facts("google/gemini-4-argon", new Date("2026-11-20"))?.price).toMatchObject({
      input: 2,
      output: 10,
    });
    expect(facts("google/gemini-3.1-pro-preview")?.price).toMatchObject({ input: 2, output: 12 });
  });

  it("finds a model by its exact id before another entry's looser rule", () => {
    // The snapshot's claude-sonnet-5 entry starts_with "claude-sonnet-5"; Sonnet 5.5 has an entry of its own.
    expect(facts("anthropic/claude-sonnet-5-5")?.source).toMatch(/^jp's supplement/);
    expect(facts("anthropic/claude-sonnet-5")?.price?.cache_read).toBe(0.2);
    expect(facts("ollama/qwen3")).toBeUndefined();
    expect(facts("anthropic/no-such-model")).toBeUndefined();
  });

  it("prefers a fetched copy, and ignores one that is not the data's shape", () => {
    const cache = tempDir();
    fs.mkdirSync(path.join(cache, "jp/price-data"), { recursive: true });
    const fetched = {
      source: "genai-prices data fetched",
      as_of: "2026-12-05T10:00:00Z",
      providers: [
        {
          id: "anthropic",
          models: [
            {
              id: "claude-opus-5-5",
              match: { equals: "claude-opus-5-5" },
              prices: { input_mtok: 3, output_mtok: 15 },
            },
          ],
        },
      ],
    };
    fs.writeFileSync(path.join(cache, "jp/price-data/anthropic.json"), JSON.stringify(fetched));
    const withFetched = priceDataSources({ XDG_CACHE_HOME: cache }, "anthropic");
    expect(dataFacts("anthropic", "claude-opus-5-5", NOW, withFetched)).toMatchObject({
      price: { input: 3, output: 15 },
      source: "genai-prices data fetched",
      asOf: "2026-12-05T10:00:00Z",
    });
    const broken = tempDir();
    fs.mkdirSync(path.join(broken, "jp/price-data"), { recursive: true });
    fs.writeFileSync(path.join(broken, "jp/price-data/anthropic.json"), '{"providers": "nope"}');
    expect(
      dataFacts(
        "anthropic",
        "claude-opus-5-5",
        NOW,
        priceDataSources({ XDG_CACHE_HOME: broken }, "anthropic"),
      )?.price?.input,
    ).toBe(4);
  });

  it("reads the data's match rules and tiers as the package does", () => {
    expect(matchesModel({ or: [{ equals: "a" }, { regex: "^b-\\d+$" }] }, "b-12")).toBe(true);
    expect(matchesModel({ and: [{ starts_with: "GPT" }, { ends_with: "-mini" }] }, "gpt-5-mini")).toBe(true);
    expect(matchesModel({ contains: "x" }, "abc")).toBe(false);
    expect(matchesModel({ regex: "(" }, "abc")).toBe(false);
    // Each rate tiers apart; jp's tiers are each prompt length where a rate changes.
    expect(
      toPrice({
        input_mtok: {
          base: 1,
          tiers: [
            { start: 100, price: 2 },
            { start: 200, price: 3 },
          ],
        },
        output_mtok: { base: 5, tiers: [{ start: 200, price: 7 }] },
      }),
    ).toEqual({
      input: 1,
      output: 5,
      tiers: [
        { above: 100, input: 2, output: 5 },
        { above: 200, input: 3, output: 7 },
      ],
    });
    expect(toPrice({ output_mtok: 1 })).toBeUndefined();
  });
});
