// Owns reading a tool call's arguments as a provider streams them: JSON text,
// possibly empty, possibly cut off at the output limit.
import { isJsonObject } from "../events/json.js";

/**
 * Tool arguments streamed as JSON text; an empty text is no arguments.
 * Undefined when the text is not JSON: cut off at the output limit, or malformed.
 */
export function tryToolArguments(json: string): Record<string, unknown> | undefined {
  if (!json.trim()) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    return undefined;
  }
}

/** What to say of a call whose arguments are not JSON though the answer was not cut off. */
export function malformedArguments(name: string, json: string): string {
  return `the model sent arguments for ${name || "a tool"} that are not JSON: ${json.slice(0, 80)}`;
}
