// Owns what a model is told of a tool it may call, whoever sends or counts it.

export interface ToolDefinition {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}
