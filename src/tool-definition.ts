// Owns what a model is told of a tool it may call, whoever sends or counts it.

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /**
   * Declared but not loaded up front (Anthropic's `defer_loading`): no part of
   * any thinking block's prefix; offered from where the conversation adds it.
   */
  deferred?: boolean;
}
