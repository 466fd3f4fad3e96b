// Owns the checks of the event schemas that zod cannot state by itself. The
// schemas (schema.ts) and their derived checkers (schema.check.ts) both call
// these, so the two cannot drift apart.
import { isJsonObject } from "./json.js";

/** A chat_response carries exactly one body. */
export function holdsOneBody(e: { message?: unknown; reasoning?: unknown; data?: unknown }): boolean {
  return [e.message, e.reasoning, e.data].filter((v) => v !== undefined).length === 1;
}

export const EVENT_CHECKS = {
  jsonObject: { test: isJsonObject, message: "must be a JSON object" },
  oneBody: { test: holdsOneBody, message: "a chat_response holds exactly one of message, reasoning or data" },
} as const;
