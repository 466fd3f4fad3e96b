// Owns where each kind of event belongs: inside a turn or global (docs/architecture.md §3),
// and whether a provider request carries it. One table, checked against the
// schemas: a kind added to them fails to compile here until it is placed.
import { UNKNOWN_KIND, type Event } from "./kinds.js";
import type { EventKind, KnownEvent } from "./schema.js";

export const KIND_PLACES = {
  turn_start: { inTurn: true, sent: false },
  chat_request: { inTurn: true, sent: true },
  chat_response: { inTurn: true, sent: true },
  tool_call_request: { inTurn: true, sent: true },
  tool_call_response: { inTurn: true, sent: true },
  inquiry_request: { inTurn: true, sent: false },
  inquiry_response: { inTurn: true, sent: false },
  config_delta: { inTurn: false, sent: false },
  compaction: { inTurn: false, sent: false },
  compaction_reset: { inTurn: false, sent: false },
  request_failed: { inTurn: false, sent: false },
  pin: { inTurn: false, sent: false },
} as const satisfies Readonly<Record<EventKind, { inTurn: boolean; sent: boolean }>>;

/** The kinds a provider request carries, derived from the table. */
export type SentKind = {
  [K in EventKind]: (typeof KIND_PLACES)[K]["sent"] extends true ? K : never;
}[EventKind];
export type SentEvent = Extract<KnownEvent, { type: SentKind }>;

/** Whether a provider request carries the event: not turn structure, overlays or unknown kinds. */
export function isSent(e: Event): e is SentEvent {
  return e.type !== UNKNOWN_KIND && KIND_PLACES[e.type].sent;
}

/** Whether events of this kind belong to a turn; global entries (and unknown kinds) belong to none. */
export function inTurn(type: Event["type"]): boolean {
  return type !== UNKNOWN_KIND && KIND_PLACES[type].inTurn;
}
