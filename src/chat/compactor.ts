// Owns the `compactor` library hook: keeps a chat-message array (OpenAI or
// Anthropic dialect) under a token budget before each model request, folding
// the head into one summary message without ever orphaning a tool result.
// Pure apart from the caller's own `summarize` and `onCompact` callbacks.
import { tokensOfChars } from "../compaction/estimate.js";
import { isJsonObject } from "../events/index.js";

/** What the compactor needs of a message: its role. Other fields are read where a message has them. */
export interface MessageLike {
  role: string;
}

/** A chat message as plain JSON, for callers without an SDK's own message types. */
export type ChatMessage = { role: string; content?: unknown; [key: string]: unknown };

/**
 * Whose message format the array is in. OpenAI's Chat Completions takes the
 * summary as a system message; Anthropic's Messages API takes no system role
 * inside `messages`, so there the summary is a user message (the API joins
 * consecutive user messages into one turn).
 */
export type Dialect = "openai" | "anthropic";

/** The summary message the compactor adds, in OpenAI's dialect. */
export type SystemSummaryMessage = { role: "system"; content: string };

/** The summary message the compactor adds, in Anthropic's dialect. */
export type UserSummaryMessage = { role: "user"; content: string };

/** The message type of a dialect's summary: one the SDK's own message type accepts. */
export type SummaryMessageOf<D extends Dialect> = D extends "anthropic"
  ? UserSummaryMessage
  : SystemSummaryMessage;

export interface CompactInfo<M extends MessageLike = MessageLike> {
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
  /** How many messages were folded into the summary. */
  summarized: number;
  summary: string;
  /** How many `summarize` calls wrote it: more than one when the head was longer than `summaryInputTokens`. */
  parts: number;
  /** The folded messages, verbatim, so a host can keep what was summarized away. */
  folded: M[];
}

export interface CompactorOptions<M extends MessageLike = MessageLike, D extends Dialect = "openai"> {
  /** The messages' format; "openai" when absent. */
  dialect?: D;
  /** Compact only when the count exceeds this. */
  maxTokens: number;
  /** Tokens of the most recent messages always kept verbatim; 0 or absent means maxTokens / 2. */
  keepTail?: number;
  /** Writes the summary of the folded messages; may call a model. Required once over budget. */
  summarize?: (older: M[]) => Promise<string> | string;
  /**
   * The most tokens (as `countTokens` counts) one `summarize` call may read:
   * the summarizing model's window less its answer. A longer head is
   * summarized in parts of whole rounds (a tool result stays with its call),
   * one call each, and their summaries are joined in order, so a conversation
   * already over that window can still be compacted. Absent: one call.
   */
  summaryInputTokens?: number;
  /** Defaults to estimateTokens. */
  countTokens?: (messages: readonly (M | SummaryMessageOf<D>)[]) => number;
  /** Add a reminder to save durable facts with the memory tool before they are summarized away. */
  flushToMemory?: boolean;
  onCompact?: (info: CompactInfo<M>) => void;
}

export interface BeforeLlmEvent<M extends MessageLike = MessageLike> {
  messages: M[];
  tools?: unknown[];
  model?: string;
  turn?: number;
}

/** The override a hook returns; undefined means send the request as it is. */
export type BeforeLlmOverride<M extends MessageLike = MessageLike> = { messages: M[] } | undefined;

/**
 * A hook run before each model request. It takes the caller's own message
 * type (an SDK's, or plain JSON) and gives back that type, or the summary
 * message its dialect adds, which the SDK's type accepts.
 */
export type BeforeLlmHook<
  M extends MessageLike = MessageLike,
  S extends MessageLike = SystemSummaryMessage,
> = <N extends M>(event: BeforeLlmEvent<N>) => Promise<BeforeLlmOverride<N | S>>;

export const SUMMARY_PREFIX = "[Summary of earlier conversation]";
export const FLUSH_REMINDER =
  "Earlier messages are about to be summarized. If they hold durable facts (decisions, preferences, names, paths) that are not saved yet, save it with the memory tool now.";

/** Σ ceil(len(JSON) / 4) over the messages: an estimate, not a tokenizer. */
export function estimateTokens(messages: readonly unknown[]): number {
  let total = 0;
  for (const m of messages) total += tokensOfChars(JSON.stringify(m).length);
  return total;
}

const blocks = (m: MessageLike): Record<string, unknown>[] =>
  "content" in m && Array.isArray(m.content) ? m.content.filter(isJsonObject) : [];

/** A tool result: OpenAI `role: "tool"`, or a user message with Anthropic `tool_result` blocks. */
export function carriesToolResult(m: MessageLike): boolean {
  return (
    m.role === "tool" ||
    m.role === "function" ||
    (m.role === "user" && blocks(m).some((b) => b.type === "tool_result"))
  );
}

