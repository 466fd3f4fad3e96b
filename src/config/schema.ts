// The one place that names every configuration key, its accepted values and
// its help text. Every key is optional here: layers are partial, and defaults
// come from the lowest layer, config/default.toml. A valid config is checked
// by the checker derived from this schema (schema.check.ts, written by
// scripts/schema-checks.mjs); zod loads only to explain an invalid one.
import * as z from "zod";
import { TOOL_HINTS, TOOL_MODES } from "../compaction/policy.js";
import { CONFIG_CHECKS } from "./checks.js";

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

export const ProviderConfig = z.strictObject({
  base_url: z.string().optional().describe("API base URL (OpenAI-compatible servers, proxies)"),
  base_url_env: z
    .string()
    .optional()
    .describe(
      "environment variable holding the API base URL; when set, it wins over base_url (as JP reads it)",
    ),
  api_key_env: z.string().optional().describe("environment variable holding the API key"),
  proxy: z
    .string()
    .optional()
    .describe(
      'proxy URL for this provider ("" for none); absent, HTTPS_PROXY / HTTP_PROXY / NO_PROXY decide',
    ),
  api: z
    .enum(["anthropic", "gemini", "responses", "chat", "ollama"])
    .optional()
    .describe(
      "which API the provider speaks: Anthropic's Messages API (default for anthropic), Gemini's generateContent (default for google), OpenAI's Responses API (default for openai), Ollama's own /api/chat (default for ollama), or Chat Completions (every other server)",
    ),
  keep_alive: z
    .string()
    .optional()
    .describe('how long Ollama keeps the model loaded after a request ("5m", "1h", "-1" for ever)'),
  beta: z
    .array(z.string())
    .optional()
    .describe("beta features to turn on, sent as the anthropic-beta header (Anthropic)"),
  prompt_cache_key: z
    .boolean()
    .optional()
    .describe(
      "send prompt_cache_key to this OpenAI-compatible server (for servers that route by it; others may reject it)",
    ),
});

const McpCommon = {
  optional: z
    .boolean()
    .optional()
    .describe("leave the server's tools out with a warning when it cannot start, instead of failing"),
  startup_timeout_secs: z
    .number()
    .positive()
    .optional()
    .describe("give up on a server that has not answered its start-up after this long (default 30)"),
  all_tools: z
    .boolean()
    .optional()
    .describe("offer every tool of the server under its own name, without a [conversation.tools] entry each"),
};

export const McpServerConfig = z.union([
  z.strictObject({
    type: z.literal("stdio").describe("a server jp starts and talks to on stdin/stdout"),
    command: z.string().describe("the program to run"),
    arguments: z.array(z.string()).optional().describe("its arguments"),
    variables: z
      .array(z.string())
      .optional()
      .describe(
        "environment variables passed to the server besides PATH, HOME, LANG, TERM (never a provider key)",
      ),
    cwd: z.string().optional().describe("working directory (default: the workspace root)"),
    checksum: z
      .strictObject({
        algorithm: z.enum(["sha256", "sha1"]),
        value: z.string().describe("the program's digest, in hex"),
      })
      .optional()
      .describe("start the server only when its program has this digest (JP's checksum)"),
    ...McpCommon,
  }),
  z.strictObject({
    type: z.literal("http").describe("a server reached over Streamable HTTP"),
    url: z.string().describe("the server's MCP endpoint"),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .describe("request headers; ${NAME} in a value is the environment variable NAME (for bearer tokens)"),
    ...McpCommon,
  }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfig>;

const Providers = z
  .object({
    mcp: z.record(z.string(), McpServerConfig).optional().describe("MCP servers, by name"),
    llm: z
      .strictObject({
        aliases: z
          .record(z.string(), z.string())
          .optional()
          .describe('short names for models, e.g. sonnet = "anthropic/claude-sonnet-5" (-m sonnet)'),
      })
      .optional(),
  })
  .catchall(ProviderConfig);

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
          effort: EffortLevel.optional().describe(
            "how much the model thinks (low … max); on models with manual budgets it becomes one",
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
