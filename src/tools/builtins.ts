// Owns the list of built-in tools, registered beside local tools.
import { toolHints } from "../config/compaction-rules.js";
import type { Config } from "../config/schema.js";
import type { TokenCounter } from "../tokens/count.js";
import type { RequestFrame } from "../tokens/request.js";
import { createCompactTool, type CompactPreview, type CompactToolDeps } from "./compact.js";
import { outputCapOf } from "./local.js";
import { createRecallTool } from "./recall.js";
import type { Tool } from "./types.js";

/** What the built-ins need from whoever runs them: time, ids, counting, the preview's words and the reasoning a compaction loses. */
export interface BuiltinDeps {
  now: () => Date;
  newId: () => string;
  counter: () => Promise<TokenCounter>;
  frame: () => Promise<RequestFrame>;
  preview: CompactPreview;
  lostReasoning: CompactToolDeps["lostReasoning"];
}

export function builtinTools(deps: BuiltinDeps, config: Config, conversationId: string): Tool[] {
  return [
    createCompactTool({
      now: deps.now,
      newId: deps.newId,
      hints: toolHints(config),
      counter: deps.counter,
      frame: deps.frame,
      preview: deps.preview,
      lostReasoning: deps.lostReasoning,
      conversationId,
    }),
    createRecallTool(outputCapOf(config)),
  ];
}
