// The schema of a tool's configuration (`[conversation.tools.NAME]`): how it
// runs, what it may touch, how it is enabled and approved, its questions and
// its compaction hints, in JP's forms. Part of the one schema (schema.ts).
import * as z from "zod";
import { TOOL_HINTS } from "../compaction/policy.js";
import { CONFIG_CHECKS } from "./checks.js";

export const ToolConfig = z.strictObject({
  compaction: z.enum(TOOL_HINTS).optional().describe("per-tool compaction hint"),
  source: z
    .string()
    .refine(CONFIG_CHECKS.toolSource.test, {
      error: (issue) => CONFIG_CHECKS.toolSource.message(issue.input),
    })
    .optional()
    .describe('where the tool comes from: "local", "builtin", "mcp.SERVER" or "mcp.SERVER.TOOL"'),
  command: z
    .union([z.string(), z.array(z.string())])
    .optional()
    .describe("the command a local tool runs"),
  summary: z.string().optional().describe("what the tool does, as shown to the model"),
  description: z.string().optional().describe("more on what the tool does, shown to the model after summary"),
  parameters: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("JSON Schema properties of the arguments"),
  run: z.enum(["ask", "unattended", "edit", "skip"]).optional().describe("how a call is approved"),
  enable: z
    .union([
      z.boolean(),
      z.enum(["on", "off", "explicit", "always"]),
      z.strictObject({
        state: z.boolean().optional().describe("whether the tool is offered"),
        allow_toggle: z
          .enum(["any", "never", "if_named", "if_named_or_group"])
          .optional()
          .describe("which -t/-T may change that: any, never, or one that names the tool"),
      }),
    ])
    .optional()
    .describe(
      'whether the model may call it: true, false, "explicit" (only when -t names it), "always" (-T cannot take it away), or { state, allow_toggle }',
    ),
  env: z
    .array(z.string())
    .optional()
    .describe(
      "environment variables a local tool receives besides PATH, HOME, LANG, TERM (never a provider key)",
    ),
  options: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("settings a JP tool reads from {{tool.options}}, passed as given"),
  questions: z
    .record(
      z.string(),
      z.strictObject({
        answer: z.unknown().optional().describe("the answer given without asking"),
      }),
    )
    .optional()
    .describe("answers to a JP tool's needs_input questions, by question id, given without asking"),
  access: z
    .strictObject({
      fs: z
        .array(
          z.strictObject({
            path: z.string().describe('a path in the workspace ("." for all of it)'),
            external: z.boolean().optional().describe("the path is a symlink out of the workspace"),
            read: z.boolean().optional(),
            write: z.boolean().optional().describe("create, update and delete"),
            create: z.boolean().optional(),
            update: z.boolean().optional(),
            delete: z.boolean().optional(),
            execute: z.boolean().optional(),
          }),
        )
        .optional(),
    })
    .optional()
    .describe(
      "what of the workspace a JP tool may touch, passed in {{context}} for it to check (JP's access.fs)",
    ),
  cancellation_response: z
    .string()
    .optional()
    .describe("what the model is told when the user declines a call"),
  timeout_secs: z.number().positive().optional().describe("stop a local tool after this long"),
  max_output_bytes: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      "show the model at most this many bytes of a tool's output, as head and tail (the log keeps it whole, up to 10 MiB; recall reads the rest)",
    ),
});
export type ToolConfig = z.infer<typeof ToolConfig>;
