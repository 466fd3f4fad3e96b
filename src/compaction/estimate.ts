// Owns the one cheap token estimate, four characters a token: for where no
// tokenizer is loaded (the window check before a request, the `chars`
// estimate of compaction, the library's compactor). Real counts come from
// tokens/count.ts.
import { questionWithDocuments, type Event } from "../events/index.js";

/** Tokens of a text of `chars` characters, rounded up. */
export function tokensOfChars(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The characters of what `events` say (questions with their documents, answers, calls and results). */
export function charsOfEvents(events: readonly Event[]): number {
  let chars = 0;
  for (const e of events) {
    if (e.type === "chat_request") chars += questionWithDocuments(e.content, e.attachments).length;
    else if (e.type === "tool_call_response") chars += e.content.length;
    else if (e.type === "chat_response") chars += (e.message ?? e.reasoning ?? "").length;
    else if (e.type === "tool_call_request") chars += JSON.stringify(e.arguments).length;
  }
  return chars;
}
