// What jp knows of a model: layers merged figure by figure, the built-in
// table matched exactly (never by substring), the Models API answer read.
import { describe, expect, it } from "vitest";
import {
  acceptsForcedTool,
  lifecycleNotice,
  mergeFacts,
  nearestEffort,
  type ModelFacts,
} from "../../src/llm/capabilities.js";
import { factsOfModelInfo } from "../../src/llm/providers/anthropic/models.js";
import { builtInFacts, builtInModels } from "../../src/llm/model-table.js";
import { modelInfo, SONNET_5_5 } from "../support/model-info.js";

describe("mergeFacts", () => {
  it("takes each figure from the highest layer that has it, and says where it came from", () => {
    const merged = mergeFacts(
      "anthropic/x",
      [
        ["config", { contextWindow: 500 }],
        ["provider", { contextWindow: 1000, maxOutputTokens: 64 }],
        ["built-in", { maxOutputTokens: 32, lifecycle: "active" }],
      ],
      "2026-12-01T00:00:00Z",
    );
    expect(merged.facts).toEqual({ contextWindow: 500, maxOutputTokens: 64, lifecycle: "active" });
    expect(merged.sources).toEqual({
      contextWindow: "config",
      maxOutputTokens: "provider",
      lifecycle: "built-in",
    });
    expect(merged.fetchedAt).toBe("2026-12-01T00:00:00Z");
  });
});

describe("the built-in table", () => {
  it("matches a name exactly or as a dated snapshot, never as a substring", () => {
    expect(builtInFacts("anthropic", "claude-sonnet-5-5")?.maxOutputTokens).toBe(128_000);
    expect(builtInFacts("anthropic", "claude-opus-4-5-20251101")?.maxOutputTokens).toBe(64_000);
    expect(builtInFacts("openai", "gpt-4.1-2025-04-14")?.maxOutputTokens).toBe(32_768);
    // Substrings of listed names are other models: jp does not guess.
    expect(builtInFacts("anthropic", "claude-sonnet-5-5-preview")).toBeUndefined();
    expect(builtInFacts("openai", "o3-mini-custom")).toBeUndefined();
    expect(builtInFacts("openai", "my-o3")).toBeUndefined();
    expect(builtInFacts("ollama", "qwen3")).toBeUndefined();
    // Keys of Object.prototype are not models.
    expect(builtInFacts("anthropic", "constructor")).toBeUndefined();
  });

  it("keeps only what no data source has: no prices and no windows the price data gives", () => {
    for (const id of builtInModels()) {
      const [provider = "", name = ""] = id.split("/");
      expect(builtInFacts(provider, name)?.price, id).toBeUndefined();
    }
    expect(builtInFacts("anthropic", "claude-haiku-5-5")?.efforts).toEqual([
      "low",
      "medium",
      "high",
      "xhigh",
      "max",
    ]);
  });
});

describe("a Models API answer", () => {
  it("gives the window, the output cap, each thinking type, the effort levels and the lifecycle", () => {
    // An active model's answer has no lifecycle field: its lifecycle stays unknown, not assumed.
    expect(factsOfModelInfo(SONNET_5_5())).toEqual({
      contextWindow: 1_000_000,
      maxOutputTokens: 128_000,
      thinking: { adaptive: true, enabled: false, disabled: false, between_tools: true },
      efforts: ["low", "medium", "high", "xhigh", "max"],
      clearsToolUses: true,
    });
    // Context editing's tool result clearing, from capabilities.context_management.
    expect(factsOfModelInfo(SONNET_5_5("claude-sonnet-5-5", { noClearing: true })).clearsToolUses).toBe(
      false,
    );
    const retired = factsOfModelInfo(
      modelInfo("claude-old", { lifecycle: "deprecated", retiresAt: "2027-01-01T00:00:00Z" }),
    );
    expect(retired).toMatchObject({ lifecycle: "deprecated", retiresAt: "2027-01-01T00:00:00Z" });
    // Thinking said unsupported: known not to think (jp sends none), not unknown.
    expect(factsOfModelInfo(modelInfo("plain")).thinking).toEqual({
      adaptive: false,
      enabled: false,
      disabled: false,
      between_tools: false,
    });
  });
});

describe("what a model accepts", () => {
  it("forces a tool only where the model takes it: not on one that says no, nor on one that always thinks", () => {
    expect(acceptsForcedTool({})).toBe(true);
    expect(acceptsForcedTool({ forcedToolUse: false })).toBe(false);
    const always = { adaptive: true, enabled: false, disabled: false, between_tools: false };
    expect(acceptsForcedTool({ thinking: always })).toBe(false);
    expect(acceptsForcedTool({ thinking: { ...always, disabled: true } })).toBe(true);
  });

  it("clamps an effort to the nearest level the model takes, downward first", () => {
    expect(nearestEffort("xhigh", ["low", "medium", "high"])).toBe("high");
    expect(nearestEffort("minimal", ["low", "high"])).toBe("low");
    expect(nearestEffort("medium", ["low", "medium"])).toBe("medium");
  });

  it("refuses a retired model naming what replaces it, and warns of a deprecated one with its date", () => {
    const now = new Date("2026-12-05T00:00:00Z");
    const notice = (facts: ModelFacts) => lifecycleNotice({ id: "anthropic/a", facts, sources: {} }, now);
    expect(notice({ lifecycle: "retired", replacement: "anthropic/b" })).toEqual({
      refusal: "anthropic/a is retired: the provider no longer serves it, so nothing was sent",
      hint: "use anthropic/b instead (-m anthropic/b, or assistant.model.id in the config)",
    });
    // Within 60 days of its shutdown: one line with the date.
    expect(notice({ lifecycle: "deprecated", retiresAt: "2027-02-01T00:00:00Z" })).toEqual({
      warning: "anthropic/a shuts down on 2027-02-01; choose a current model",
    });
    // Later, or active with a date further off: model show says it, a request does not.
    expect(notice({ lifecycle: "deprecated", retiresAt: "2027-06-01T00:00:00Z" })).toBeUndefined();
    expect(notice({ lifecycle: "deprecated" })).toEqual({
      warning: "anthropic/a is deprecated; choose a current model",
    });
    // Past its shutdown date, whatever the lifecycle says: refused.
    expect(
      notice({ lifecycle: "deprecated", retiresAt: "2026-12-01T00:00:00Z", replacement: "openai/c" }),
    ).toEqual({
      refusal:
        "anthropic/a was shut down on 2026-12-01: the provider no longer serves it, so nothing was sent",
      hint: "use openai/c instead (-m openai/c, or assistant.model.id in the config)",
    });
    expect(notice({ lifecycle: "active" })).toBeUndefined();
  });
});
