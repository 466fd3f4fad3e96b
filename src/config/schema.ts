// The one place that names every configuration key, its accepted values and
// its help text. Every key is optional here: layers are partial, and defaults
// come from the lowest layer, config/default.toml. A valid config is checked
// by the checker derived from this schema (schema.check.ts, written by
// scripts/schema-checks.mjs); zod loads only to explain an invalid one.
import * as z from "zod";
import { TOOL_MODES } from "../compaction/policy.js";
import { CONFIG_CHECKS } from "./checks.js";
import { Providers } from "./schema-providers.js";
import { ToolConfig } from "./schema-tools.js";

// Parts of the one schema, each in its own file; imported from here.
export { McpServerConfig, ProviderConfig } from "./schema-providers.js";
export { ToolConfig } from "./schema-tools.js";

const KeepBound = z
  .union([z.number().int(), z.string()])
  .refine(CONFIG_CHECKS.keepBound.test, { error: (issue) => CONFIG_CHECKS.keepBound.message(issue.input) })
  .describe(
    "a count (4), a 1-based position (@5), a position from the end (-3), a duration (5h, 2days) or last-compaction",
  );

const ToolCallsValue = z.union([
  z.enum(TOOL_MODES),
  z.strictObject({ policy: z.literal("strip"), request: z.boolean(), response: z.boolean() }),
  z.strictObject({ policy: z.literal("omit") }),
]);

const ModelRef = z.strictObject({
  id: z.string().optional().describe("provider/name, e.g. anthropic/claude-sonnet-5-5"),
});

export const CompactionRuleConfig = z.strictObject({
  keep_first: KeepBound.optional().describe("turns left untouched at the start (default 1)"),
  keep_last: KeepBound.optional().describe("turns left untouched at the end (default 1)"),
  reasoning: z.literal("strip").optional().describe("strip reasoning"),
  tool_calls: ToolCallsValue.optional().describe("strip | strip-requests | strip-responses | omit"),
  summary: z
    .strictObject({
      instructions: z.string().optional().describe("custom summarisation prompt"),
      context: z.string().optional().describe("what the summary should keep in view"),
      model: ModelRef.optional(),
    })
    .optional()
    .describe("replace the range with a generated summary"),
  record: z
    .boolean()
    .optional()
    .describe(
      "with a summary: also show the model the record of the work of those turns, derived from the log (default true)",
    ),
});
export type CompactionRuleConfig = z.infer<typeof CompactionRuleConfig>;

const RulesValue = z.union([
  z.array(CompactionRuleConfig),
  z.strictObject({ strategy: z.enum(["append", "replace"]), value: z.array(CompactionRuleConfig) }),
]);

export const AutoCompactionConfig = z.strictObject({
  enabled: z.boolean().optional().describe("compact automatically before a request goes over budget"),
  max_tokens: z.number().int().positive().optional().describe("token budget of a request"),
  trigger_ratio: z
    .number()
    .gt(0)
    .lte(1)
    .optional()
    .describe("budget as a share of the model's context window"),
  keep_tail: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("tokens of the newest traffic always kept verbatim"),
  min_saving: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("skip a compaction that frees fewer tokens than this (default: a fifth of the budget)"),
  relief: z
    .enum(["tail", "just_under_budget"])
    .optional()
    .describe(
      "in-turn relief: strip every tool result older than keep_tail at once (tail), or only enough to get under the budget (the old behaviour, kept for comparison)",
    ),
  min_turns: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("never compact a conversation with fewer turns"),
  rule: CompactionRuleConfig.optional().describe("what to do with whole earlier turns"),
});

const cacheRates = {
  cache_read: z.number().nonnegative().optional().describe("input tokens read from the cache"),
  cache_write: z.number().nonnegative().optional().describe("input tokens written to the cache"),
  cache_write_1h: z
    .number()
    .nonnegative()
    .optional()
    .describe("input tokens written to the cache for an hour (default: 1.6 x cache_write)"),
};

/** A long-prompt rate: where a provider prices a whole request by how long its prompt is. */
export const PriceTier = z.strictObject({
  above: z
    .number()
    .int()
    .nonnegative()
    .describe("prompts of more than this many tokens (cached ones included)"),
  input: z.number().nonnegative().optional().describe("fresh input tokens"),
  output: z.number().nonnegative().optional().describe("output tokens"),
  ...cacheRates,
});

export const Price = z.strictObject({
  input: z.number().nonnegative().describe("fresh input tokens"),
  output: z.number().nonnegative().describe("output tokens"),
  ...cacheRates,
  tiers: z
    .array(PriceTier)
    .optional()
    .describe(
      "long-prompt rates: a request whose prompt is over a tier's `above` pays that tier's rates on every token",
    ),
});
export type PriceTier = z.infer<typeof PriceTier>;
export type Price = z.infer<typeof Price>;

const EffortLevel = z.enum(["none", "minimal", "low", "medium", "high", "xhigh", "max"]);
/** An effort in the config: a level, or JP's "auto" (think where the model can, at medium; see resolveEffort). */
const ConfigEffort = z.enum([...EffortLevel.options, "auto"]);

