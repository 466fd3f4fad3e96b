// Anthropic Models API answers for the mock server, typed by the SDK's own
// ModelInfo so they have the shape the API documents.
import type { ModelInfo } from "@anthropic-ai/sdk/resources/models";

const yes = { supported: true };
const no = { supported: false };
const support = (on: boolean) => (on ? yes : no);

export interface ModelInfoOptions {
  window?: number;
  maxTokens?: number;
  /** Accepted thinking types; none means a model that does not think. */
  thinking?: ("adaptive" | "enabled" | "disabled" | "between_tools")[];
  efforts?: ("low" | "medium" | "high" | "xhigh" | "max")[];
  lifecycle?: ModelInfo["lifecycle"];
  retiresAt?: string;
}

/** A model's info as `GET /v1/models/{id}` returns it. */
export function modelInfo(id: string, o: ModelInfoOptions = {}): ModelInfo {
  const thinking = new Set(o.thinking ?? []);
  const efforts = new Set(o.efforts ?? []);
  return {
    type: "model",
    id,
    display_name: id,
    created_at: "2026-09-01T00:00:00Z",
    lifecycle: o.lifecycle ?? "active",
    deprecated_at: o.lifecycle && o.lifecycle !== "active" ? "2026-10-01T00:00:00Z" : null,
    retires_at: o.retiresAt ?? null,
    line: null,
    max_input_tokens: o.window ?? 1_000_000,
    max_tokens: o.maxTokens ?? 128_000,
    capabilities: {
      batch: yes,
      citations: yes,
      code_execution: no,
      context_management: {
        supported: false,
        clear_thinking_20251015: null,
        clear_tool_uses_20250919: null,
        compact_20260112: null,
      },
      effort: {
        supported: efforts.size > 0,
        low: support(efforts.has("low")),
        medium: support(efforts.has("medium")),
        high: support(efforts.has("high")),
        xhigh: support(efforts.has("xhigh")),
        max: support(efforts.has("max")),
      },
      image_input: yes,
      pdf_input: yes,
      server_tools: { supported: false, code_execution: no, web_search: no },
      structured_outputs: yes,
      thinking: {
        supported: thinking.size > 0,
        types: {
          adaptive: support(thinking.has("adaptive")),
          enabled: support(thinking.has("enabled")),
          disabled: support(thinking.size === 0 || thinking.has("disabled")),
          between_tools: support(thinking.has("between_tools")),
        },
      },
    },
  };
}

/** Sonnet 5.5 as the Models API describes it: adaptive only, off is between_tools. */
export const SONNET_5_5 = (id = "claude-sonnet-5-5") =>
  modelInfo(id, {
    thinking: ["adaptive", "between_tools"],
    efforts: ["low", "medium", "high", "xhigh", "max"],
  });
