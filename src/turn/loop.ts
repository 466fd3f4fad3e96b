// Owns one turn of `jp q`: the request, then cycles of project → request →
// stream → append responses → approve and run tools → append results, until
// the model stops calling tools. Each step is a named function below.
import { checkProviderView, describeViewProblem, project } from "../compaction/index.js";
import type { Event, KnownEvent, ToolCallRequest, UsageRecord } from "../events/index.js";
import { isJsonObject, turnCount } from "../events/index.js";
import { JpError } from "../errors.js";
import { REASONING_SIGNATURE_KEY } from "../llm/types.js";
import type { TurnOutput } from "../render/stream.js";
import { AbortedError } from "../llm/errors.js";
import { streamWithRetries } from "../llm/retry.js";
import type {
  ModelRequest,
  Provider,
  RequestCache,
  StopReason,
  ToolDefinition,
  Usage,
} from "../llm/types.js";
import { approveCall, type Approval } from "../tools/approval.js";
import { PromptInterruptedError, type Prompter } from "../tools/prompter.js";
import type { Tool, ToolContext } from "../tools/types.js";

/** Where the turn's events go: the conversation log, or memory with --no-persist. */
export interface TurnLog {
  events(): readonly Event[];
  append(group: readonly Event[]): void;
}

export interface TurnOptions {
  log: TurnLog;
  provider: Provider;
  modelId: string;
  modelName: string;
  system?: string;
  maxTokens: number;
  reasoningBudget?: number;
  /** Prompt caching, when on: the key is the conversation's id. */
  cache?: RequestCache;
  maxRetries: number;
  backoffMs: number;
  tools: readonly Tool[];
  /** Force the first request to call this tool; later requests choose freely. */
  forcedTool?: string;
  prompter: Prompter;
  output: TurnOutput;
  now: () => Date;
  cwd: string;
  signal: AbortSignal;
  /** The model's context window in tokens, when known: a request clearly above it is warned about before it is sent. */
  contextWindow?: number;
  /** Called before every provider request with the stream; may return events to append first (auto compaction). */
  beforeRequest?: (events: readonly Event[]) => Promise<Event[] | undefined>;
}

export interface TurnResult {
  interrupted: boolean;
  requests: number;
  lastStop?: StopReason;
}

interface Collected {
  reasoning: string;
  signature?: string;
  text: string;
  calls: ToolCallRequest[];
  usage?: UsageRecord;
  stop?: StopReason;
}

function usageRecord(usage: Usage): UsageRecord {
  return {
    ...(usage.inputTokens !== undefined ? { input_tokens: usage.inputTokens } : {}),
    ...(usage.outputTokens !== undefined ? { output_tokens: usage.outputTokens } : {}),
    ...(usage.cacheReadTokens ? { cache_read_tokens: usage.cacheReadTokens } : {}),
    ...(usage.cacheWriteTokens ? { cache_write_tokens: usage.cacheWriteTokens } : {}),
  };
}

const emptyCollected = (): Collected => ({ reasoning: "", text: "", calls: [] });

export const INTERRUPTED = "interrupted";

