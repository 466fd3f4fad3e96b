// Owns the provider-neutral shape of a model request and of what streams back.
import type { BinaryKind, Event, JsonObject } from "../events/index.js";
import type { ToolDefinition } from "../tool-definition.js";
import type { Effort, ModelFacts } from "./capabilities.js";

// Defined below llm/ (tokens/ counts them too), and part of a request's shape here.
export type { BinaryKind } from "../events/index.js";
export type { ToolDefinition } from "../tool-definition.js";

export interface ModelRequest {
  /** The model name without its provider part. */
  model: string;
  system?: string;
  /** The projected conversation: what the model is shown. */
  events: readonly Event[];
  tools: readonly ToolDefinition[];
  /**
   * Force a call to this tool, or let the model choose. On a model that
   * refuses forced calls the tool is asked for instead; `insist` asks firmly.
   */
  toolChoice: "auto" | { name: string; insist?: boolean };
  /**
   * Tool use is off for this request, the tools staying declared: on a model
   * whose thinking is bound to the tools, removing them would invalidate it
   * (Anthropic's `tool_choice: {type: "none"}`; set only where the provider takes it).
   */
  toolsOff?: boolean;
  maxTokens: number;
  /** Thinking asked for; absent is off (whatever the model takes as off). */
  reasoning?: ReasoningRequest;
  /** What the model accepts, from its capabilities; absent, nothing is known and requests go as they always did. */
  facts?: ModelFacts;
  /** Ask the provider to cache the request prefix; `key` is stable per conversation. */
  cache?: RequestCache;
  /**
   * Where active compactions' reach ends in `events` (Projection.settled):
   * prefixes that the next compaction reaching forward keeps, worth a cache breakpoint.
   */
  settled?: readonly number[];
  /**
   * The model binds thinking to its prefix (preserved thinking) and the
   * events hold only the blocks whose prefix is unchanged: what the provider
   * is to do with one it finds changed all the same, drop it or refuse.
   */
  reasoningBinding?: "drop" | "error";
  /**
   * Ask the provider to summarise the request's events instead of answering
   * (Anthropic's on-demand compaction): the answer is one `compaction` block.
   */
  compaction?: { instructions?: string };
  /**
   * Let the provider clear the oldest tool results itself once the input
   * passes `trigger` tokens, keeping the last `keep` tool uses, and only where
   * that frees `clearAtLeast` tokens (Anthropic's context editing,
   * `clear_tool_uses_20250919`): the request carries the conversation whole,
   * so no thinking block's prefix changes.
   */
  clearToolUses?: { trigger: number; keep: number; clearAtLeast: number };
}

/** How much to think: an effort, a manual budget, or both (each provider takes what its model accepts). */
export interface ReasoningRequest {
  effort?: Effort;
  budgetTokens?: number;
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
  /** Of the output, the tokens spent reasoning, where the provider says. */
  reasoningTokens?: number;
  /** What the request cost in USD, where the provider says (OpenRouter's `usage.cost`). */
  costUsd?: number;
}

/**
 * Why a response ended. `pause`: the server paused a long turn, which the
 * next request continues; `context_exceeded`: the model's window filled up.
 */
export type StopReason =
  | "end"
  | "tool_use"
  | "max_tokens"
  | "refusal"
  | "pause"
  | "context_exceeded"
  /** The provider wrote a summary of the request (on-demand compaction) and nothing after it. */
  | "compaction"
  | "other";

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
  /** The reasoning block in progress is this OpenAI reasoning item (its id and encrypted content), sent back whole. */
  | { type: "reasoning_item"; item: JsonObject }
  /** Metadata of the block just made (a Gemini part's thought signature), kept with it. */
  | { type: "block_metadata"; metadata: JsonObject }
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
  /** What the provider changed in the request before the model read it (thinking blocks it dropped), verbatim. */
  | { type: "input_transformations"; items: JsonObject[] }
  /** `detail`: what the provider said of it (a refusal's explanation). */
  | { type: "stop"; reason: StopReason; detail?: string };

/**
 * The optional request fields a provider's API accepts, beyond the messages,
 * tools and output cap every one takes. A module sends no optional field
 * outside these: a server may reject one it does not know.
 */
export interface AcceptedFields {
  /** A per-conversation cache key (`prompt_cache_key`). */
  cacheKey: boolean;
  /** Cache breakpoints (`cache_control`) on the request's blocks. */
  cacheControl: boolean;
  /** The provider's own reasoning parameter, which jp's reasoning settings become; "none": thinking cannot be asked for. */
  reasoning: ReasoningField;
  /**
   * How a tool is forced: `tool_choice` naming it, "required" over that tool
   * alone (servers that read only the string forms), or not at all (it is
   * asked for in words, and the turn asks once more if the model does not call it).
   */
  toolChoice: "named" | "required" | "none";
  /**
   * Whether a request that forces a tool may think: Anthropic's Messages API
   * refuses thinking with a forced `tool_choice` (and so OpenRouter does for
   * Anthropic's models); OpenAI, Gemini and the local servers take both.
   */
  thinksWhileForced: boolean;
  /** The binary attachments its messages can carry (text always goes, as text). */
  attachments: readonly BinaryKind[];
  /**
   * Whether tools can be added and withdrawn in the conversation, declared
   * deferred (Anthropic's `tool_addition`/`tool_removal`): a tool offered for
   * one question then leaves the bound thinking before it valid.
   */
  toolChanges?: boolean;
}

export type ReasoningField =
  | "thinking" // Anthropic: thinking + output_config.effort
  | "reasoning.effort" // OpenAI Responses
  | "reasoning_effort" // OpenAI Chat Completions
  | "thinkingConfig" // Gemini
  | "think" // Ollama
  | "reasoning" // OpenRouter's unified field
  | "chat_template_kwargs" // llama.cpp: enable_thinking, with reasoning_format
  | "none";

export interface Provider {
  /** The provider part of the model id (`anthropic`, `openai`, `ollama`…). */
  name: string;
  /** Where requests go, named when it cannot be reached. */
  baseUrl: string;
  /** The optional fields its requests may carry. */
  accepts: AcceptedFields;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamPart>;
  /** The model's facts from the provider's own model API; undefined when it does not know the model. */
  modelFacts?(name: string, signal: AbortSignal): Promise<ModelFacts | undefined>;
  /**
   * Check a turn's first request before anything is sent: notices to show
   * once (a setting turned into what the model takes); throws a JpError for
   * a request the model would refuse.
   */
  prepare?(request: ModelRequest): string[];
}
