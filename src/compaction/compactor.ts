// Owns the `compactor` library hook: keeps a chat-message array (OpenAI or
// Anthropic dialect) under a token budget before each model request, folding
// the head into one summary message without ever orphaning a tool result.
// Pure apart from the caller's own `summarize` and `onCompact` callbacks.
import { isJsonObject } from "../events/index.js";

export type ChatMessage = { role: string; content?: unknown; [key: string]: unknown };

export interface CompactInfo {
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** How many messages were folded into the summary. */
  summarized: number;
  summary: string;
  /** The folded messages, verbatim, so a host can keep what was summarized away. */
  folded: ChatMessage[];
}

export interface CompactorOptions {
  /** Compact only when the count exceeds this. */
  maxTokens: number;
  /** Tokens of the most recent messages always kept verbatim; 0 or absent means maxTokens / 2. */
  keepTail?: number;
  /** Writes the summary of the folded messages; may call a model. Required once over budget. */
  summarize?: (older: ChatMessage[]) => Promise<string> | string;
  /** Defaults to estimateTokens. */
  countTokens?: (messages: ChatMessage[]) => number;
  /** Add a reminder to save durable facts with the memory tool before they are summarized away. */
  flushToMemory?: boolean;
  onCompact?: (info: CompactInfo) => void;
}

export interface BeforeLlmEvent {
  messages: ChatMessage[];
  tools?: unknown[];
  model?: string;
  turn?: number;
}

/** The override a hook returns; undefined means send the request as it is. */
export type BeforeLlmOverride = { messages: ChatMessage[] } | undefined;
export type BeforeLlmHook = (event: BeforeLlmEvent) => Promise<BeforeLlmOverride>;

export const SUMMARY_PREFIX = "[Summary of earlier conversation]";
export const FLUSH_REMINDER =
  "Earlier messages are about to be summarized. If they hold durable facts (decisions, preferences, names, paths) that are not saved yet, save it with the memory tool now.";

/** Σ ceil(len(JSON) / 4) over the messages: an estimate, not a tokenizer. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const m of messages) total += Math.ceil(JSON.stringify(m).length / 4);
  return total;
}

const blocks = (m: ChatMessage): Record<string, unknown>[] =>
  Array.isArray(m.content) ? m.content.filter(isJsonObject) : [];

/** A tool result: OpenAI `role: "tool"`, or a user message with Anthropic `tool_result` blocks. */
export function carriesToolResult(m: ChatMessage): boolean {
  return (
    m.role === "tool" ||
    m.role === "function" ||
    (m.role === "user" && blocks(m).some((b) => b.type === "tool_result"))
  );
}

/** A message that calls tools: OpenAI `tool_calls`, or Anthropic `tool_use` blocks. */
export function callsTools(m: ChatMessage): boolean {
  return (
    m.role === "assistant" &&
    ((Array.isArray(m.tool_calls) && m.tool_calls.length > 0) || blocks(m).some((b) => b.type === "tool_use"))
  );
}

const isPrompt = (m: ChatMessage) => m.role === "user" && !carriesToolResult(m);

export function compactor(options: CompactorOptions): BeforeLlmHook {
  const count = options.countTokens ?? estimateTokens;
  return async ({ messages }) => {
    const tokensBefore = count(messages);
    if (tokensBefore <= options.maxTokens) return undefined;
    const keepTail = options.keepTail || Math.floor(options.maxTokens / 2);

    const lead = messages[0]?.role === "system" ? [messages[0]] : [];
    const body = messages.slice(lead.length);
    // A sole user prompt (one prompt, then only tool traffic) is kept, and the tail may then start at any
    // assistant message, which opens a round whose results follow it.
    const prompts = body.flatMap((m, i) => (isPrompt(m) ? [i] : []));
    const solePrompt = prompts.length === 1 ? prompts[0]! : undefined;
    const pinned = solePrompt !== undefined ? solePrompt + 1 : 0;
    const starts = body
      .map((m, i) => i)
      .filter(
        (i) => i > pinned && (solePrompt !== undefined ? body[i]!.role === "assistant" : isPrompt(body[i]!)),
      );
    if (starts.length === 0) return undefined;
    let start = starts[0]!;
    for (const i of starts) if (count(body.slice(i)) >= keepTail) start = i;

    const head = body.slice(pinned, start);
    if (head.length === 0) return undefined;
    if (!options.summarize)
      throw new Error("compactor: the conversation is over budget and no summarize function was given");
    const summary = await options.summarize(head);
    const out: ChatMessage[] = [
      ...lead,
      ...body.slice(0, pinned),
      { role: "system", content: `${SUMMARY_PREFIX}\n${summary}` },
      ...(options.flushToMemory ? [{ role: "system", content: FLUSH_REMINDER }] : []),
      ...body.slice(start),
    ];
    const tokensAfter = count(out);
    if (tokensAfter >= tokensBefore) return undefined;
    options.onCompact?.({
      tokensBefore,
      tokensAfter,
      messagesBefore: messages.length,
      messagesAfter: out.length,
      summarized: head.length,
      summary,
      folded: head,
    });
    return { messages: out };
  };
}