/** A message that calls tools: OpenAI `tool_calls`, or Anthropic `tool_use` blocks. */
export function callsTools(m: MessageLike): boolean {
  const toolCalls = "tool_calls" in m ? m.tool_calls : undefined;
  return (
    m.role === "assistant" &&
    ((Array.isArray(toolCalls) && toolCalls.length > 0) || blocks(m).some((b) => b.type === "tool_use"))
  );
}

const isPrompt = (m: MessageLike) => m.role === "user" && !carriesToolResult(m);

/** Where the tail kept verbatim starts, and what before it stays: undefined when there is nothing to fold. */
function cut<T extends MessageLike>(
  body: readonly T[],
  keepTail: number,
  count: (messages: readonly T[]) => number,
): { pinned: number; start: number } | undefined {
  // A sole user prompt (one prompt, then only tool traffic) is kept, and the tail may then start at any
  // assistant message, which opens a round whose results follow it.
  const prompts = body.flatMap((m, i) => (isPrompt(m) ? [i] : []));
  const solePrompt = prompts.length === 1 ? prompts[0] : undefined;
  const pinned = solePrompt !== undefined ? solePrompt + 1 : 0;
  const opens = (m: MessageLike) => (solePrompt !== undefined ? m.role === "assistant" : isPrompt(m));
  const starts = body.flatMap((m, i) => (i > pinned && opens(m) ? [i] : []));
  let start: number | undefined;
  for (const i of starts) if (start === undefined || count(body.slice(i)) >= keepTail) start = i;
  if (start === undefined || start === pinned) return undefined;
  return { pinned, start };
}

/**
 * The head in parts of at most `max` tokens each, cut only before a message
 * that carries no tool result; a round longer than `max` is a part alone.
 */
function parts<T extends MessageLike>(
  head: readonly T[],
  max: number | undefined,
  count: (messages: readonly T[]) => number,
): T[][] {
  if (max === undefined || count(head) <= max) return [[...head]];
  const rounds: T[][] = [];
  for (const m of head) {
    const last = rounds.at(-1);
    if (last && carriesToolResult(m)) last.push(m);
    else rounds.push([m]);
  }
  const out: T[][] = [];
  for (const r of rounds) {
    const last = out.at(-1);
    if (last && count([...last, ...r]) <= max) last.push(...r);
    else out.push([...r]);
  }
  return out;
}

/** The summary (and the reminder) as messages: system messages for OpenAI, user messages for Anthropic. */
function summaryMessages(
  dialect: Dialect,
  summary: string,
  flush: boolean,
): { role: string; content: string }[] {
  const role = dialect === "anthropic" ? "user" : "system";
  return [`${SUMMARY_PREFIX}\n${summary}`, ...(flush ? [FLUSH_REMINDER] : [])].map((content) => ({
    role,
    content,
  }));
}

/**
 * A hook that keeps a message array under `maxTokens` by folding its head
 * into one summary message. Each call takes the caller's own message type
 * (an SDK's, or plain JSON) and gives back that type or the dialect's summary
 * message, which the SDK's type accepts; `compactor<MessageParam>({ dialect:
 * "anthropic", … })` also types what `summarize` receives.
 */
export function compactor<M extends MessageLike = MessageLike>(
  options: CompactorOptions<M, "anthropic"> & { dialect: "anthropic" },
): BeforeLlmHook<M, UserSummaryMessage>;
export function compactor<M extends MessageLike = MessageLike>(
  options: CompactorOptions<M>,
): BeforeLlmHook<M>;
export function compactor(
  options: CompactorOptions<MessageLike, Dialect>,
): BeforeLlmHook<MessageLike, { role: string; content: string }> {
  const count = options.countTokens ?? estimateTokens;
  const dialect = options.dialect ?? "openai";
  return async ({ messages }) => {
    const tokensBefore = count(messages);
    if (tokensBefore <= options.maxTokens) return undefined;
    const keepTail = options.keepTail || Math.floor(options.maxTokens / 2);
    // A leading system message is the caller's prompt (OpenAI's place for it; Anthropic's is a parameter).
    const lead = messages[0]?.role === "system" ? messages.slice(0, 1) : [];
    const body = messages.slice(lead.length);
    const at = cut(body, keepTail, count);
    if (!at) return undefined;
    const head = body.slice(at.pinned, at.start);
    if (!options.summarize)
      throw new Error("compactor: the conversation is over budget and no summarize function was given");
    const pieces = parts(head, options.summaryInputTokens, count);
    const summaries: string[] = [];
    for (const piece of pieces) summaries.push(await options.summarize(piece));
    const summary =
      summaries.length === 1
        ? summaries[0]!
        : summaries.map((text, i) => `Part ${i + 1} of ${summaries.length}:\n${text}`).join("\n\n");
    const out = [
      ...lead,
      ...body.slice(0, at.pinned),
      ...summaryMessages(dialect, summary, options.flushToMemory === true),
      ...body.slice(at.start),
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
      parts: pieces.length,
      folded: head,
    });
    return { messages: out };
  };
}
