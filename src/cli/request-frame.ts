// Owns the frame of the next request as `jp q` would build it now, for the
// commands that count it without asking (show --context, compact's dry run):
// the system prompt, the tools offered with their definitions, and the view's
// output caps.
import type { Context } from "./context.js";
import type { Config } from "../config/schema.js";
import type { RequestFrame } from "../tokens/request.js";
import { outputCapOf } from "../tools/local.js";
import { createRecallTool, withRecallWhenUseful } from "../tools/recall.js";
import { buildRegistry, isMcpToolSpec, selectTools } from "../tools/registry.js";
import type { Tool } from "../tools/types.js";
import { providerKeyEnvs } from "../llm/create-provider.js";
import { knownFacts } from "../llm/model-info.js";

/** The next request's frame, and the MCP tools it leaves uncounted (their servers describe them; none is started). */
export async function nextRequestFrame(
  ctx: Context,
  config: Config,
): Promise<{ frame: RequestFrame; mcpNotCounted: string[] }> {
  const capOf = outputCapOf(config);
  const registry = await buildRegistry(config, [createRecallTool(capOf)], {
    env: ctx.env,
    secrets: providerKeyEnvs(config),
    workspace: ctx.maybeWorkspace()?.root ?? ctx.cwd,
  });
  const selected = selectTools(registry, []);
  const local = selected.filter((t): t is Tool => !isMcpToolSpec(t));
  // As `jp q` offers them: on a model that binds reasoning to its prefix, recall from the first request.
  const modelId = config.assistant?.model?.id ?? "";
  const stable = knownFacts(modelId, config, ctx.env, ctx.clock.now()).preservedThinking === true;
  const always = withRecallWhenUseful(local, { activeCompactions: 0, cutOutputs: 0, stable });
  const definition = (t: Tool) => ({ name: t.name, description: t.description, parameters: t.parameters });
  const system = config.assistant?.system_prompt;
  return {
    frame: {
      ...(system ? { system } : {}),
      tools: always.map(definition),
      whenCompacted: local.filter((t) => !always.includes(t)).map(definition),
      capOf,
    },
    mcpNotCounted: selected.filter(isMcpToolSpec).map((t) => t.name),
  };
}
