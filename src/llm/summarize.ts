// Owns summaries for compaction: the summariser reads the raw events of a
// range (never a projection) and must return a complete, non-empty answer.
import {
  isBinaryAttachment,
  questionWithDocuments,
  DISCARDED_ATTEMPTS_KEY,
  isKind,
  type Event,
  type JsonObject,
  type UsageRecord,
} from "../events/index.js";
import type { Config } from "../config/schema.js";
import { JpError } from "../errors.js";
import { askOnce } from "./one-shot.js";
import { knownFacts } from "./model-info.js";
import { fitSummaryInput } from "../compaction/index.js";

export interface SummarizeRequest {
  /** Raw events of the turns to summarise. */
  events: readonly Event[];
  instructions?: string;
  context?: string;
  model: string;
  signal?: AbortSignal;
}

export interface Summary {
  text: string;
  model: string;
  /** What the summarizing request used, as billed; attempts a retry threw away are `discarded`. */
  usage?: UsageRecord;
  discarded?: UsageRecord[];
}

export interface Summarizer {
  summarize(request: SummarizeRequest): Promise<Summary>;
}

/**
 * The metadata that bills a summary to the event it made (a compaction):
 * the model, its usage and any discarded attempts, counted like a response's.
 */
export function summaryBilling(summary: Summary): JsonObject {
  return {
    model: summary.model,
    ...(summary.usage ? { usage: { ...summary.usage } } : {}),
    ...(summary.discarded ? { [DISCARDED_ATTEMPTS_KEY]: summary.discarded.map((u) => ({ ...u })) } : {}),
  };
}

export class SummaryFailedError extends JpError {
  constructor(message: string, hint?: string) {
    super("llm.summary_failed", message, { hint });
  }
}

export const DEFAULT_SUMMARY_INSTRUCTIONS = [
  "You write the summary that replaces part of a working conversation between a software developer and an assistant.",
  "The summary must stand alone: whoever reads it next has nothing else.",
  "Keep, exactly as written: file paths, commands, identifiers, exact error messages and numbers.",
  "Keep every decision with its reason, and the alternatives that were rejected and why.",
  "End with the current state of the work and the next steps.",
  "Write plain prose and short lists. Do not address the reader and do not add anything that did not happen.",
].join("\n");

/** The raw events as a readable transcript for the summariser. */
export function transcript(events: readonly Event[]): string {
  const names = new Map<string, string>();
  const lines: string[] = [];
  for (const e of events) {
    // Text attachments are summarised with the question; images and PDFs are named.
    if (isKind(e, "chat_request")) {
      const binary = (e.attachments ?? [])
        .filter(isBinaryAttachment)
        .map((a) => `${a.source} (${a.media_type})`);
      lines.push(
        `USER: ${questionWithDocuments(e.content, e.attachments)}${
          binary.length
            ? `
[attached: ${binary.join(", ")}]`
            : ""
        }`,
      );
    } else if (isKind(e, "chat_response")) {
      // The model's reasoning is never transcribed: it is the model's own, providers refuse
      // requests that carry it as text, and what came of it is in the answers and tool calls.
      if (typeof e.reasoning === "string") continue;
      if (typeof e.message === "string") lines.push(`ASSISTANT: ${e.message}`);
      else lines.push(`ASSISTANT (data): ${JSON.stringify(e.data)}`);
    } else if (isKind(e, "tool_call_request")) {
      names.set(e.id, e.name);
      lines.push(`TOOL CALL ${e.name}: ${JSON.stringify(e.arguments)}`);
    } else if (isKind(e, "tool_call_response")) {
      lines.push(`TOOL RESULT ${names.get(e.id) ?? "unknown"}${e.is_error ? " (error)" : ""}: ${e.content}`);
    }
  }
  return lines.join("\n\n");
}

/** Characters of input a summary by a model of `window` tokens may read: its window less its answer, at three characters a token. */
function inputBudget(model: string, config: Config, env: NodeJS.ProcessEnv): number {
  const facts = knownFacts(model, config, env);
  if (facts.contextWindow === undefined) return Number.POSITIVE_INFINITY;
  const answer = Math.min(facts.maxOutputTokens ?? 8_000, 16_000);
  return Math.max(8_000, (facts.contextWindow - answer - 2_000) * 3);
}

