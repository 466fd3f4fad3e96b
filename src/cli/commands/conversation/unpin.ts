// `jp conversation unpin [ID] --turn N`: undo a pin; compactions that cover the turn apply to it again.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { registerPinning } from "../../pinning.js";

export function register(parent: Command, ctx: Context): void {
  registerPinning(parent, ctx, {
    name: "unpin",
    description: "undo a pin: compactions that cover the turn apply to it again",
    pinned: false,
  });
}
