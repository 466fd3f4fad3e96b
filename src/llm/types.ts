// Owns the provider-neutral shape of a model request and of what streams back.
import type { Event, JsonObject } from "../events/index.js";

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  /** The model name without its provider part. */
  model: string;
  system?: string;
  /** The projected conversation: what the model is shown. */
  events: readonly Event[];
  tools: readonly ToolDefinition[];
  /** Force a call to this tool, or let the model choose. */
  toolChoice: "auto" | { name: string };
  maxTokens: number;
  /** Extended thinking budget in tokens, where the provider supports it; 0 or absent is off. */
  reasoningBudget?: number;
  /** Ask the provider to cache the request prefix; `key` is stable per conversation. */
  cache?: RequestCache;
  /**
   * Where active compactions' reach ends in `events` (Projection.settled):
   * prefixes that the next compaction reaching forward keeps, worth a cache breakpoint.
   */
  settled?: readonly number[];
}

export interface RequestCache {
  key: string;
  ttl: "5m" | "1h";
}

/** A response's token usage; input counts every prompt token, cached or not. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  /** Prompt tokens read from the provider's cache. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the provider's cache (of any lifetime). */
  cacheWriteTokens?: number;
  /** Of the written ones, those kept for an hour (priced higher than five minutes). */
  cacheWrite1hTokens?: number;
}

export type StopReason = "end" | "tool_use" | "max_tokens" | "refusal" | "other";

/**
 * What a response streams, in the order of its content blocks. Text and
 * reasoning pieces extend the block in progress of their kind; `block_end`
 * closes it, so two text blocks (or two thinking blocks, each with its own
 * signature) stay two. Every other part is a whole block.
 */
export type StreamPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  /** The signature of the reasoning block in progress. */
  | { type: "reasoning_signature"; signature: string }
  /** Closes the text or reasoning block in progress. */
  | { type: "block_end" }
  /** Reasoning the provider encrypted: sent back as it came, never shown. */
  | { type: "redacted_reasoning"; data: string }
  /** OpenAI-compatible reasoning arrives under a field the server wants back on the assistant message. */
  | { type: "reasoning_field"; field: string }
  /** A block of a type jp does not interpret (server tools, their results), kept and sent back verbatim. */
  | { type: "provider_block"; block: JsonObject }
  /** Citations of the text block in progress, kept to be sent back with it. */
  | { type: "citation"; citation: JsonObject }
  | { type: "refusal"; text: string }
  | { type: "tool_call"; id: string; name: string; arguments: Record<string, unknown> }
  /** A tool call whose arguments were cut off before they were complete (the output limit). */
  | { type: "cut_tool_call"; id: string; name: string; partialArguments: string }
  | ({ type: "usage" } & Usage)
  | { type: "stop"; reason: StopReason };

export interface Provider {
  /** The provider part of the model id (`anthropic`, `openai`, `ollama`…). */
  name: string;
  /** Where requests go, named when it cannot be reached. */
  baseUrl: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart>;
}
