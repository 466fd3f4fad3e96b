// Owns which events a provider request carries: the one place that decides,
// kind by kind, so a kind added to the event schemas fails to compile here
// until it is decided, and the provider mappings handle only what is sent.
import { UNKNOWN_KIND, type Event, type KnownEvent } from "../events/index.js";
import { assertNever } from "../errors.js";

export type SentEvent = Extract<
  KnownEvent,
  { type: "chat_request" | "chat_response" | "tool_call_request" | "tool_call_response" }
>;

/** The event if a request carries it; undefined for turn structure, overlays and unknown kinds. */
export function sentEvent(e: Event): SentEvent | undefined {
  switch (e.type) {
    case "chat_request":
    case "chat_response":
    case "tool_call_request":
    case "tool_call_response":
      return e;
    case "turn_start":
    case "config_delta":
    case "compaction":
    case "compaction_reset":
    case "request_failed":
    case "inquiry_request":
    case "inquiry_response":
    case UNKNOWN_KIND:
      return undefined;
    default:
      return assertNever(e, "event kind");
  }
}
