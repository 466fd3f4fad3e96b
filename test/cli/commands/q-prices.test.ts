// Today's models, prices and lifecycles through jp q and jp model show, against
// the mock server: costs as billed (long-prompt tiers, OpenRouter's own
// figure), shutdown dates said and kept to, answers as long as the model
// writes, a misspelt id named, and the price data fetched when asked.
import * as http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { isJsonObject, type Event } from "../../../src/events/index.js";
import { CONTINUE_PROMPT } from "../../../src/turn/continuation.js";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { runCli } from "../../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const at = (iso: string) => ({ now: () => new Date(iso) });
/** jp in the workspace on a given day (the lifecycle tests are about dates). */
const jpOn = (day: string, ...args: string[]) =>
  runCli(args, { cwd: w!.root, env: w!.env, clock: at(`${day}T12:00:00Z`) });
/** The usage the n-th answer recorded. */
const usageOf = (n = 0): Record<string, unknown> => {
  const answer: Event | undefined = w!
    .events()
    .filter((e) => e.type === "chat_response")
    .at(n);
  const usage = isJsonObject(answer?.metadata) ? answer.metadata.usage : undefined;
  return isJsonObject(usage) ? usage : {};
};

describe("cost as billed", () => {
  it("prices a 150,000-token prompt to Claude Haiku 5.5 at the long-prompt rate, and records it", async () => {
    w = await qWorkspace({
      model: "anthropic/claude-haiku-5-5",
      script: [
        { text: "long", usage: { input: 150_000, output: 1000 } },
        { text: "short", usage: { input: 50_000, output: 1000 } },
      ],
    });
    const long = await w.jp("q", "read all of this");
    expect(long.code, long.stderr).toBe(0);
    // Over 100,000 prompt tokens: $0.50 / $2.50 on every token, 0.075 + 0.0025.
    expect(long.stderr).toContain("in 150.0k · out 1.0k · ≈$0.077\n");
    expect(usageOf(0).cost_usd).toBeCloseTo(0.0775);
    const short = await w.jp("q", "and this");
    // Under it: $0.10 / $0.50, 0.005 + 0.0005.
    expect(short.stderr).toContain("≈$0.0055");
    // show sums what each request recorded, each at its own rate.
    const shown = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as {
      estimated_cost_usd: number;
    };
    expect(shown.estimated_cost_usd).toBeCloseTo(0.083);
  });

  it("takes OpenRouter's own figure for what a request cost", async () => {
    w = await qWorkspace({
      provider: "openrouter",
      script: [{ text: "routed", usage: { input: 1200, output: 80, cost: 0.004321 } }],
    });
    const asked = await w.jp("q", "hello");
    expect(asked.code).toBe(0);
    expect(asked.stderr).toContain("≈$0.0043");
    expect(usageOf().cost_usd).toBe(0.004321);
    const shown = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as {
      estimated_cost_usd: number;
    };
    expect(shown.estimated_cost_usd).toBeCloseTo(0.004321);
  });
});

describe("lifecycles", () => {
  it("warns of gpt-5's shutdown on 2026-12-11 and sends; after that day refuses it, naming its replacement", async () => {
    w = await qWorkspace({
      provider: "openai",
      api: "responses",
      model: "openai/gpt-5",
      script: [{ text: "still here" }],
    });
    w.mock.models.set("gpt-5", {
      id: "gpt-5",
      object: "model",
      created: 1_754_524_800,
      owned_by: "system",
      shutdown_date: "2026-12-11",
    });
    const before = await jpOn("2026-12-05", "q", "hello");
    expect(before.code).toBe(0);
    expect(before.stderr).toContain("openai/gpt-5 shuts down on 2026-12-11; use openai/gpt-6.1-sol instead");
    expect(w.mock.requests).toHaveLength(1);
    const after = await jpOn("2026-12-12", "q", "hello again");
    expect(after.code).toBe(2);
    expect(after.stderr).toContain(
      "openai/gpt-5 was shut down on 2026-12-11: the provider no longer serves it, so nothing was sent",
    );
    expect(after.stderr).toContain("use openai/gpt-6.1-sol instead");
    expect(w.mock.requests).toHaveLength(1);
  });

  it("refuses gemini-3-pro-preview before sending, naming gemini-3.1-pro-preview", async () => {
    w = await qWorkspace({ provider: "google", model: "google/gemini-3-pro-preview" });
    const refused = await w.jp("q", "hello");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("google/gemini-3-pro-preview is retired");
    expect(refused.stderr).toContain("use google/gemini-3.1-pro-preview instead");
    expect(w.mock.requests).toHaveLength(0);
  });
});