export const ModelOverride = z.strictObject({
  context_window: z.number().int().positive().optional().describe("the context window in tokens"),
  max_output_tokens: z.number().int().positive().optional().describe("the most tokens a response may have"),
  thinking: z
    .array(z.enum(["adaptive", "enabled", "disabled", "between_tools"]))
    .optional()
    .describe("the thinking types the model accepts (Anthropic)"),
  efforts: z.array(EffortLevel).optional().describe("the effort levels the model accepts"),
  forced_tool_use: z
    .boolean()
    .optional()
    .describe("whether the model accepts a forced tool call (false: -u asks for it instead)"),
  reasoning: z
    .boolean()
    .optional()
    .describe("whether it is a reasoning model whose thinking counts against the output cap (OpenAI)"),
  preserved_thinking: z
    .boolean()
    .optional()
    .describe(
      "whether the model binds each thinking block to the request it was written in (Anthropic's preserved thinking)",
    ),
  lifecycle: z
    .enum(["active", "deprecated", "retired"])
    .optional()
    .describe("where the model is in its life"),
  retires_at: z.string().optional().describe("when a deprecated model retires (RFC 3339)"),
  replacement: z.string().optional().describe("the model (provider/name) that replaces it"),
  price: Price.optional().describe("USD per million tokens"),
});
export type ModelOverride = z.infer<typeof ModelOverride>;

export const Config = z.strictObject({
  extends: z
    .array(z.string())
    .optional()
    .describe("more config files read before this one, relative to it; globs (*, **) allowed"),
  config_load_paths: z
    .array(z.string())
    .optional()
    .describe("folders (relative to the workspace root) where -c NAME finds NAME.toml"),
  assistant: z
    .strictObject({
      model: z
        .strictObject({
          id: z.string().optional().describe("provider/name of the model"),
          context_window: z
            .number()
            .int()
            .positive()
            .optional()
            .describe("the model's context window in tokens"),
        })
        .optional(),
      system_prompt: z.string().optional().describe("the system prompt sent first"),
      cache: z
        .boolean()
        .optional()
        .describe(
          "ask the provider to cache the request prefix (Anthropic cache_control, OpenAI prompt_cache_key)",
        ),
      cache_ttl: z
        .enum(["5m", "1h"])
        .optional()
        .describe("how long the provider keeps a cached prefix (Anthropic: 5m or 1h)"),
      request: z
        .strictObject({
          max_retries: z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe("retries of transient provider failures"),
          max_continuations: z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe("times an answer cut off at max_tokens is asked to go on (default 5, as JP; 0: never)"),
          max_tokens: z
            .number()
            .int()
            .positive()
            .optional()
            .describe(
              "the most tokens a response may have (default: the model's own cap; 8,192 where unknown)",
            ),
          timeout_secs: z
            .number()
            .positive()
            .optional()
            .describe("give up on a request whose answer has not begun after this long"),
          idle_timeout_secs: z
            .number()
            .positive()
            .optional()
            .describe("give up on (and retry) an answer that stops arriving for this long"),
          backoff_ms: z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe("first wait before a retry; doubles each time"),
        })
        .optional(),
      reasoning: z
        .strictObject({
          budget_tokens: z
            .number()
            .int()
            .nonnegative()
            .optional()
            .describe("extended thinking budget (0 is off)"),
          effort: ConfigEffort.optional().describe(
            'how much the model thinks (low … max, or "auto": medium on a model that thinks, none elsewhere); on models with manual budgets it becomes one',
          ),
          display: z.enum(["dim", "hidden"]).optional().describe("how reasoning is shown while it streams"),
          prefix_mismatch: z
            .enum(["drop", "error"])
            .optional()
            .describe(
              "what a model with preserved thinking does with a thinking block whose history changed: drop it (default) or refuse the request",
            ),
        })
        .optional(),
      tokens: z
        .strictObject({
          estimate: z
            .enum(["tokenizer", "chars"])
            .optional()
            .describe("count with a tokenizer, or estimate chars/4"),
        })
        .optional(),
    })
    .optional(),
  conversation: z
    .strictObject({
      compaction: z
        .strictObject({
          rules: RulesValue.optional().describe("compaction rules, applied in order"),
          auto: AutoCompactionConfig.optional(),
          provider_summaries: z
            .boolean()
            .optional()
            .describe(
              "have the conversation's provider write generated summaries where it can keep later reasoning valid (Anthropic's compaction; default true)",
            ),
        })
        .optional(),
      tools: z.record(z.string(), ToolConfig).optional().describe("tools, by name; '*' holds defaults"),
      title: z
        .strictObject({
          generate: z
            .strictObject({
              model: ModelRef.optional().describe(
                "the (small) model that titles a new conversation after its first answer",
              ),
            })
            .optional(),
        })
        .optional()
        .describe("a new conversation's title: its first question, unless a model is set to write one"),
      attachments: z
        .array(
          z.union([
            z.string(),
            z.strictObject({
              type: z.string().describe("file, http, https or cmd"),
              path: z.string().describe("the file, the address, or the program"),
              params: z
                .record(z.string(), z.union([z.string(), z.array(z.string())]))
                .optional()
                .describe("a cmd's arg (a list) and description"),
            }),
          ]),
        )
        .optional()
        .describe(
          "attached to every request, read anew each time, as JP does: a path, an http(s) URL, cmd://PROGRAM?arg=… (its output), or { type, path, params }; each layer's list adds to the last",
        ),
    })
    .optional(),
  providers: Providers.optional(),
  models: z
    .record(z.string(), ModelOverride)
    .optional()
    .describe("figures that override what the provider and jp's table say of a model, by provider/name"),
  prices: z
    .record(z.string(), Price)
    .optional()
    .describe("USD per million tokens, by model name prefix (the longest matching prefix wins)"),
});
export type Config = z.infer<typeof Config>;
