// Owns asking Anthropic's Models API what a model is: `GET /v1/models/{id}`
// gives its window, output cap, the thinking types and effort levels it
// accepts, and its lifecycle; mapped here to jp's model facts.
import type { ModelInfo } from "@anthropic-ai/sdk/resources/models";
import type { Effort, ModelFacts } from "../../capabilities.js";
import { askModelApiFor, endpoint, NO_SUCH_MODEL, type ProviderOptions } from "../../http.js";
import { isJsonObject } from "../../../events/index.js";

/**
 * Whether the answer says a capability (`thinking`, `effort.high`…) is
 * supported; undefined where it says nothing. The real API lists only the
 * capabilities a model has (a thinking type it lacks is not there at all),
 * whatever the SDK's types promise.
 */
function supported(capabilities: unknown, ...path: string[]): boolean | undefined {
  let at: unknown = capabilities;
  for (const key of path) at = isJsonObject(at) ? at[key] : undefined;
  return isJsonObject(at) && typeof at.supported === "boolean" ? at.supported : undefined;
}

/**
 * A Models API answer as it comes. The SDK's ModelInfo names every key any
 * model may have; the API sends a model's own (an active model has no
 * lifecycle fields, and only the thinking types the API lists are there).
 */
export type AnsweredModelInfo = Pick<ModelInfo, "type" | "id" | "display_name" | "created_at"> &
  Partial<Omit<ModelInfo, "type" | "id" | "display_name" | "created_at" | "capabilities">> & {
    capabilities?: unknown;
  };

const EFFORT_LEVELS = ["low", "medium", "high", "xhigh", "max"] as const satisfies readonly Effort[];

/** Facts of a Models API answer; figures it leaves out or null stay unknown. */
export function factsOfModelInfo(info: AnsweredModelInfo): ModelFacts {
  const facts: ModelFacts = {};
  if (info.lifecycle) facts.lifecycle = info.lifecycle;
  if (info.max_input_tokens) facts.contextWindow = info.max_input_tokens;
  if (info.max_tokens) facts.maxOutputTokens = info.max_tokens;
  if (info.retires_at) facts.retiresAt = info.retires_at;
  const capabilities = info.capabilities;
  // Said unsupported: a model known not to think (absent would be one jp knows nothing of).
  if (supported(capabilities, "thinking") === false)
    facts.thinking = { adaptive: false, enabled: false, disabled: false, between_tools: false };
  if (supported(capabilities, "thinking")) {
    // A type the answer does not list is one the model does not take.
    const takes = (type: string) => supported(capabilities, "thinking", "types", type) === true;
    facts.thinking = {
      adaptive: takes("adaptive"),
      enabled: takes("enabled"),
      disabled: takes("disabled"),
      between_tools: takes("between_tools"),
    };
  }
  const compaction = supported(capabilities, "compaction");
  if (compaction !== undefined) facts.compaction = compaction;
  // Context management said unsupported leaves no strategy of it (the SDK's types let each be null).
  const clears =
    supported(capabilities, "context_management") === false
      ? false
      : supported(capabilities, "context_management", "clear_tool_uses_20250919");
  if (clears !== undefined) facts.clearsToolUses = clears;
  if (supported(capabilities, "effort"))
    facts.efforts = EFFORT_LEVELS.filter((level) => supported(capabilities, "effort", level) === true);
  return facts;
}

/** A model's facts from the Models API; undefined when the API does not know it (404). */
export async function fetchAnthropicModel(
  name: string,
  options: ProviderOptions & { baseURL: string },
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const info = await askModelApiFor(
    { url: endpoint(options.baseURL, `/v1/models/${encodeURIComponent(name)}`), headers, signal },
    options,
  );
  if (info === NO_SUCH_MODEL) return { notFound: true };
  return isModelInfo(info) ? factsOfModelInfo(info) : undefined;
}

/** The answer has the shape of a model (a proxy's page or another API's answer does not). */
function isModelInfo(value: unknown): value is AnsweredModelInfo {
  return isJsonObject(value) && value.type === "model" && typeof value.id === "string";
}
