// Owns turning a provider's usage report into the record a log keeps.
import type { UsageRecord } from "../events/index.js";
import type { Usage } from "./types.js";

/** A stream's usage as recorded in an event's metadata (snake_case, zero cache counts left out). */
export function usageRecord(usage: Usage): UsageRecord {
  return {
    ...(usage.inputTokens !== undefined ? { input_tokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { output_tokens: usage.outputTokens } : {}),
    ...(usage.cacheReadTokens ? { cache_read_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
    ...(usage.cacheWrite1hTokens ? { cache_write_1h_tokens: usage.cacheWrite1hTokens } : {}),
    ...(usage.reasoningTokens ? { reasoning_tokens: usage.reasoningTokens } : {}),
    ...(usage.costUsd !== undefined ? { cost_usd: usage.costUsd } : {}),
  };
}
