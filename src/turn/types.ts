// Owns what a turn is given and gives back: its log, its options, its result.
import { type OutputCap } from "../compaction/index.js";
import { type Attachment, type Event } from "../events/index.js";
import type { ModelFacts } from "../llm/capabilities.js";
import type { Provider, ReasoningRequest, RequestCache, StopReason } from "../llm/types.js";
import type { Prompter } from "../tools/prompter.js";
import type { Tool } from "../tools/types.js";
import type { TurnOutput } from "./output.js";
import type { ProviderClearing } from "./provider-clearing.js";

/** Where the turn's events go: the conversation log, or memory with --no-persist. */
export interface TurnLog {
  events(): readonly Event[];
  append(group: readonly Event[]): void;
  /** False with --no-persist: what is appended lives in memory only, and messages must not say it is kept. */
  persisted?: boolean;
}

export interface TurnOptions {
  log: TurnLog;
  provider: Provider;
  modelId: string;
  modelName: string;
  system?: string;
  maxTokens: number;
  /** Thinking asked for by the config; absent is off (and from a refusal of it on, for the rest of the turn). */
  reasoning?: ReasoningRequest;
  /**
   * Remember that the provider refused thinking for this model (its words):
   * later turns send none. Returns where it is kept, to say so.
   */
  rememberRefusedThinking?: (reason: string) => string;
  /**
   * On a model with preserved thinking, what the provider is asked to do with
   * a thinking block whose prefix changed all the same: drop it (default) or
   * refuse the request.
   */
  prefixMismatch?: "drop" | "error";
  /** What the model accepts (its capabilities), when known. */
  facts?: ModelFacts;
  /** Prompt caching, when on: the key is the conversation's id. */
  cache?: RequestCache;
  maxRetries: number;
  backoffMs: number;
  /** Times an answer cut off at maxTokens is asked to go on; absent or 0: never. */
  maxContinuations?: number;
  tools: readonly Tool[];
  /**
   * The conversation's usual tools (its config's, without this question's
   * `-t`/`-T`): on a model with preserved thinking whose provider takes tool
   * changes, the request's tools stay these, and what this question offers
   * besides or holds back is said where it is asked.
   */
  standingTools?: readonly Tool[];
  /**
   * What `conversation.attachments` names, read for this turn: sent before the
   * first question of every request, as JP sends its thread's attachments,
   * and not recorded (the config says what they are).
   */
  threadAttachments?: readonly Attachment[];
  /** What `-a` attached to the question, recorded with it. */
  attachments?: readonly Attachment[];
  /** The failed turn whose question this turn asks again (`jp q --retry`), recorded on the question. */
  retryOf?: number;
  /** Force the first request to call this tool; later requests choose freely. */
  forcedTool?: string;
  prompter: Prompter;
  output: TurnOutput;
  now: () => Date;
  cwd: string;
  signal: AbortSignal;
  /** The model's context window in tokens, when known: a request clearly above it is not sent. */
  contextWindow?: number;
  /** The view's cap of each tool's output (its max_output_bytes): longer ones are shown as head and tail. */
  outputCap?: OutputCap;
  /**
   * Automatic compaction of this turn's tool results left to the provider
   * (context editing): cleared server-side in bulk past `trigger` tokens
   * (turn/provider-clearing.ts), the request whole (a model with preserved thinking).
   */
  serverClearsToolUses?: ProviderClearing;
  /** Whether automatic compaction runs before each request (the refusal says what is left to do). */
  autoCompacts?: boolean;
  /** Called before every provider request with the stream; may return events to append first (auto compaction). */
  beforeRequest?: (events: readonly Event[]) => Promise<Event[] | undefined>;
}

export interface TurnResult {
  interrupted: boolean;
  requests: number;
  lastStop?: StopReason;
}
