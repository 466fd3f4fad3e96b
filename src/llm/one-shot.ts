// Owns one request that is not a turn of the conversation (a summary, a
// title): a system prompt and one question to a model, the answer's text
// collected with the provider's retries, and what it used.
import type { Config } from "../config/schema.js";
import type { UsageRecord } from "../events/index.js";
import { knownFacts } from "./model-info.js";
import { createProvider, requestSettings } from "./create-provider.js";
import { streamWithRetries } from "./retry.js";
import type { ModelRequest, Provider, StopReason, StreamPart } from "./types.js";
import { usageRecord } from "./usage.js";

/** Output tokens added for a reasoning model's least reasoning, so a short answer is not eaten by it. */
const REASONING_ROOM = 2048;

export interface OneShotRequest {
  /** provider/name. */
  model: string;
  system: string;
  question: string;
  maxTokens?: number;
  signal?: AbortSignal;
  onRetry?: (text: string) => void;
}

export interface OneShotAnswer {
  text: string;
  stop: StopReason | undefined;
  usage?: UsageRecord;
  /** Usage of attempts a retry threw away. */
  discarded: UsageRecord[];
}

export async function askOnce(
  request: OneShotRequest,
  config: Config,
  env: NodeJS.ProcessEnv,
): Promise<OneShotAnswer> {
  const { provider, model } = createProvider(request.model, config, env);
  const facts = knownFacts(request.model, config, env);
  const asked = request.maxTokens ?? requestSettings(config, facts).maxTokens;
  // Thinking off (as the model takes it); a reasoning model still reasons a little, so it gets room for that.
  const maxTokens = Math.min(
    facts.reasons ? asked + REASONING_ROOM : asked,
    facts.maxOutputTokens ?? Infinity,
  );
  let text = "";
  let stop: StopReason | undefined;
  const billed = await streamOnce(
    provider,
    {
      model: model.name,
      system: request.system,
      events: [{ type: "chat_request", timestamp: new Date().toISOString(), content: request.question }],
      tools: [],
      toolChoice: "auto",
      maxTokens,
      ...(Object.keys(facts).length ? { facts } : {}),
    },
    config,
    request,
    (part) => {
      if (part === "restart") text = "";
      else if (part.type === "text") text += part.text;
      else if (part.type === "stop") stop = part.reason;
    },
  );
  return { text, stop, ...billed };
}

/**
 * Stream one request that is not a turn with the provider's retries, handing
 * each part to `onPart` ("restart" when a retry throws away what came), and
 * return what it used: the answer's usage and that of discarded attempts.
 */
export async function streamOnce(
  provider: Provider,
  request: ModelRequest,
  config: Config,
  control: { signal?: AbortSignal; onRetry?: (text: string) => void },
  onPart: (part: StreamPart | "restart") => void,
): Promise<{ usage?: UsageRecord; discarded: UsageRecord[] }> {
  const settings = requestSettings(config, request.facts ?? {});
  let usage: UsageRecord | undefined;
  const discarded: UsageRecord[] = [];
  for await (const part of streamWithRetries(provider, request, {
    maxRetries: settings.maxRetries,
    backoffMs: settings.backoffMs,
    signal: control.signal ?? new AbortController().signal,
    onRetry: (error, attempt) => control.onRetry?.(`${error.message}; retry ${attempt}`),
  })) {
    if (part.type === "restart") {
      if (usage) discarded.push(usage);
      usage = undefined;
      onPart("restart");
      continue;
    }
    if (part.type === "usage") usage = usageRecord(part);
    onPart(part);
  }
  return { ...(usage ? { usage } : {}), discarded };
}
