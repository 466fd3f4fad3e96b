// `jp conversation show --context`: what the next request holds, as `jp q`
// would build it now (the projection, the view's output caps, the tools offered).
import type { Context } from "./context.js";
import { project, streamShape } from "../compaction/index.js";
import { knownFacts } from "../llm/model-info.js";
import { renderContext, summarizeContext } from "../render/context.js";
import { counted } from "../render/words.js";
import { leftOutLines } from "../render/reasoning.js";
import type { ConversationRef } from "../store/conversations.js";
import { requestItems } from "../tokens/request.js";
import { nextRequestFrame } from "./request-frame.js";

/** `show --context`: the next request's parts, as `jp q` would build it now. */
export async function showContext(ctx: Context, ref: ConversationRef, json: boolean): Promise<void> {
  const events = ctx.store().readEvents(ref);
  const { config } = await ctx.config({ conversation: ref });
  const projection = project(events);
  const { frame, mcpNotCounted: mcp } = await nextRequestFrame(ctx, config);
  const counter = await ctx.tokenCounter(config);
  const modelId = config.assistant?.model?.id ?? "";
  const window = knownFacts(modelId, config, ctx.env, ctx.clock.now()).contextWindow;
  const items = requestItems(frame, projection, counter);
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
