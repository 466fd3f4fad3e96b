// Anthropic Models API answers for the mock server, typed by the SDK's own
// ModelInfo so they have the shape the API documents.
import type { ModelInfo } from "@anthropic-ai/sdk/resources/models";
import type { AnsweredModelInfo } from "../../src/llm/providers/anthropic/models.js";

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
  /** Context editing's tool result clearing said unsupported. */
  noClearing?: boolean;
}

/**
 * A model's info as `GET /v1/models/{id}` returns it: with only the keys the
 * real API sends (JP's recorded answer for claude-haiku-4-5). Thinking types
 * are `enabled` and `adaptive`, each said supported or not; `disabled` and
 * `between_tools` appear only for a model that has them; lifecycle fields
 * only for a model that is going.
 */
export function modelInfo(id: string, o: ModelInfoOptions = {}): AnsweredModelInfo {
  const thinking = new Set(o.thinking ?? []);
  const efforts = new Set(o.efforts ?? []);
  const own = (type: "disabled" | "between_tools") => (thinking.has(type) ? { [type]: yes } : {});
  const going =
    o.lifecycle && o.lifecycle !== "active"
      ? { lifecycle: o.lifecycle, deprecated_at: "2026-10-01T00:00:00Z", retires_at: o.retiresAt ?? null }
      : {};
  return {
    type: "model",
    id,
    display_name: id,
    created_at: "2026-09-01T00:00:00Z",
    ...going,
    max_input_tokens: o.window ?? 1_000_000,
    max_tokens: o.maxTokens ?? 128_000,
    capabilities: {
      batch: yes,
      citations: yes,
      code_execution: no,
      context_management: {
        supported: true,
        clear_tool_uses_20250919: support(!o.noClearing),
        clear_thinking_20251015: yes,
        compact_20260112: no,
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
      structured_outputs: yes,
      thinking: {
        supported: thinking.size > 0,
        types: {
          enabled: support(thinking.has("enabled")),
          adaptive: support(thinking.has("adaptive")),
          ...own("disabled"),
          ...own("between_tools"),
        },
      },
    },
  };
}

/** Sonnet 5.5 as the Models API describes it: adaptive only, off is between_tools. */
export const SONNET_5_5 = (id = "claude-sonnet-5-5", o: ModelInfoOptions = {}) =>
  modelInfo(id, {
    thinking: ["adaptive", "between_tools"],
    efforts: ["low", "medium", "high", "xhigh", "max"],
    ...o,
  });