describe("today's models", () => {
  it("know gpt-6.2-sol's and gemini-4-argon's windows and prices", async () => {
    w = await qWorkspace({ provider: "openai", api: "responses" });
    for (const id of ["openai/gpt-6.2-sol", "google/gemini-4-argon"]) {
      const shown = await runCli(["model", "show", id, "--json"], { cwd: w.root, env: w.env });
      const { facts, sources } = JSON.parse(shown.stdout) as {
        facts: { contextWindow?: number; price?: { input: number; output: number } };
        sources: Record<string, string>;
      };
      expect(facts.contextWindow, id).toBeGreaterThan(1_000_000);
      expect(facts.price, id).toBeDefined();
      expect(sources).toMatchObject({ contextWindow: "data", price: "data" });
    }
  });

  it("asks Gemini 4 Argon for a thinking level, never a budget", async () => {
    w = await qWorkspace({ provider: "google", model: "google/gemini-4-argon", script: [{ text: "deep" }] });
    expect((await w.jp("q", "-r", "think hard")).code).toBe(0);
    const thinking = (
      w.mock.requests[0]!.body.generationConfig as { thinkingConfig: Record<string, unknown> }
    ).thinkingConfig;
    expect(thinking.thinkingLevel).toBeDefined();
    expect(thinking.thinkingBudget).toBeUndefined();
    // The levels it takes are known, not inferred from its name.
    const shown = JSON.parse((await w.jp("model", "show", "google/gemini-4-argon", "--json")).stdout) as {
      facts: { efforts?: string[] };
      sources: Record<string, string>;
    };
    expect(shown.facts.efforts).toEqual(["low", "medium", "high"]);
    expect(shown.sources.efforts).toBe("built-in");
  });

  it("asks Opus 5.5 for its own output cap, 128,000 tokens, unless the config sets one", async () => {
    w = await qWorkspace({ model: "anthropic/claude-opus-5-5", script: [{ text: "a" }, { text: "b" }] });
    const asked = await w.jp("q", "hello");
    expect(asked.code, asked.stderr).toBe(0);
    expect(w.mock.requests[0]!.body.max_tokens).toBe(128_000);
    expect((await w.jp("-c", "assistant.request.max_tokens=2000", "q", "again")).code).toBe(0);
    expect(w.mock.requests[1]!.body.max_tokens).toBe(2000);
  });

  it("names a misspelt model id the provider does not have, with the nearest it knows, and still sends", async () => {
    w = await qWorkspace({ model: "anthropic/claude-sonet-5-5", script: [{ text: "who?" }] });
    const asked = await w.jp("q", "hello");
    expect(asked.stderr).toContain(
      "anthropic/claude-sonet-5-5 is unknown to anthropic's model API (it has no such model); did you mean anthropic/claude-sonnet-5-5? Sending it anyway.",
    );
    expect(w.mock.requests).toHaveLength(1);
  });
});

describe("answers cut off at the output cap", () => {
  const first =
    "Kirigami parachutes are cut from a flat sheet, and the pattern of cuts decides how they open in";
  const second = "decides how they open in the air: the cuts pop out into a cone that holds its shape.";

  it("are asked to go on, joined where the model repeats itself, shown and recorded as one answer", async () => {
    w = await qWorkspace({ script: [{ text: first, stop: "max_tokens" }, { text: second }] });
    const asked = await w.jp("q", "explain kirigami parachutes");
    expect(asked.code).toBe(0);
    const whole = `${first} the air: the cuts pop out into a cone that holds its shape.`;
    expect(asked.stdout.replace(/\n/g, "")).toBe(whole);
    expect(asked.stderr).not.toContain("cut off");
    // The second request carries the cut answer and JP's words asking to go on; the log keeps neither the
    // request nor the repeat.
    const sent = w.mock.requests[1]!.body as { messages: { role: string; content: { text?: string }[] }[] };
    expect(sent.messages.at(-1)).toMatchObject({ role: "user", content: [{ text: CONTINUE_PROMPT }] });
    const events = w.events();
    expect(events.filter((e) => e.type === "chat_request")).toHaveLength(1);
    const answer = events
      .filter((e) => e.type === "chat_response")
      .map((e) => (typeof e.message === "string" ? e.message : ""))
      .join("");
    expect(answer).toBe(whole);
    // Both requests were billed, and both recorded their usage.
    expect(
      events.filter(
        (e) => e.type === "chat_response" && "usage" in (isJsonObject(e.metadata) ? e.metadata : {}),
      ),
    ).toHaveLength(2);
  });

  it("stop after max_continuations, and say so", async () => {
    w = await qWorkspace({
      script: [
        { text: "one two three four five six", stop: "max_tokens" },
        { text: "five six seven eight nine", stop: "max_tokens" },
      ],
      request: "max_continuations = 1",
    });
    const asked = await w.jp("q", "count");
    expect(asked.code).toBe(0);
    expect(asked.stderr).toContain("the answer was still cut off at the token limit after 1 continuations");
    expect(w.mock.requests).toHaveLength(2);
  });
});

describe("the price data", () => {
  it("is fetched by model show --refresh, and its figures are then the fetched ones, with their age", async () => {
    const data = [
      {
        id: "anthropic",
        models: [
          {
            id: "claude-opus-5-5",
            match: { equals: "claude-opus-5-5" },
            context_window: 1_000_000,
            prices: { input_mtok: 3, output_mtok: 15 },
          },
        ],
      },
      { id: "some-other-provider", models: [] },
    ];
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as { port: number };
      w = await qWorkspace({});
      const env = { ...w.env, JP_PRICE_DATA_URL: `http://127.0.0.1:${port}/data.json` };
      const shown = await runCli(["model", "show", "anthropic/claude-opus-5-5", "--refresh"], {
        cwd: w.root,
        env,
        clock: at("2026-12-05T12:00:00Z"),
      });
      expect(shown.code).toBe(0);
      expect(shown.stderr).toContain(`price data: 1 models (genai-prices data from 127.0.0.1:${port})`);
      expect(shown.stdout).toMatch(
        /price +\$3\.00 in \/ \$15\.00 out per million {2}\(genai-prices data from 127\.0\.0\.1:\d+, as of 2026-12-05\)/,
      );
      // A mirror that is down keeps the copy held.
      server.close();
      const again = await runCli(["model", "show", "anthropic/claude-opus-5-5", "--refresh"], {
        cwd: w.root,
        env,
      });
      expect(again.stderr).toContain("the price data could not be fetched");
      expect(again.stdout).toContain("$3.00 in / $15.00 out");
    } finally {
      server.close();
    }
  });
});