const USAGE_FIELDS = [
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "cache_write_1h_tokens",
  "reasoning_tokens",
  "cost_usd",
] as const;

/** The sum of usage records, field by field (a field neither has stays out). */
function addRecords(a: UsageRecord | undefined, b: UsageRecord | undefined): UsageRecord | undefined {
  if (!a || !b) return a ?? b;
  const sum: UsageRecord = {};
  for (const key of USAGE_FIELDS)
    if (a[key] !== undefined || b[key] !== undefined) sum[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return sum;
}

type PartSummary = Summary & { discarded: UsageRecord[] };

/** One request for a summary of `conversation` (a transcript), asked as `what` says; refused, cut or empty answers fail. */
async function askSummary(
  config: Config,
  env: NodeJS.ProcessEnv,
  onProgress: ((text: string) => void) | undefined,
  request: SummarizeRequest,
  conversation: string,
  what: string,
): Promise<PartSummary> {
  const question = [
    request.context ? `What to keep in view: ${request.context}\n` : "",
    `${what}:\n\n<conversation>\n`,
    conversation,
    "\n</conversation>",
  ].join("");
  const { text, stop, usage, discarded } = await askOnce(
    {
      model: request.model,
      system: request.instructions ?? DEFAULT_SUMMARY_INSTRUCTIONS,
      question,
      ...(request.signal ? { signal: request.signal } : {}),
      ...(onProgress ? { onRetry: onProgress } : {}),
    },
    config,
    env,
  );
  if (stop === "refusal")
    throw new SummaryFailedError(`${request.model} declined to write the summary; nothing was recorded`);
  if (stop === "max_tokens") {
    throw new SummaryFailedError(
      `the summary by ${request.model} was cut off at the token limit; nothing was recorded`,
      "raise assistant.request.max_tokens or summarize fewer turns",
    );
  }
  if (!text.trim())
    throw new SummaryFailedError(`${request.model} returned an empty summary; nothing was recorded`);
  return { text: text.trim(), model: request.model, ...(usage ? { usage } : {}), discarded };
}

export function createSummarizer(
  config: Config,
  env: NodeJS.ProcessEnv,
  onProgress?: (text: string) => void,
): Summarizer {
  const ask = (request: SummarizeRequest, conversation: string, what: string) =>
    askSummary(config, env, onProgress, request, conversation, what);
  return {
    async summarize(request) {
      // The input is made to fit the model's window: a conversation over it can still be compacted.
      const fitted = fitSummaryInput(
        request.events,
        inputBudget(request.model, config, env),
        (events) => transcript(events).length,
      );
      if (fitted.steps.length)
        onProgress?.(
          `the turns to summarize are larger than ${request.model}'s window: ${fitted.steps.join("; ")}`,
        );
      const parts: PartSummary[] = [];
      for (const [i, part] of fitted.parts.entries()) {
        const what =
          fitted.parts.length === 1
            ? "Summarize this part of the conversation"
            : `Summarize part ${i + 1} of ${fitted.parts.length} of this part of the conversation`;
        parts.push(await ask(request, transcript(part), what));
      }
      // Parts are summarized once more, together: one request, whatever their number.
      const whole =
        parts.length === 1
          ? parts[0]!
          : await ask(
              request,
              parts.map((p, i) => `PART ${i + 1} OF ${parts.length}:\n${p.text}`).join("\n\n"),
              "Combine these summaries of consecutive parts into one summary of the whole",
            );
      const usage = [...parts, ...(parts.length > 1 ? [whole] : [])].reduce<UsageRecord | undefined>(
        (sum, p) => addRecords(sum, p.usage),
        undefined,
      );
      const discarded = [...parts, ...(parts.length > 1 ? [whole] : [])].flatMap((p) => p.discarded);
      return {
        text: whole.text,
        model: request.model,
        ...(usage ? { usage } : {}),
        ...(discarded.length ? { discarded } : {}),
      };
    },
  };
}
