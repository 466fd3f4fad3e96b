// Owns what jp knows of models by name: how an id names its provider and
// model (the one parser of `provider/name`), and their context windows.
import { JpError } from "../errors.js";

export interface ModelRef {
  provider: string;
  name: string;
}

/** `provider/name` split at its first slash; undefined when either part is missing (an alias, a typo). */
export function splitModelId(id: string): ModelRef | undefined {
  const slash = id.indexOf("/");
  if (slash <= 0 || slash === id.length - 1) return undefined;
  return { provider: id.slice(0, slash), name: id.slice(slash + 1) };
}

/** A model id jp is to send a request with: `provider/name`, or a usage error saying so. */
export function parseModelId(id: string): ModelRef {
  const model = splitModelId(id);
  if (model) return model;
  throw new JpError("llm.model_id", `model id '${id}' is not provider/name`, {
    hint: "for example anthropic/claude-sonnet-5-5, openai/gpt-4.1 or ollama/qwen3, or a name under [providers.llm.aliases]",
    exitCode: 2,
  });
}

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
