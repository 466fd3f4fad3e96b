// Owns what a tool is to the turn loop: a definition for the model, how its
// calls are approved, and how it runs. Built-ins and local tools share it.
import type { Enable } from "../config/enable.js";
import type { Event } from "../events/index.js";
import type { Prompter } from "./prompter.js";

/** An image a tool result holds besides its text. */
export interface ToolImage {
  media_type: string;
  /** Base64, as the tool gave it. */
  data: string;
}

export type RunMode = "ask" | "unattended" | "edit" | "skip";
export type { Enable };

/** What the person (or the run mode) decided of a call: run it with these arguments, or not, with why. */
export type Approval = { run: true; args: Record<string, unknown> } | { run: false; reason: string };

export interface ToolContext {
  /** The conversation as it stands, read-only. */
  events: readonly Event[];
  cwd: string;
  signal: AbortSignal;
  /** The raw turn in progress (0-based). */
  turn: number;
  /** Answers given with a capital key (Y, N), by tool name, for the rest of the turn. */
  remembered?: Map<string, "run" | "decline">;
  /** Shows a running call's output as it comes (a local command's stdout and stderr). */
  output?: (chunk: string) => void;
  /** Shows a running call's progress (an MCP server's progress notifications). */
  progress?: (line: string) => void;
  /** Asks the person at the terminal (a JP tool's `needs_input` question). */
  prompter?: Prompter;
}

export interface ToolOutcome {
  content: string;
  isError: boolean;
  /**
   * Changes to the conversation the tool asks for (a compaction, say). The
   * loop appends them with the tool's response in one group; a tool never
   * writes to the conversation itself.
   */
  effects?: Event[];
  /** Images the result holds besides its text (an MCP tool's), recorded with it. */
  images?: ToolImage[];
}

export interface Tool {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  source: "local" | "builtin" | "mcp";
  /** Where the tool runs and what its server says of it, shown on the approval prompt. */
  about?: string;
  run: RunMode;
  enable: Enable;
  /**
   * Ask where the tool lives whether it still offers it, before anything is
   * asked or run: an MCP tool offered from a cached list is confirmed by its
   * live server, whose hints then replace `about`. A `missing` answer goes
   * back to the model as a tool error and nothing runs.
   */
  confirm?(signal: AbortSignal): Promise<{ about: string } | { missing: string }>;
  /** Check arguments before anything is asked or run; a message goes back to the model as a tool error. */
  validate?(args: Record<string, unknown>, ctx: ToolContext): string | undefined;
  /** What the tool runs for these arguments and who defined it, shown on `p` at the approval prompt. */
  definition?(args: Record<string, unknown>): string;
  /** What the model is told when the user declines a call (`cancellation_response`); jp's own words without it. */
  declined?: string;
  /** Why the tool does not run as its config says, told when it is offered. */
  warning?: string;
  /** What the approval prompt shows; defaults to the arguments as JSON. */
  renderArguments?(args: Record<string, unknown>, ctx: ToolContext): Promise<string> | string;
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
  /** A tool with its own approval conversation (the compact tool's y/n/e/?); the default is approveCall. */
  approve?(args: Record<string, unknown>, ctx: ToolContext, prompter: Prompter): Promise<Approval>;
}
