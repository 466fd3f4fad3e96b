// Owns the statement of the \`compact\` tool's arguments, in zod. Nothing loads
// this at run time: its checker and JSON Schema are derived from it.
import * as z from "zod";
import { TOOL_MODES } from "../compaction/policy.js";

/**
 * The one schema of the tool's arguments. Derived from it by
 * scripts/schema-checks.mjs into compact-args.check.ts: the checker of a
 * call, the JSON Schema the model sees, and the field list of errors.
 */
export const Rule = z.strictObject({
  keep_first: z.number().int().nonnegative().optional().describe("turns at the start left untouched"),
  keep_last: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("turns at the end left untouched; the current turn always is"),
  before_quote: z
    .string()
    .min(1)
    .optional()
    .describe(
      "compact what comes before this: a verbatim passage from the first turn to keep (the range ends at the turn before it)",
    ),
  after_quote: z
    .string()
    .min(1)
    .optional()
    .describe(
      "compact what comes after this: a verbatim passage from the last turn to keep (the range starts at the turn after it)",
    ),
  reasoning: z.literal("strip").optional().describe("strip the reasoning of the range"),
  tool_calls: z.enum(TOOL_MODES).optional().describe("strip or omit the tool calls of the range"),
  summary: z.string().min(1).optional().describe("text that replaces the range; stands alone"),
  pin_quote: z
    .string()
    .min(1)
    .optional()
    .describe(
      "pin the turn holding this verbatim passage (the one with the current task, say): no compaction changes it, this one included",
    ),
  note: z.string().min(1).describe("one sentence on why (required)"),
});
export const Args = z.strictObject({ rules: z.array(Rule).min(1) });
export type CompactArgs = z.infer<typeof Args>;
