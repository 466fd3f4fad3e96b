// `jp conversation show --context`: what the next request holds, as `jp q`
// would build it now (the projection, the view's output caps, the tools offered).
import type { Context } from "./context.js";
import { capToolOutputs, project, streamShape } from "../compaction/index.js";
import { knownFacts } from "../llm/model-info.js";
import { contextItems, renderContext, summarizeContext } from "../render/context.js";
import { counted } from "../render/words.js";
import { leftOutLines } from "../render/reasoning.js";
import type { ConversationRef } from "../store/conversations.js";
import { outputCapOf } from "../tools/local.js";
import { createRecallTool, withRecallWhenUseful } from "../tools/recall.js";
import { buildRegistry, isMcpToolSpec, selectTools } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";

/** `show --context`: the next request's parts, as `jp q` would build it now. */
export async function showContext(ctx: Context, ref: ConversationRef, json: boolean): Promise<void> {
  const events = ctx.store().readEvents(ref);
  const { config } = await ctx.config({ conversation: ref });
  const projection = project(events);
  const capOf = outputCapOf(config);
  const registry = await buildRegistry(config, [createRecallTool(capOf)], {
    env: ctx.env,
    workspace: ctx.maybeWorkspace()?.root ?? ctx.cwd,
  });
  const selected = selectTools(registry, []);
  const offered = withRecallWhenUseful(
    selected.filter((t): t is Tool => !isMcpToolSpec(t)),
    {
      activeCompactions: projection.stats.activeCompactions,
      cutOutputs: capToolOutputs(projection.events, capOf).cut,
    },
  );
  // MCP tools are described by their servers, which show does not start.
  const mcp = selected.filter(isMcpToolSpec).map((t) => t.name);
  const counter = await ctx.tokenCounter(config);
  const modelId = config.assistant?.model?.id ?? "";
  const window = knownFacts(modelId, config).contextWindow;
  const items = contextItems(
    {
      ...(config.assistant?.system_prompt ? { system: config.assistant.system_prompt } : {}),
      tools: offered.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      turns: projection.turns,
    },
    counter,
    capOf,
  );
  const summary = summarizeContext(items, window);
  if (json) {
    ctx.out(
      JSON.stringify(
        {
          id: ref.id,
          model: modelId,
          approximate: counter.approximate,
          ...summary,
          items,
          mcp_tools_not_counted: mcp,
        },
        null,
        2,
      ),
    );
    return;
  }
  const lines = renderContext(summary, {
    modelId,
    approximate: counter.approximate,
    bars: ctx.stdout.isTTY === true,
  });
  // What the last request left out of the reasoning it could have sent back (preserved thinking).
  const leftOut = leftOutLines(streamShape(events).reasoning.leftOut);
  if (leftOut.length) lines.push("", ...leftOut.map((l) => `Not sent: ${l}`));
  if (mcp.length)
    lines.push(
      "",
      `Not counted: ${counted(mcp.length, "MCP tool")} (${mcp.join(", ")}), described by servers show does not start.`,
    );
  ctx.out(lines.join("\n"));
}
