// Owns a tool call as it crosses the wire: its arguments as a provider
// streams them (JSON text, possibly empty, possibly cut off at the output
// limit), an id where the server gave none, and its result as text for APIs
// without an error flag.
import { isJsonObject } from "../events/json.js";
import type { ToolCallResponse } from "../events/index.js";

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

/** A tool call id where the server sent none (Ollama, some compatible servers): recorded, so it matches its result. */
export function generatedCallId(): string {
  return `call_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;
}

/** A result as text for an API that has no error flag: a failed call's says so. */
export function resultText(e: ToolCallResponse): string {
  return e.is_error ? `Error: ${e.content}` : e.content;
}
