// Owns the list of built-in tools, registered beside local tools.
import type { Context } from "../cli/context.js";
import type { Config } from "../config/schema.js";
import type { Tool } from "./types.js";

export function builtinTools(_ctx: Context, _config: Config): Tool[] {
  return [];
}
