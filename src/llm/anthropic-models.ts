// Owns asking Anthropic's Models API what a model is: `GET /v1/models/{id}`
// gives its window, output cap, the thinking types and effort levels it
// accepts, and its lifecycle; mapped here to jp's model facts.
import type { CapabilitySupport, ModelInfo } from "@anthropic-ai/sdk/resources/models";
import type { Effort, ModelFacts } from "./capabilities.js";
import { askModelApi, endpoint, type ProviderOptions } from "./http.js";
import { isJsonObject } from "../events/index.js";

/** Facts of a Models API answer; figures it leaves null stay unknown. */
export function factsOfModelInfo(info: ModelInfo): ModelFacts {
  const facts: ModelFacts = { lifecycle: info.lifecycle };
  if (info.max_input_tokens) facts.contextWindow = info.max_input_tokens;
  if (info.max_tokens) facts.maxOutputTokens = info.max_tokens;
  if (info.retires_at) facts.retiresAt = info.retires_at;
  const capabilities = info.capabilities;
  if (!capabilities) return facts;
  const thinking = capabilities.thinking;
  if (thinking.supported) {
    const types = thinking.types;
    facts.thinking = {
      adaptive: types.adaptive.supported,
      enabled: types.enabled.supported,
      disabled: types.disabled.supported,
      between_tools: types.between_tools.supported,
    };
  }
  const effort = capabilities.effort;
  if (effort.supported) {
    const levels: [Effort, CapabilitySupport | null][] = [
      ["low", effort.low],
      ["medium", effort.medium],
      ["high", effort.high],
      ["xhigh", effort.xhigh],
      ["max", effort.max],
    ];
    facts.efforts = levels.filter(([, support]) => support?.supported === true).map(([level]) => level);
  }
  return facts;
}

/** A model's facts from the Models API; undefined when the API does not know it (404). */
export async function fetchAnthropicModel(
  name: string,
  options: ProviderOptions & { baseURL: string },
  headers: Readonly<Record<string, string>>,
  signal: AbortSignal,
): Promise<ModelFacts | undefined> {
  const info = await askModelApi(
    { url: endpoint(options.baseURL, `/v1/models/${encodeURIComponent(name)}`), headers, signal },
    options,
  );
  return isModelInfo(info) ? factsOfModelInfo(info) : undefined;
}

/** The answer has the shape of a model (a proxy's page or another API's answer does not). */
function isModelInfo(value: unknown): value is ModelInfo {
  return isJsonObject(value) && value.type === "model" && typeof value.id === "string";
}
