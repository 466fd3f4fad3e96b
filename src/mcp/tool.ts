// Owns tools served by MCP servers: what the model sees (the server's name,
// description and input schema, unless config overrides them), how a call is
// approved (as for local tools, with the server and its hints on the prompt)
// and how it runs (a tools/call, cancelled on Ctrl-C, its result in words).
import { isJsonObject } from "../events/json.js";
import { DEFAULT_TIMEOUT_SECS, RECORDED_OUTPUT_BYTES, truncateOutput } from "../tools/local.js";
import type { McpToolSpec } from "../tools/registry.js";
import { PromptInterruptedError } from "../tools/prompter.js";
import type { Tool, ToolOutcome } from "../tools/types.js";
import type { McpToolInfo } from "./cache.js";
import { mcpOutcome } from "./results.js";
import type { McpServers } from "./servers.js";

/** The server's schema, with the properties config describes further (JP's `parameters.NAME.summary`) merged in. */
function mergedSchema(
  server: Record<string, unknown>,
  configured: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!configured) return server;
  const properties = isJsonObject(server.properties) ? { ...server.properties } : {};
  for (const [key, raw] of Object.entries(configured)) {
    if (!isJsonObject(raw)) continue;
    const { required: _required, summary, ...rest } = raw;
    const known = isJsonObject(properties[key]) ? properties[key] : {};
    properties[key] = { ...known, ...rest, ...(typeof summary === "string" ? { description: summary } : {}) };
  }
  return { ...server, type: "object", properties };
}

/** The server's hints, as the approval prompt shows them. */
function hints(annotations: Record<string, unknown> | undefined): string[] {
  if (!annotations) return [];
  const out: string[] = [];
  if (annotations.readOnlyHint === true) out.push("read-only");
  else if (annotations.destructiveHint === true) out.push("destructive");
  else if (annotations.destructiveHint === false) out.push("not destructive");
  if (annotations.idempotentHint === true && annotations.readOnlyHint !== true) out.push("idempotent");
  if (annotations.openWorldHint === true) out.push("open world");
  return out;
}

export function createMcpTool(
  spec: McpToolSpec,
  info: McpToolInfo,
  servers: McpServers,
  fromConversation = false,
): Tool {
  const { config, server, remote } = spec;
  // The config of a spec has the `*` defaults merged in already.
  const timeoutMs = (config.timeout_secs ?? DEFAULT_TIMEOUT_SECS) * 1000;
  const described = [config.summary, config.description].filter((d) => d !== undefined).join("\n\n");
  const serverConfig = servers.config(server);
  return {
    name: spec.name,
    description: described || info.description || info.title || `${remote} (MCP server ${server})`,
    parameters: mergedSchema(info.input_schema, config.parameters),
    source: "mcp",
    // A tool the conversation named is asked for, whatever it says.
    run: fromConversation ? "ask" : (config.run ?? "ask"),
    enable: spec.enable,
    ...(config.cancellation_response === undefined ? {} : { declined: config.cancellation_response }),
    // Hints come only from the live server (see confirm): a cached list could say anything.
    about: `MCP server ${server}`,
    async confirm(signal) {
      const live = await servers.liveTool(server, remote, signal);
      if (!live) return { missing: `MCP server ${server} has no tool ${remote} now; it was not run` };
      return { about: [`MCP server ${server}`, ...hints(live.annotations)].join(", ") };
    },
    definition: () =>
      [
        `calls ${remote} on MCP server ${server}` +
          (serverConfig?.type === "stdio"
            ? ` (runs: ${JSON.stringify([serverConfig.command, ...(serverConfig.arguments ?? [])])})`
            : serverConfig
              ? ` (at ${serverConfig.url})`
              : ""),
        ...(fromConversation
          ? ["named by this conversation's recorded config, not by your own files: it is always asked for"]
          : []),
      ].join("\n"),
    async execute(args, ctx): Promise<ToolOutcome> {
      let result: unknown;
      try {
        result = await servers.call(server, remote, args, {
          signal: ctx.signal,
          timeoutMs,
          ...(ctx.progress ? { onProgress: ctx.progress } : {}),
          elicit: async (form) => {
            const { answerElicitation } = await import("./elicit.js");
            // Ctrl-C at the form dismisses it: the server hears "cancel", as the protocol names that.
            return answerElicitation(server, form, ctx.prompter).catch((error: unknown) => {
              if (error instanceof PromptInterruptedError) return { action: "cancel" as const };
              throw error;
            });
          },
        });
      } catch (error) {
        if (ctx.signal.aborted) return { content: "interrupted", isError: true };
        const message = error instanceof Error ? error.message : String(error);
        return { content: `${spec.name} failed: ${message}`, isError: true };
      }
      const outcome = mcpOutcome(result);
      return {
        content: truncateOutput(outcome.content, RECORDED_OUTPUT_BYTES),
        isError: outcome.isError,
        ...(outcome.images.length ? { images: outcome.images } : {}),
      };
    },
  };
}
