// Owns what jp knows of models by name: their context windows.

/** Context windows of common models, by a distinctive part of the model name. */
const KNOWN_CONTEXT_WINDOWS: readonly (readonly [string, number])[] = [
  ["claude-opus-5", 200_000],
  ["claude-sonnet-5", 200_000],
  ["claude-haiku-5", 200_000],
  ["claude-fable-5", 200_000],
  ["claude-mythos-5", 200_000],
  ["claude-opus-4", 200_000],
  ["claude-sonnet-4", 200_000],
  ["claude-haiku-4", 200_000],
  ["claude-3", 200_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-5", 400_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
];

/** The context window of a model id (`anthropic/claude-sonnet-5-5`), when its name is known. */
export function knownContextWindow(modelId: string): number | undefined {
  return KNOWN_CONTEXT_WINDOWS.find(([part]) => modelId.includes(part))?.[1];
}
