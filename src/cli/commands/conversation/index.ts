// `jp conversation` (alias `c`): the conversation subcommands.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { registerNew } from "./new.js";
import { registerLs } from "./ls.js";
import { registerUse } from "./use.js";
import { registerShow } from "./show.js";
import { registerPrint } from "./print.js";
import { registerFork } from "./fork.js";
import { registerRm } from "./rm.js";
import { registerImport } from "./import.js";
import { registerDoctor } from "./doctor.js";
import { registerCompact } from "./compact.js";

export function registerConversation(program: Command, ctx: Context): void {
  const conversation = program
    .command("conversation")
    .alias("c")
    .description("manage conversations: new, ls, use, show, print, fork, rm, import, doctor");
  for (const register of [
    registerNew,
    registerLs,
    registerUse,
    registerShow,
    registerPrint,
    registerFork,
    registerRm,
    registerImport,
    registerDoctor,
    registerCompact,
  ]) {
    register(conversation, ctx);
  }
}
