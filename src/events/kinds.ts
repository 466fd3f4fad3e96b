// Owns telling events apart: the known kinds, checked against their schemas
// (through the checkers derived from them: no zod at run time), and every
// other kind, kept verbatim. Validation keeps the caller's object untouched,
// so unknown kinds and unknown fields survive a read and a write byte for byte.
import { isJsonObject, type JsonObject } from "./json.js";
import { MAX_DEPTH, tooDeep } from "./keys.js";
import { KNOWN_EVENT_CHECKERS } from "./schema.check.js";
import type { EventKind, KnownEvent } from "./schema.js";

// Cast: Object.keys types its result as string[]; these keys are exactly the kinds.
export const EVENT_KINDS: readonly EventKind[] = Object.freeze(
  Object.keys(KNOWN_EVENT_CHECKERS) as EventKind[],
);

/** The `type` of every event of a kind this version does not know. */
export const UNKNOWN_KIND: unique symbol = Symbol("jp.unknown-kind");

/**
 * An event of a kind this version does not know, wrapped so that it can never
 * pass for a known one: `switch (event.type)` narrows every known kind. The
 * line's object is kept as it was read and written back as is (`toJSON`).
 */
export class UnknownEvent {
  readonly type: typeof UNKNOWN_KIND = UNKNOWN_KIND;
  constructor(readonly raw: JsonObject & { type: string }) {}
  /** The kind the line names. */
  get kind(): string {
    return this.raw.type;
  }
  get timestamp(): string | undefined {
    return typeof this.raw.timestamp === "string" ? this.raw.timestamp : undefined;
  }
  toJSON(): JsonObject {
    return this.raw;
  }
}

/** Any line of a log: a known kind, or an unknown one kept verbatim. A closed union. */
export type Event = KnownEvent | UnknownEvent;

export function isKnownKind(type: unknown): type is EventKind {
  return typeof type === "string" && Object.hasOwn(KNOWN_EVENT_CHECKERS, type);
}

export function isKnown(event: Event): event is KnownEvent {
  return event.type !== UNKNOWN_KIND;
}

/** The kind an event's line names, known or not. */
export function kindOf(event: Event): string {
  return event.type === UNKNOWN_KIND ? event.kind : event.type;
}

/** Narrow an event to one kind. */
export function isKind<K extends EventKind>(
  event: Event,
  kind: K,
): event is Extract<KnownEvent, { type: K }> {
  return event.type === kind;
}

function hasStringType(value: JsonObject): value is JsonObject & { type: string } {
  return typeof value.type === "string";
}

export type ValidationResult = { ok: true; event: Event } | { ok: false; reason: string };

/**
 * Check a parsed log line. Known kinds must match their schema; any other
 * object with a string `type` is an unknown kind and is accepted as is.
 * The returned event is the input object itself, never a copy. A value that
 * nests deeper than MAX_DEPTH (serialising or cloning it would overflow the
 * stack) is refused; any keys are kept.
 */
export function validateEvent(value: unknown): ValidationResult {
  if (!isJsonObject(value)) return { ok: false, reason: "not a JSON object" };
  if (tooDeep(value)) return { ok: false, reason: `nested more than ${MAX_DEPTH} levels deep` };
  if (!hasStringType(value)) return { ok: false, reason: "missing string field `type`" };
  const { type } = value;
  if (!isKnownKind(type)) return { ok: true, event: new UnknownEvent(value) };
  const issue = KNOWN_EVENT_CHECKERS[type](value);
  if (issue) {
    const where = issue.path.length > 0 ? ` at \`${issue.path.join(".")}\`` : "";
    return { ok: false, reason: `invalid ${type}${where}: ${issue.message}` };
  }
  // Cast: validation keeps the caller's object itself (its unknown fields pass byte
  // for byte), so the checked value is returned as the type the schema proved.
  return { ok: true, event: value as KnownEvent };
}
