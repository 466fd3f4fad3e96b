// Owns the one test every layer makes of parsed JSON: is it an object (not an
// array, not null)? A type guard, so callers narrow instead of casting.

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
