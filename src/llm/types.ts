// Owns the provider-neutral shape of a model request and of what streams back.
import type { Event } from "../events/index.js";

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
  /** Prompt tokens written to the provider's cache. */
  cacheWriteTokens?: number;
}

export type StopReason = "end" | "tool_use" | "max_tokens" | "refusal" | "other";

export type StreamPart =
  | { type: "text"; text: string }
  | { type: "reasoning"; text: string }
  | { type: "reasoning_signature"; signature: string }
  | { type: "tool_call"; id: string; name: string; arguments: Record<string, unknown> }
  | ({ type: "usage" } & Usage)
  | { type: "stop"; reason: StopReason };

export interface Provider {
  /** The provider part of the model id (`anthropic`, `openai`, `ollama`…). */
  name: string;
  /** Where requests go, named when it cannot be reached. */
  baseUrl: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart>;
}

/**
 * The metadata key a response's reasoning signature is stored under, so the
 * next request can hand it back (the name JP's logs use).
 */
export const REASONING_SIGNATURE_KEY = "anthropic_thinking_signature";