function toolDefinitions(tools: readonly Tool[]): ToolDefinition[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** A request's size at four characters a token: cheap, no tokenizer, enough to see one far over a window. */
export function approximateTokens(request: ModelRequest): number {
  let chars = (request.system?.length ?? 0) + JSON.stringify(request.tools).length;
  for (const e of request.events) {
    if (e.type === "chat_request" || e.type === "tool_call_response") chars += e.content.length;
    else if (e.type === "chat_response") chars += (e.message ?? e.reasoning ?? "").length;
    else if (e.type === "tool_call_request") chars += JSON.stringify(e.arguments).length;
  }
  return Math.ceil(chars / 4);
}

/** Build the request from the projection, asserting the provider view is valid. */
export function buildRequest(events: readonly Event[], options: TurnOptions, forced: boolean): ModelRequest {
  const { events: projected, settled } = project(events);
  const problems = checkProviderView(projected, { lastTurnFinished: true });
  if (problems.length) {
    throw new JpError(
      "turn.invalid_view",
      `the request would be invalid: ${problems.map(describeViewProblem).join("; ")}`,
      {
        hint: "run `jp conversation doctor` on this conversation",
      },
    );
  }
  return {
    model: options.modelName,
    ...(options.system ? { system: options.system } : {}),
    events: projected,
    tools: toolDefinitions(options.tools),
    toolChoice: forced && options.forcedTool ? { name: options.forcedTool } : "auto",
    maxTokens: options.maxTokens,
    ...(options.reasoningBudget ? { reasoningBudget: options.reasoningBudget } : {}),
    ...(options.cache ? { cache: options.cache, settled } : {}),
  };
}

/** Stream one response; on interruption, what arrived is returned with `interrupted`. */
async function streamResponse(
  request: ModelRequest,
  options: TurnOptions,
): Promise<{ collected: Collected; interrupted: boolean }> {
  let collected = emptyCollected();
  options.output.waiting();
  try {
    for await (const part of streamWithRetries(options.provider, request, {
      maxRetries: options.maxRetries,
      backoffMs: options.backoffMs,
      signal: options.signal,
      onRetry: (error, attempt, delay) => {
        options.output.retry(error, attempt, delay);
      },
    })) {
      switch (part.type) {
        case "restart":
          collected = emptyCollected();
          options.output.restart();
          break;
        case "text":
          collected.text += part.text;
          options.output.text(part.text);
          break;
        case "reasoning":
          collected.reasoning += part.text;
          options.output.reasoning(part.text);
          break;
        case "reasoning_signature":
          collected.signature = (collected.signature ?? "") + part.signature;
          break;
        case "tool_call":
          collected.calls.push({
            type: "tool_call_request",
            timestamp: options.now().toISOString(),
            id: part.id,
            name: part.name,
            arguments: part.arguments,
          });
          break;
        case "usage":
          collected.usage = usageRecord(part);
          break;
        case "stop":
          collected.stop = part.reason;
          break;
      }
    }
    return { collected, interrupted: false };
  } catch (error) {
    if (error instanceof AbortedError || options.signal.aborted) return { collected, interrupted: true };
    throw error;
  } finally {
    options.output.responseDone();
  }
}

/** The response events of one model response, usage and model on the last one. */
export function responseEvents(
  collected: Collected,
  options: Pick<TurnOptions, "modelId" | "now">,
  interrupted: boolean,
): Event[] {
  const at = options.now().toISOString();
  const events: KnownEvent[] = [];
  if (collected.reasoning) {
    events.push({
      type: "chat_response",
      timestamp: at,
      reasoning: collected.reasoning,
      ...(collected.signature ? { metadata: { [REASONING_SIGNATURE_KEY]: collected.signature } } : {}),
    });
  }
  if (collected.text || (interrupted && !collected.calls.length && !collected.reasoning)) {
    events.push({ type: "chat_response", timestamp: at, message: collected.text });
  }
  events.push(...collected.calls);
  const last = events.at(-1);
  if (last) {
    last.metadata = {
      ...(isJsonObject(last.metadata) ? last.metadata : {}),
      model: options.modelId,
      ...(collected.usage ? { usage: collected.usage } : {}),
      ...(collected.stop ? { stop_reason: collected.stop } : {}),
      ...(interrupted ? { interrupted: true } : {}),
    };
  }
  return events;
}

function syntheticResponse(call: ToolCallRequest, content: string, at: string): Event {
  return { type: "tool_call_response", timestamp: at, id: call.id, content, is_error: true };
}

/** Approve and run each tool call; results (and host effects) come back as one group. */
async function runTools(
  calls: readonly ToolCallRequest[],
  options: TurnOptions,
  remembered: Map<string, "run" | "decline">,
): Promise<{ group: Event[]; interrupted: boolean }> {
  const group: Event[] = [];
  const effects: Event[] = [];
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  for (const [i, call] of calls.entries()) {
    const at = () => options.now().toISOString();
    if (options.signal.aborted) {
      for (const rest of calls.slice(i)) group.push(syntheticResponse(rest, INTERRUPTED, at()));
      return { group: [...group, ...effects], interrupted: true };
    }
    const tool = byName.get(call.name);
    options.output.toolCall(call, tool?.renderArguments !== undefined);
    const respond = (content: string, isError: boolean) => {
      group.push({ type: "tool_call_response", timestamp: at(), id: call.id, content, is_error: isError });
      options.output.toolResult(call, content, isError);
    };
    if (!tool) {
      respond(
        `there is no tool named '${call.name}'; available: ${[...byName.keys()].join(", ") || "none"}`,
        true,
      );
      continue;
    }
    const events = [...options.log.events(), ...group, ...effects];
    const ctx: ToolContext = {
      events,
      cwd: options.cwd,
      signal: options.signal,
      turn: turnCount(events) - 1,
      remembered,
    };
    const invalid = tool.validate?.(call.arguments, ctx);
    if (invalid) {
      respond(`invalid arguments for ${tool.name}: ${invalid}. Fix the call and try again.`, true);
      continue;
    }
    let approval: Approval;
    try {
      approval = tool.approve
        ? await tool.approve(call.arguments, ctx, options.prompter)
        : await approveCall(tool, call.arguments, ctx, options.prompter);
    } catch (error) {
      if (!(error instanceof PromptInterruptedError)) throw error;
      // Ctrl-C at the prompt: this call and the ones after it are answered as interrupted.
      for (const rest of calls.slice(i)) group.push(syntheticResponse(rest, INTERRUPTED, at()));
      return { group: [...group, ...effects], interrupted: true };
    }
    if (!approval.run) {
      respond(approval.reason, true);
      continue;
    }
    const outcome = await tool.execute(approval.args, ctx).catch((error: unknown) => ({
      content: `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
      isError: true,
      effects: undefined,
    }));
    respond(outcome.content, outcome.isError);
    if (outcome.effects) effects.push(...outcome.effects);
  }
  return { group: [...group, ...effects], interrupted: options.signal.aborted };
}

/** Run one turn for `query`. */
export async function runTurn(query: string, options: TurnOptions): Promise<TurnResult> {
  const start = options.now().toISOString();
  options.log.append([
    { type: "turn_start", timestamp: start },
    { type: "chat_request", timestamp: start, content: query },
  ]);
  let requests = 0;
  let warnedOversize = false;
  // Y and N at an approval prompt hold for the rest of this turn.
  const remembered = new Map<string, "run" | "decline">();
  for (;;) {
    const extra = await options.beforeRequest?.(options.log.events());
    if (extra?.length) options.log.append(extra);
    const request = buildRequest(options.log.events(), options, requests === 0);
    requests += 1;
    if (options.contextWindow !== undefined && !warnedOversize) {
      const size = approximateTokens(request);
      if (size > options.contextWindow) {
        warnedOversize = true;
        options.output.notice(
          `this request is about ${size.toLocaleString("en-US")} tokens, more than the ${options.contextWindow.toLocaleString("en-US")}-token context window of ${options.modelId}; the provider will likely refuse it. Compact first (jp conversation compact), or turn on conversation.compaction.auto`,
        );
      }
    }
    let streamed: Awaited<ReturnType<typeof streamResponse>>;
    try {
      streamed = await streamResponse(request, options);
    } catch (error) {
      // Nothing answered the question: mark it failed, so the next request does not send it twice.
      if (requests === 1) {
        options.log.append([
          {
            type: "request_failed",
            timestamp: options.now().toISOString(),
            turn: turnCount(options.log.events()) - 1,
            reason: error instanceof Error ? error.message : String(error),
          },
        ]);
        const note =
          "the question is kept in the log, marked as failed, and is not sent again; `jp q --retry` asks it again";
        if (error instanceof JpError) error.notes.push(note);
        else options.output.notice(note);
      }
      throw error;
    }
    const { collected, interrupted } = streamed;
    const responses = responseEvents(collected, options, interrupted);
    if (interrupted) {
      // Tool calls that will not run get a response, so the stream stays valid for the next request.
      const at = options.now().toISOString();
      options.log.append([
        ...responses,
        ...collected.calls.map((c) => syntheticResponse(c, INTERRUPTED, at)),
      ]);
      return { interrupted: true, requests };
    }
    if (responses.length) options.log.append(responses);
    if (collected.stop === "max_tokens")
      options.output.notice("the response was cut off at the token limit (assistant.request.max_tokens)");
    if (collected.stop === "refusal") options.output.notice("the model declined to answer");
    if (collected.calls.length === 0) return { interrupted: false, requests, lastStop: collected.stop };
    let ran: Awaited<ReturnType<typeof runTools>>;
    try {
      ran = await runTools(collected.calls, options, remembered);
    } catch (error) {
      // Whatever failed, every logged call gets a response before the error ends the turn.
      const at = options.now().toISOString();
      const reason = `tool call failed: ${error instanceof Error ? error.message : String(error)}`;
      options.log.append(collected.calls.map((c) => syntheticResponse(c, reason, at)));
      throw error;
    }
    const { group, interrupted: toolsInterrupted } = ran;
    if (group.length) options.log.append(group);
    if (toolsInterrupted) return { interrupted: true, requests };
  }
}
