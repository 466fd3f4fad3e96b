// Owns which tool results a provider that clears them itself (Anthropic's
// context editing, clear_tool_uses_20250919) is asked to clear: rarely and in
// bulk, so the prefix the cache holds stays the same from one request to the next.
import type { Event } from "../events/index.js";
import type { TokenCounter } from "../tokens/count.js";

/** Automatic compaction of tool output left to the provider, as the config sets it. */
export interface ProviderClearing {
  /** Past this many input tokens (the compaction budget) the provider clears (context editing's `trigger`). */
  trigger: number;
  /** Tokens of the newest traffic a clearing leaves whole (`keep_tail`). */
  keepTail: number;
  /** The fewest tool uses a clearing keeps. */
  keep: number;
  /** A clearing that frees fewer tokens is not made (`min_saving`; context editing's `clear_at_least`). */
  clearAtLeast: number;
  /** The turn's one token count, wherever the clearing is decided (the request, automatic compaction's measure). */
  counter: TokenCounter;
}

/** Where a request was made: after a question and after each tool result, and now. */
const asksAfter = (event: Event): boolean =>
  event.type === "tool_call_response" || event.type === "chat_request";

/**
 * How many of the oldest tool results of `events` the provider is asked to
 * clear. The docs (https://platform.claude.com/docs/en/build-with-claude/context-editing):
 * tool result clearing "invalidates cached prompt prefixes when content is
 * cleared. To account for this, we recommend clearing enough tokens to make
 * the cache invalidation worthwhile… You'll incur cache write costs each time
 * content is cleared, but subsequent requests can reuse the newly cached
 * prefix." So a clearing is made once the request as the model reads it
 * passes `trigger`: every result older than `keepTail` tokens of newer
 * traffic at once (at least `clearAtLeast` tokens of them), and the requests
 * after it ask for the same until it passes again. The provider keeps nothing
 * between requests, so the decision is replayed over the conversation from its
 * start: each request asks what the one before it asked, plus any new clearing.
 * `header` is the tokens of the system prompt and tool definitions.
 */
export function clearedResults(events: readonly Event[], policy: ProviderClearing, header: number): number {
  return clearings(events, policy, header).at(-1) ?? 0;
}

/** How many of the oldest results each clearing so far had cleared, in order: the replay itself. */
export function clearings(events: readonly Event[], policy: ProviderClearing, header: number): number[] {
  const made: number[] = [];
  const tokensOf = (event: Event) => policy.counter.event(event);
  /** Tokens of the request up to and including each event. */
  const upTo: number[] = [];
  const results: number[] = [];
  let cleared = 0;
  let saved = 0;
  events.forEach((event, i) => {
    upTo.push((upTo[i - 1] ?? header) + tokensOf(event));
    if (event.type === "tool_call_response") results.push(i);
    if (!asksAfter(event) && i < events.length - 1) return;
    if (upTo[i]! - saved <= policy.trigger) return;
    // Results whose clearing leaves keepTail tokens of newer traffic and `keep` results whole.
    let next = cleared;
    let freed = 0;
    while (next < results.length - policy.keep && upTo[i]! - upTo[results[next]!]! >= policy.keepTail) {
      freed += tokensOf(events[results[next]!]!);
      next += 1;
    }
    if (next > cleared && freed >= policy.clearAtLeast) {
      cleared = next;
      saved += freed;
      made.push(cleared);
    }
  });
  return made;
}

/** The tool results a provider clears among `events`, for measuring what the model reads. */
export function resultsCleared(events: readonly Event[], policy: ProviderClearing, header: number): Event[] {
  const results = events.filter((e) => e.type === "tool_call_response");
  return results.slice(0, clearedResults(events, policy, header));
}

/** Tokens of the system prompt and the tool definitions. */
export function clearingHeader(
  policy: ProviderClearing,
  system: string | undefined,
  tools: readonly unknown[],
): number {
  return policy.counter.text(system ?? "") + policy.counter.text(JSON.stringify(tools));
}
