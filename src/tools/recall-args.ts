// Owns the statement of the `recall` tool's arguments, in zod. Nothing loads
// this at run time: its checker and JSON Schema are derived from it.
import * as z from "zod";

/** The one schema of the tool's arguments; scripts/schema-checks.mjs derives recall-args.check.ts from it. */
export const Args = z.strictObject({
  turns: z
    .string()
    .min(1)
    .optional()
    .describe('raw turns to read back whole, numbered as the markers name them: "4" or "2-5"'),
  call: z
    .string()
    .min(1)
    .optional()
    .describe("a tool call id: its arguments and recorded output (a marker names the id)"),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("with call: the character of the output to start at (a marker gives it)"),
  length: z.number().int().positive().optional().describe("with call: how many characters to read"),
  query: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe(
      "words searched in what compaction or a cut took from view (all words, any case; at most 32 words)",
    ),
});
export type RecallArgs = z.infer<typeof Args>;
