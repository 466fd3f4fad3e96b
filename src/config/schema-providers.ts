// The schema of the providers' configuration (`[providers.llm.NAME]` and
// `[providers.mcp.NAME]`): where a model provider sits and how it is spoken
// to, and how an MCP server is started or reached. Part of the one schema (schema.ts).
import * as z from "zod";

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

export const Providers = z
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
