// Owns the list of built-in tools, registered beside local tools.
import type { Context } from "../cli/context.js";
import { toolHints } from "../config/rules.js";
import type { Config } from "../config/schema.js";
import { createCompactTool } from "./compact.js";
import type { Tool } from "./types.js";

export function builtinTools(ctx: Context, config: Config, conversationId: string): Tool[] {
  return [
    createCompactTool({
      now: () => ctx.clock.now(),
      newId: ctx.newId,
      hints: toolHints(config),
      counter: () => ctx.tokenCounter(config),
      conversationId,
    }),
  ];
}
