// The window guard's margin: a request up to the window is sent as it is; up
// to a fifth over it (the chars/4 estimate's error) it is sent with one
// warning; past that it is not sent. The edges are pinned token by token.
import { describe, expect, it } from "vitest";
import { JpError } from "../../src/errors.js";
import type { ModelRequest } from "../../src/llm/types.js";
import { approximateTokens, overWindow } from "../../src/turn/request.js";
import type { TurnOptions } from "../../src/turn/types.js";
import { memoryLog, recordingOutput, scriptedPrompter, scriptedProvider } from "../support/doubles.js";

/** A request of exactly `tokens` tokens by the estimate: its system prompt, and no tools ("[]", 2 characters). */
function requestOf(tokens: number): ModelRequest {
  return {
    model: "model",
    system: "x".repeat(tokens * 4 - 2),
    events: [],
    tools: [],
    toolChoice: "auto",
    maxTokens: 100,
  };
}

function guard(tokens: number, contextWindow: number | undefined, mayWarn = true) {
  const output = recordingOutput();
  const options: TurnOptions = {
    log: memoryLog(),
    provider: scriptedProvider([]),
    modelId: "scripted/model",
    modelName: "model",
    maxTokens: 100,
    maxRetries: 0,
    backoffMs: 0,
    tools: [],
    prompter: scriptedPrompter(),
    output,
    now: () => new Date(0),
    cwd: "/",
    signal: new AbortController().signal,
    ...(contextWindow !== undefined ? { contextWindow } : {}),
  };
  const verdict = overWindow(requestOf(tokens), options, mayWarn);
  return { verdict, notices: output.shown };
}

describe("the window guard", () => {
  it("measures the request it is given", () => {
    expect(approximateTokens(requestOf(1200))).toBe(1200);
  });

  it("sends a request that fills the window exactly, and says nothing", () => {
    expect(guard(1200, 1200)).toEqual({ verdict: undefined, notices: [] });
    expect(guard(1200, undefined)).toEqual({ verdict: undefined, notices: [] });
  });

  it("warns once of a request one token over, and up to a fifth over", () => {
    for (const window of [1199, 1000]) {
      const { verdict, notices } = guard(1200, window);
      expect(verdict, `window ${window}`).toBe("warned");
      expect(notices).toEqual([
        `notice: warning: this request is about 1,200 tokens, more than the ${window.toLocaleString("en-US")}-token context window of scripted/model; the provider may refuse it`,
      ]);
    }
    // Warned already this turn: sent without a second warning.
    expect(guard(1200, 1000, false)).toEqual({ verdict: undefined, notices: [] });
  });

  it("does not send a request more than a fifth over the window", () => {
    const { verdict, notices } = guard(1200, 999);
    expect(verdict).toBeInstanceOf(JpError);
    expect(verdict instanceof JpError && verdict.code).toBe("turn.over_window");
    expect(notices).toEqual([]);
  });
});
