// Owns the registry of the tools `jp q` can offer in a conversation: the
// built-ins (with what their previews need) and the config's tools, as `jp q`
// and a summary the provider writes (its request's header) both build it.
import type { Config } from "../config/schema.js";
import { droppedText, renderCompactPreview } from "../render/compact-preview.js";
import type { ConversationRef } from "../store/conversations.js";
import { builtinTools } from "../tools/builtins.js";
import { workspaceId } from "../store/workspace.js";
import { buildRegistry } from "../tools/registry.js";
import type { Context } from "./context.js";
import { nextRequestFrame } from "./request-frame.js";
import { providerKeyEnvs } from "../llm/create-provider.js";
import { droppedOnEdit, lostReasoning } from "../llm/reasoning-binding.js";
import { dropsReasoningOnEdit } from "./provider-summaries.js";

/** `fromConversation`: the tools whose command the conversation's recorded config set (always asked for). */
export async function conversationRegistry(
  ctx: Context,
  config: Config,
  ref: ConversationRef,
  fromConversation?: ReadonlySet<string>,
) {
  const builtins = builtinTools(
    {
      now: () => ctx.clock.now(),
      newId: ctx.newId,
      counter: () => ctx.tokenCounter(config),
      frame: async () => (await nextRequestFrame(ctx, config)).frame,
      preview: { render: renderCompactPreview, dropped: droppedText },
      lostReasoning: dropsReasoningOnEdit(config) ? droppedOnEdit : lostReasoning,
    },
    config,
    ref.id,
  );
  const workspace = ctx.maybeWorkspace();
  return buildRegistry(config, builtins, {
    env: ctx.env,
    secrets: providerKeyEnvs(config),
    workspace: workspace?.root ?? ctx.cwd,
    invocation: { workspaceId: workspace ? workspaceId(workspace) : "", conversationId: ref.id },
    ...(fromConversation ? { fromConversation } : {}),
  });
}
