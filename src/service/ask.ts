// Owns `jp q`'s use case, its steps named and in order: the configuration
// (read once), the model made ready, the conversation (made only once the
// model is ready, so a refused attachment or an unknown provider leaves no
// empty conversation behind), the turn lock taken through the store, the
// tools, the turn, and what follows it. The command gives each step's work
// (its terminal, its files) through AskSteps; what is held, and that it is
// released on every path, is decided here.
import { JpError } from "../errors.js";
import type { Attachment, Event } from "../events/index.js";
import type { ModelCapabilities } from "../llm/capabilities.js";
import type { Provider } from "../llm/types.js";
import type { ConversationRef } from "../store/conversations.js";
import type { Tool } from "../tools/types.js";
import { runTurn } from "../turn/loop.js";
import { recordFailedQuestion } from "../turn/record.js";
import type { TurnOptions, TurnResult } from "../turn/types.js";

/** The question asked: new, or a failed one asked again (`--retry`). */
export interface Question {
  query: string;
  /** The failed turn this asks again, and the attachments it had. */
  retry?: { turn: number; attachments: Attachment[] };
}

/** The provider and what its model takes, with the question's attachments read and checked against it. */
export interface ReadyModel {
  modelId: string;
  provider: Provider;
  modelName: string;
  capabilities: ModelCapabilities;
  /** What the question attaches (`-a`, or the retried question's), recorded with it. */
  attachments: Attachment[];
  /** What the configuration attaches to every request, not recorded. */
  configAttachments: Attachment[];
}

/** The conversation's log as the store keeps it (empty for one never written). */
export interface StoredLog {
  events(): readonly Event[];
  append(group: readonly Event[]): void;
}

/** Tools offered for the turn, and how to end what was started for them (MCP servers). */
export interface OfferedTools {
  tools: Tool[];
  /** The conversation's usual tools (without this question's own choice), when known. */
  standing?: Tool[];
  close(): Promise<void>;
}

/** The turn's options that are neither its log nor its model: the configuration's settings, the terminal. */
export type TurnSetup = Omit<
  TurnOptions,
  | "log"
  | "provider"
  | "modelId"
  | "modelName"
  | "tools"
  | "standingTools"
  | "attachments"
  | "threadAttachments"
  | "retryOf"
  | "signal"
>;

/** Each step's work, as the command does it. `C` is the configuration the command reads. */
export interface AskSteps<C> {
  /** 1. The configuration of this query, read once. */
  configure(): Promise<C>;
  /** 2. The provider and the model, ready; nothing is recorded yet. */
  readyModel(config: C): Promise<ReadyModel>;
  /** 3. The conversation asked in, made now when new, with what it keeps of this query (-m, a persona, -k). */
  conversation(config: C, model: ReadyModel): Promise<ConversationRef>;
  /** Whether the turn is kept in the conversation's log (false with --no-persist: it lives in memory only). */
  readonly keeps: boolean;
  /** The conversation's log in the store. */
  log(ref: ConversationRef): StoredLog;
  /** 4. The turn lock, taken through the store. */
  holdTurn(ref: ConversationRef): { release(): void };
  /** What ends the turn early (Ctrl-C); `release` frees the lock when the process must quit at once. */
  interrupts(release: () => void): { signal: AbortSignal; dispose(): void };
  /** 5. The tools offered, and what was started for them. */
  offerTools(config: C, ref: ConversationRef): Promise<OfferedTools>;
  /** 6. The turn's settings and terminal. */
  setUp(
    config: C,
    tools: readonly Tool[],
    ref: ConversationRef,
    model: ReadyModel,
    signal: AbortSignal,
  ): Promise<TurnSetup>;
  /** Told of each group as it is recorded (with --json, it is printed). */
  recorded(group: readonly Event[]): void;
  /** What an interrupted earlier turn left unanswered, answered through `record` before this turn starts. */
  repair(events: readonly Event[], record: (group: readonly Event[]) => void): void;
  /** 7. What follows the turn: usage, prices, a title. `events` are the turn's own. */
  afterTurn(config: C, ref: ConversationRef, events: readonly Event[], result: TurnResult): Promise<void>;
  /** The clock a question recorded as failed is stamped by. */
  now(): Date;
}

/** Ask `question`: every step in order; the lock and what the tools started are let go on every path. */
export async function ask<C>(steps: AskSteps<C>, question: Question): Promise<TurnResult> {
  const config = await steps.configure();
  const model = await steps.readyModel(config);
  const ref = await steps.conversation(config, model);
  const log = steps.log(ref);
  // The conversation is ours for the whole turn; taken before anything is started (MCP servers).
  const lock = steps.keeps ? steps.holdTurn(ref) : undefined;
  const interrupt = steps.interrupts(() => lock?.release());
  let offered: OfferedTools | undefined;
  try {
    offered = await steps.offerTools(config, ref).catch((error: unknown) => {
      // A server that would not start loses nothing: the question is recorded, failed, for --retry.
      if (steps.keeps) recordUnasked(steps, log, question, model, error);
      throw error;
    });
    const setup = await steps.setUp(config, offered.tools, ref, model, interrupt.signal);
    const { result, events } = await turn(steps, {
      question,
      model,
      log,
      tools: offered.tools,
      ...(offered.standing ? { standing: offered.standing } : {}),
      setup,
      signal: interrupt.signal,
    });
    await steps.afterTurn(config, ref, events, result);
    if (result.interrupted)
      throw new JpError("turn.interrupted", "the turn was interrupted; what arrived is kept", {
        exitCode: 130,
      });
    return result;
  } finally {
    interrupt.dispose();
    lock?.release();
    await offered?.close();
  }
}

interface TurnAsked {
  question: Question;
  model: ReadyModel;
  log: StoredLog;
  tools: readonly Tool[];
  standing?: readonly Tool[];
  setup: TurnSetup;
  signal: AbortSignal;
}

/** The turn on a copy of the log, every group also appended to the store's unless nothing is kept. */
async function turn<C>(steps: AskSteps<C>, asked: TurnAsked) {
  const { question, model } = asked;
  const memory: Event[] = [...asked.log.events()];
  const record = (group: readonly Event[]) => {
    if (steps.keeps) asked.log.append(group);
    memory.push(...group);
    steps.recorded(group);
  };
  steps.repair(memory, record);
  const turnStart = memory.length;
  const result = await runTurn(question.query, {
    ...asked.setup,
    ...(question.retry ? { retryOf: question.retry.turn } : {}),
    attachments: model.attachments,
    ...(model.configAttachments.length ? { threadAttachments: model.configAttachments } : {}),
    log: { events: () => memory, append: record, persisted: steps.keeps },
    provider: model.provider,
    modelId: model.modelId,
    modelName: model.modelName,
    tools: asked.tools,
    ...(asked.standing ? { standingTools: asked.standing } : {}),
    signal: asked.signal,
  });
  return { result, events: memory.slice(turnStart) };
}

/** The question recorded as failed, before the turn could start: --retry asks it again. */
function recordUnasked<C>(
  steps: AskSteps<C>,
  stored: StoredLog,
  question: Question,
  model: ReadyModel,
  error: unknown,
): void {
  recordFailedQuestion(question.query, error, {
    now: () => steps.now(),
    attachments: model.attachments,
    ...(question.retry ? { retryOf: question.retry.turn } : {}),
    log: stored,
  });
}
