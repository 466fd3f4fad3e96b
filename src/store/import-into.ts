// Owns importing a JP conversation into jp's store: read by the JP reader
// (import-jp.ts, which knows nothing of the store), written as a new
// conversation, refused when it was imported before.
import { kindOf, type Event } from "../events/index.js";
import type { ConversationStore } from "./conversations.js";
import { ImportError } from "./errors.js";
import {
  streamJpConversation,
  type ImportProgress,
  type ImportResult,
  type ImportSkip,
} from "./import-jp.js";

/** Import one JP conversation folder into the store; refuses one imported before. */
export function importJpConversation(
  store: ConversationStore,
  dir: string,
  progress?: ImportProgress,
): ImportResult | ImportSkip {
  const converted = streamJpConversation(dir, progress);
  if ("reason" in converted) return converted;
  const previous = store
    .list()
    .find(
      (ref) =>
        ref.id === converted.originalId ||
        store.metadata(ref).imported_from?.original_id === converted.originalId,
    );
  if (previous) {
    throw new ImportError(
      `${dir} was already imported as conversation ${previous.id}`,
      `see it with \`jp conversation show ${previous.id}\``,
    );
  }
  const counts: Record<string, number> = {};
  function* counted(events: Iterable<Event>): Generator<Event> {
    for (const e of events) {
      const kind = kindOf(e);
      counts[kind] = (counts[kind] ?? 0) + 1;
      yield e;
    }
  }
  const ref = store.create({
    id: converted.originalId,
    title: converted.title,
    events: counted(converted.events),
    metadata: {
      created_at: converted.createdAt,
      imported_from: { path: dir, original_id: converted.originalId },
    },
  });
  const result: ImportResult = { id: ref.id, source: dir, counts };
  if (converted.title !== undefined) result.title = converted.title;
  return result;
}
