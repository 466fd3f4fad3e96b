// Owns what jp knows of models by name: how an id names its provider and
// model (the one parser of `provider/name`). What a model can do is llm/'s
// capabilities.
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

/**
 * A model id jp is to send a request with: `provider/name`, or a usage error
 * saying so, with the alias or model `nearest` it (a mistyped `opsu`: opus) when the caller knows one.
 */
export function parseModelId(id: string, nearest?: () => string | undefined): ModelRef {
  const model = splitModelId(id);
  if (model) return model;
  const suggestion = nearest?.();
  throw new JpError(
    "llm.model_id",
    `model id '${id}' is not provider/name${suggestion ? `; did you mean ${suggestion}?` : ""}`,
    {
      hint: "for example anthropic/claude-sonnet-5-5, openai/gpt-4.1 or ollama/qwen3, or a name under [providers.llm.aliases]",
      exitCode: 2,
    },
  );
}
