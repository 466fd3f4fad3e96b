// `jp conversation pin [ID] --turn N`: no compaction changes that turn.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { registerPinning } from "../../pinning.js";

export function register(parent: Command, ctx: Context): void {
  registerPinning(parent, ctx, {
    name: "pin",
    description:
      "pin a turn: no compaction changes it (manual, the compact tool or automatic); ranges that cover it go around it",
    pinned: true,
  });
}
