// Owns the list of top-level commands, in the order `jp --help` shows them.
import type { Command } from "commander";
import type { Context } from "../context.js";
import { registerInit } from "./init.js";
import { registerConversation } from "./conversation/index.js";

export type Register = (program: Command, ctx: Context) => void;

export const COMMANDS: Register[] = [registerInit, registerConversation];
