// Settings are held to sane ranges whichever layer set them, a conversation's
// recorded config included, with one line naming each value clamped.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { clampSettings } from "../../src/config/bounds.js";
import type { Config } from "../../src/config/schema.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("clampSettings", () => {
  it("holds each bounded value to its range, tools' included, and says which", () => {
    const config: Config = {
      assistant: { request: { timeout_secs: 3e9, max_retries: 1_000_000, backoff_ms: 10 } },
      conversation: { tools: { grep: { timeout_secs: 1e12 }, ls: { timeout_secs: 5 } } },
    };
    expect(clampSettings(config)).toEqual([
      "assistant.request.timeout_secs = 3000000000 is more than jp allows; using 86400",
      "assistant.request.max_retries = 1000000 is more than jp allows; using 10",
      "conversation.tools.grep.timeout_secs = 1000000000000 is more than jp allows; using 86400",
    ]);
    expect(config.assistant?.request).toEqual({ timeout_secs: 86400, max_retries: 10, backoff_ms: 10 });
    expect(config.conversation?.tools?.ls?.timeout_secs).toBe(5);
  });
});

describe("a conversation's recorded config", () => {
  it("cannot stall jp: a timeout past a timer's range and a million retries are clamped, and the request goes out", async () => {
    w = await qWorkspace({ script: [{ text: "first" }, { fault: { status: 503 } }, { text: "second" }] });
    expect((await w.jp("q", "hello")).code).toBe(0);
    const log = path.join(w.folder(), "events.jsonl");
    const delta = { assistant: { request: { timeout_secs: 4e9, max_retries: 1_000_000 } } };
    fs.appendFileSync(
      log,
      JSON.stringify({ type: "config_delta", timestamp: new Date().toISOString(), delta }) + "\n",
    );
    const again = await w.jp("q", "again");
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("second");
    expect(again.stderr).toContain(
      "assistant.request.timeout_secs = 4000000000 is more than jp allows; using 86400",
    );
    expect(again.stderr).toContain(
      "assistant.request.max_retries = 1000000 is more than jp allows; using 10",
    );
  });
});
