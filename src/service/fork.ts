// Owns forking a conversation: its whole turns (or the last N), copied into a
// new conversation once any turn in progress has ended.
import { forkEvents } from "../events/fork.js";
import type { ConversationRef, ConversationStore } from "../store/conversations.js";

export interface Forked {
  ref: ConversationRef;
  events: number;
}

export function forkConversation(
  store: ConversationStore,
  source: ConversationRef,
  options: { last?: number; title?: string } = {},
): Forked {
  // A turn in progress is waited for: a fork copies whole turns, never half of one.
  const turn = store.holdTurn(source);
  let recorded;
  try {
    recorded = store.readEvents(source);
  } finally {
    turn.release();
  }
  const events = forkEvents(recorded, options.last);
  const originalTitle = store.metadata(source).title;
  const title = options.title ?? (originalTitle ? `${originalTitle} (fork)` : undefined);
  const ref = store.create({ title, events, metadata: { forked_from: source.id } });
  return { ref, events: events.length };
}
