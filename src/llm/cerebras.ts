// Owns what Cerebras's inference API takes beyond Chat Completions, as JP's
// recorded requests to it show: `reasoning_format: "parsed"` on every request,
// so reasoning comes back in its own `reasoning` field (without it, it leaks
// into the answer as <think> tags) and goes back there; `reasoning_effort` as
// asked; a named tool choice.
import { COMPATIBLE_DIALECT, type ChatDialect } from "./openai.js";

export const CEREBRAS_BASE_URL = "https://api.cerebras.ai/v1";

export const CEREBRAS_DIALECT: ChatDialect = {
  ...COMPATIBLE_DIALECT,
  reasoning: "reasoning_effort",
  reasoningFormat: "parsed",
  toolChoice: "named",
};
