// Owns the list of top-level commands, in the order `jp --help` shows them.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { registerInit } from "./init.js";
import { registerConversation } from "./conversation/index.js";
import { registerConfig } from "./config/index.js";
import { registerQ, Q_OPTIONAL_VALUES } from "./q.js";
import type { OptionalValueFlag } from "../argv.js";
import { COMPACT_OPTIONAL_VALUES } from "./conversation/compact.js";
import { PRINT_OPTIONAL_VALUES } from "./conversation/print.js";
import { COMPACT_SPEC_FLAG } from "../compact-options.js";

export type Register = (program: Command, ctx: Context) => void;

export const COMMANDS: Register[] = [registerQ, registerInit, registerConversation, registerConfig];

/** Flags whose value must be attached with `=`, per command (see argv.ts). */
export const OPTIONAL_VALUES: Record<string, OptionalValueFlag[]> = {
  "conversation compact": COMPACT_OPTIONAL_VALUES,
  "conversation fork": [COMPACT_SPEC_FLAG],
  "conversation print": PRINT_OPTIONAL_VALUES,
  q: Q_OPTIONAL_VALUES,
  query: Q_OPTIONAL_VALUES,
};
