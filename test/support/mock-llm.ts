// A local mock LLM server on 127.0.0.1 speaking Anthropic's Messages (and
// Models) API, OpenAI's Chat Completions and Responses streaming formats. It plays scripted responses in
// order, records every request, and can inject faults.
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { compactionRefusal } from "./compaction-rules.js";
import {
  checkPrefixes,
  checkToolChanges,
  contextEditing,
  COMPACTION_BETA,
  compactionBlock,
  PRESERVED_THINKING_MODELS,
  type Dropped,
} from "./preserved-thinking.js";

export interface ScriptedToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ScriptedResponse {
  text?: string;
  reasoning?: string;
  signature?: string;
  tool_calls?: ScriptedToolCall[];
  /** `cost`: what OpenRouter's last chunk says the request cost (its `usage.cost`, in dollars). */
  usage?: { input: number; output: number; cost?: number };
  /** end_turn | tool_use | max_tokens | refusal (Anthropic names; mapped for OpenAI). */
  stop?: string;
  /** Wait before the first byte. */
  delay_first_byte_ms?: number;
  /** Wait between stream events. */
  event_delay_ms?: number;
  /** Write the stream in pieces of this many bytes (cutting through events and characters), each flushed apart. */
  split_bytes?: number;
  /** Stream the answer's text in deltas of this many characters (12 unless given). */
  text_piece?: number;
  /** `error_code`: Anthropic's `error.details.error_code` (on-demand compaction's `compaction_unavailable`…). */
  fault?: {
    status?: number;
    retry_after?: number;
    message?: string;
    cut_after_events?: number;
    error_code?: string;
  };
  /** A recorded answer replayed byte for byte instead of one made from the fields above. */
  raw?: RawResponse;
  /** Responses API: what the API removed from the request (a newer model's reasoning items after a changed prefix). */
  input_transformations?: Record<string, unknown>[];
}

export interface RawResponse {
  /** The body, written piece by piece as given. */
  pieces: string[];
  status?: number;
  /** Default: text/event-stream. */
  headers?: Record<string, string>;
  /** Compress the whole body with gzip (and say so in content-encoding). */
  gzip?: boolean;
  /** Stop writing after this many pieces and hold the connection open, silent. */
  stall_after?: number;
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface MockLlm {
  url: string;
  /** Model requests (POST), in order; the Models API's GETs are in `modelRequests`. */
  requests: RecordedRequest[];
  /** What the Models API (`GET /v1/models/{id}`) answers, by id (a string: that text, not JSON); any other id is a 404. */
  models: Map<string, object | string>;
  /** Other GET answers, by path (llama.cpp's `/props`, OpenRouter's `/api/v1/models`). */
  gets: Map<string, object>;
  modelRequests: RecordedRequest[];
  /**
   * Thinking blocks a model with preserved thinking dropped, by request
   * (1-based): another model's, or (with drop_block) one whose prefix changed.
   */
  dropped: (Dropped & { request: number })[];
  /** Requests refused with a 400 for a thinking block bound to another prefix. */
  refusedForBinding: number;
  /** Per request that asked for context editing, the edits it applied (none: `[]`). */
  contextEdits: Record<string, unknown>[][];
  /** TCP connections accepted so far. */
  connections(): number;
  /** Responses not played yet. */
  queue: ScriptedResponse[];
  push(...responses: ScriptedResponse[]): void;
  /** Resolves when the n-th request (1-based) has started streaming. */
  streaming(n: number): Promise<void>;
  close(): Promise<void>;
}

export const LLM_FIXTURES = path.resolve(import.meta.dirname, "../../fixtures/llm");

export function loadScript(name: string): ScriptedResponse[] {
  return (
    JSON.parse(fs.readFileSync(path.join(LLM_FIXTURES, `${name}.json`), "utf8")) as {
      responses: ScriptedResponse[];
    }
  ).responses;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function chunks(text: string, size = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export type SseEvent = [string, Record<string, unknown>];

/** One content block as the Messages API streams it: its start, its deltas, its stop. */
export function anthropicBlock(
  index: number,
  contentBlock: Record<string, unknown>,
  deltas: Record<string, unknown>[],
): SseEvent[] {
  return [
    ["content_block_start", { type: "content_block_start", index, content_block: contentBlock }],
    ...deltas.map((delta): SseEvent => [
      "content_block_delta",
      { type: "content_block_delta", index, delta },
    ]),
    ["content_block_stop", { type: "content_block_stop", index }],
  ];
}

/** The scripted response's blocks in the order Anthropic streams them: thinking, text, tool calls. */
function anthropicBlocks(r: ScriptedResponse): [Record<string, unknown>, Record<string, unknown>[]][] {
  const blocks: [Record<string, unknown>, Record<string, unknown>[]][] = [];
  if (r.reasoning !== undefined)
    blocks.push([
      { type: "thinking", thinking: "", signature: "" },
      [
        ...chunks(r.reasoning).map((c) => ({ type: "thinking_delta", thinking: c })),
        { type: "signature_delta", signature: r.signature ?? "mock-signature" },
      ],
    ]);
  if (r.text !== undefined)
    blocks.push([
      { type: "text", text: "" },
      chunks(r.text, r.text_piece).map((c) => ({ type: "text_delta", text: c })),
    ]);
  for (const call of r.tool_calls ?? [])
    blocks.push([
      { type: "tool_use", id: call.id, name: call.name, input: {} },
      chunks(JSON.stringify(call.arguments), 7).map((c) => ({ type: "input_json_delta", partial_json: c })),
    ]);
  return blocks;
}

/** The Messages API's first event: the message, empty, with the input counts. */
export function anthropicMessageStart(model: string, input: number, cache = { read: 0, write: 0 }): SseEvent {
  return [
    "message_start",
    {
      type: "message_start",
      message: {
        id: "msg_mock",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // Anthropic counts fresh input apart from what was read from or written to the cache.
        usage: {
          input_tokens: input - cache.read - cache.write,
          output_tokens: 1,
          cache_read_input_tokens: cache.read,
          cache_creation_input_tokens: cache.write,
        },
      },
    },
  ];
}

/** What a model with preserved thinking adds to its answer: the signature it binds, what it dropped. */
interface Preserved {
  signature?: string;
  transformations: Record<string, unknown>[];
  /** Context editing's applied edits, said in message_delta's `context_management`. */
  appliedEdits?: Record<string, unknown>[];
}

function anthropicEvents(
  r: ScriptedResponse,
  model: string,
  cache: CacheUsage,
  preserved?: Preserved,
): SseEvent[] {
  // A scripted usage stands as given, uncached.
  if (r.usage) cache = { read: 0, write: 0 };
  // What the model read: the cache counted the request as context editing left it.
  const usage = r.usage ?? { input: cache.total ?? 100, output: 20 };
  const start = anthropicMessageStart(model, usage.input, cache);
  if (preserved) {
    if (r.signature === undefined && preserved.signature !== undefined)
      r = { ...r, signature: preserved.signature };
    if (preserved.transformations.length)
      (start[1].message as Record<string, unknown>).input_transformations = preserved.transformations;
  }
  const stop = r.stop ?? (r.tool_calls?.length ? "tool_use" : "end_turn");
  return [
    start,
    ...anthropicBlocks(r).flatMap(([block, deltas], index) => anthropicBlock(index, block, deltas)),
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { output_tokens: usage.output },
        ...(preserved?.appliedEdits ? { context_management: { applied_edits: preserved.appliedEdits } } : {}),
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
}

const OPENAI_STOP: Record<string, string> = {
  end_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  refusal: "content_filter",
};

function openaiEvents(r: ScriptedResponse, model: string, cache: CacheUsage): Record<string, unknown>[] {
  const base = { id: "chatcmpl-mock", object: "chat.completion.chunk", created: 1_790_000_000, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: Record<string, unknown>[] = [chunk({ role: "assistant", content: "" })];
  for (const c of chunks(r.reasoning ?? "")) events.push(chunk({ reasoning_content: c }));
  for (const c of chunks(r.text ?? "", r.text_piece)) events.push(chunk({ content: c }));
  (r.tool_calls ?? []).forEach((call, i) => {
    events.push(
      chunk({
        tool_calls: [
          { index: i, id: call.id, type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const c of chunks(JSON.stringify(call.arguments), 7))
      events.push(chunk({ tool_calls: [{ index: i, function: { arguments: c } }] }));
  });
  const stop = r.stop ?? (r.tool_calls?.length ? "tool_use" : "end_turn");
  events.push(chunk({}, OPENAI_STOP[stop] ?? "stop"));
  // A scripted usage stands as given, uncached.
  if (r.usage) cache = { read: 0, write: 0 };
  const usage = r.usage ?? { input: cache.total ?? 100, output: 20 };
  events.push({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
      prompt_tokens_details: { cached_tokens: cache.read },
      ...(r.usage?.cost !== undefined ? { cost: r.usage.cost } : {}),
    },
  });
  return events;
}

/**
 * The scripted response as the Responses API streams it: a reasoning item
 * (summary deltas, then the item whole with its encrypted content), a message
 * item, function calls, and `response.completed` with the usage (or
 * `response.incomplete` for a cut answer).
 */
function responsesEvents(r: ScriptedResponse, model: string, cache: CacheUsage): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  let seq = 0;
  const push = (type: string, fields: Record<string, unknown>) =>
    events.push({ type, sequence_number: seq++, ...fields });
  const response = { id: "resp_mock", object: "response", created_at: 1_790_000_000, model };
  push("response.created", { response: { ...response, status: "in_progress", output: [] } });
  const output: Record<string, unknown>[] = [];
  const item = (added: Record<string, unknown>, done: Record<string, unknown>, deltas: () => void) => {
    const output_index = output.length;
    push("response.output_item.added", { output_index, item: added });
    deltas();
    push("response.output_item.done", { output_index, item: done });
    output.push(done);
  };
  if (r.reasoning !== undefined) {
    const id = `rs_mock_${seq}`;
    const done = {
      type: "reasoning",
      id,
      summary: [{ type: "summary_text", text: r.reasoning }],
      encrypted_content: r.signature ?? `enc:${r.reasoning.length}`,
    };
    item({ type: "reasoning", id, summary: [] }, done, () => {
      push("response.reasoning_summary_part.added", {
        item_id: id,
        output_index: output.length,
        summary_index: 0,
        part: { type: "summary_text", text: "" },
      });
      for (const c of chunks(r.reasoning ?? ""))
        push("response.reasoning_summary_text.delta", {
          item_id: id,
          output_index: output.length,
          summary_index: 0,
          delta: c,
        });
    });
  }
  if (r.text !== undefined) {
    const id = `msg_mock_${seq}`;
    const content = [{ type: "output_text", text: r.text, annotations: [] }];
    item(
      { type: "message", id, role: "assistant", status: "in_progress", content: [] },
      { type: "message", id, role: "assistant", status: "completed", content },
      () => {
        for (const c of chunks(r.text ?? "", r.text_piece))
          push("response.output_text.delta", {
            item_id: id,
            output_index: output.length,
            content_index: 0,
            delta: c,
            logprobs: [],
          });
      },
    );
  }
  for (const call of r.tool_calls ?? []) {
    const id = `fc_${call.id}`;
    const json = JSON.stringify(call.arguments);
    item(
      { type: "function_call", id, call_id: call.id, name: call.name, arguments: "", status: "in_progress" },
      { type: "function_call", id, call_id: call.id, name: call.name, arguments: json, status: "completed" },
      () => {
        for (const c of chunks(json, 7))
          push("response.function_call_arguments.delta", {
            item_id: id,
            output_index: output.length,
            delta: c,
          });
      },
    );
  }
  if (r.usage) cache = { read: 0, write: 0 };
  const usage = r.usage ?? { input: cache.total ?? 100, output: 20 };
  const cut = r.stop === "max_tokens";
  push(cut ? "response.incomplete" : "response.completed", {
    response: {
      ...response,
      status: cut ? "incomplete" : "completed",
      incomplete_details: cut ? { reason: "max_output_tokens" } : null,
      output,
      ...(r.input_transformations ? { input_transformations: r.input_transformations } : {}),
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: cache.read },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: r.reasoning ? Math.min(usage.output, 10) : 0 },
        total_tokens: usage.input + usage.output,
      },
    },
  });
  return events;
}

/**
 * The scripted response as Ollama's `/api/chat` streams it: one JSON object
 * a line, thinking and content in `message`, tool calls whole, and a last
 * `done` line with the reason and the counts.
 */
function ollamaLines(r: ScriptedResponse, model: string): string[] {
  const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    `${JSON.stringify({ model, created_at: "2026-12-01T10:00:00Z", message: { role: "assistant", content: "", ...message }, done: false, ...extra })}\n`;
  const lines: string[] = [];
  for (const c of chunks(r.reasoning ?? "")) lines.push(line({ thinking: c }));
  for (const c of chunks(r.text ?? "", r.text_piece)) lines.push(line({ content: c }));
  if (r.tool_calls?.length)
    lines.push(
      line({ tool_calls: r.tool_calls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) }),
    );
  const usage = r.usage ?? { input: 100, output: 20 };
  lines.push(
    line(
      {},
      {
        done: true,
        done_reason: r.stop === "max_tokens" ? "length" : "stop",
        prompt_eval_count: usage.input,
        eval_count: usage.output,
      },
    ),
  );
  return lines;
}

/** Tokens of a request as the mock counts them, and what its cache rules made of them. */
interface CacheUsage {
  /** Every prompt token (undefined when bodies are not recorded). */
  total?: number;
  read: number;
  write: number;
}

const tokensOf = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);

/**
 * The providers' prompt-caching rules, simplified but faithful in what they
 * reward: Anthropic caches the prefix up to each `cache_control` breakpoint
 * (at least 1,024 tokens) and finds a cached prefix up to 20 blocks before a
 * breakpoint; OpenAI caches every prompt automatically and reads back the
 * longest previously seen prefix of at least 1,024 tokens, in steps of 128.
 * Entries never expire here.
 */
export class PromptCache {
  private readonly seen = new Set<string>();

  anthropic(body: Record<string, unknown>): CacheUsage {
    const blocks: Record<string, unknown>[] = [];
    for (const tool of (body.tools as Record<string, unknown>[] | undefined) ?? []) blocks.push(tool);
    const system = body.system;
    if (typeof system === "string") blocks.push({ type: "text", text: system });
    else for (const b of (system as Record<string, unknown>[] | undefined) ?? []) blocks.push(b);
    for (const m of (body.messages as { role: string; content: unknown }[] | undefined) ?? []) {
      if (typeof m.content === "string") blocks.push({ role: m.role, type: "text", text: m.content });
      else for (const b of m.content as Record<string, unknown>[]) blocks.push({ role: m.role, ...b });
    }
    const { hashes, cumulative } = this.chain(String(body.model), blocks);
    const total = cumulative.at(-1) ?? 0;
    const breakpoints = blocks.flatMap((b, i) => (b.cache_control ? [i] : []));
    let readIndex = -1;
    for (const bp of breakpoints)
      for (let j = bp; j >= Math.max(0, bp - 20); j--)
        if (j > readIndex && this.seen.has(hashes[j]!)) readIndex = j;
    const read = readIndex >= 0 ? cumulative[readIndex]! : 0;
    let write = 0;
    for (const bp of breakpoints) {
      if (cumulative[bp]! < 1024 || bp <= readIndex) continue;
      this.seen.add(hashes[bp]!);
      write = cumulative[bp]! - read;
    }
    return { total, read, write };
  }

  openai(body: Record<string, unknown>): CacheUsage {
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
    // "Starting with GPT-6.2, models append the top-level `instructions` content after `input`"
    // (https://developers.openai.com/api/docs/guides/latest-model): there they are no prefix.
    const late = String(body.model).startsWith("gpt-6.2");
    const instructions = list(body.instructions ? [body.instructions] : []);
    const units = [
      ...list(body.tools),
      ...(late ? [] : instructions),
      ...list(body.messages),
      ...list(body.input),
      ...(late ? instructions : []),
      ...list(body.systemInstruction ? [body.systemInstruction] : []),
      ...list(body.contents),
    ];
    const namespace = JSON.stringify([body.model, body.prompt_cache_key ?? ""]);
    const { hashes, cumulative } = this.chain(namespace, units);
    const total = cumulative.at(-1) ?? 0;
    let longest = 0;
    hashes.forEach((h, i) => {
      if (this.seen.has(h)) longest = cumulative[i]!;
    });
    for (const h of hashes) this.seen.add(h);
    const read = longest >= 1024 ? Math.floor(longest / 128) * 128 : 0;
    return { total, read, write: 0 };
  }

  private chain(namespace: string, units: unknown[]): { hashes: string[]; cumulative: number[] } {
    const hashes: string[] = [];
    const cumulative: number[] = [];
    let hash = createHash("sha1").update(namespace).digest("hex");
    let sum = 0;
    for (const unit of units) {
      const { cache_control: _ignored, ...rest } = unit as Record<string, unknown>;
      const json = JSON.stringify(rest);
      hash = createHash("sha1").update(hash).update(json).digest("hex");
      sum += tokensOf(rest);
      hashes.push(hash);
      cumulative.push(sum);
    }
    return { hashes, cumulative };
  }
}

/** Answers requests it recognises (a summariser's, say) outside the queue. */
export type MockRoute = (body: Record<string, unknown>) => ScriptedResponse | undefined;

export interface MockOptions {
  /**
   * Keep and parse request bodies (default). Benchmarks turn it off so that a
   * 100 MB request costs the server nothing but reading it: the server's own
   * work is not jp's.
   */
  record?: boolean;
  /** Speak HTTPS with this key and certificate (PEM), as the providers' own servers do. */
  tls?: { key: string; cert: string };
}

/** A scripted HTTP error, in the provider's own error shape. */
function writeFault(
  res: http.ServerResponse,
  fault: { status: number; message?: string; retry_after?: number; error_code?: string | undefined },
  anthropic: boolean,
  google = false,
) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (fault.retry_after !== undefined) headers["retry-after"] = String(fault.retry_after);
  res.writeHead(fault.status, headers);
  const message = fault.message ?? `mock fault ${fault.status}`;
  const type =
    fault.status === 429
      ? "rate_limit_error"
      : fault.status === 401
        ? "authentication_error"
        : fault.status === 529
          ? "overloaded_error"
          : fault.status >= 500
            ? "api_error"
            : "invalid_request_error";
  // Anthropic's finer codes ("Some also carry an `error.details.error_code`", compaction on demand).
  const details = fault.error_code ? { details: { error_code: fault.error_code } } : {};
  // Google's errors carry the HTTP code and a status name (google.rpc.Status).
  const status =
    fault.status === 429
      ? "RESOURCE_EXHAUSTED"
      : fault.status === 401
        ? "UNAUTHENTICATED"
        : fault.status === 403
          ? "PERMISSION_DENIED"
          : "INVALID_ARGUMENT";
  res.end(
    JSON.stringify(
      google
        ? { error: { code: fault.status, message, status } }
        : anthropic
          ? { type: "error", error: { type, message, ...details } }
          : { error: { message, type, code: null } },
    ),
  );
}

/**
 * The scripted response as Gemini's `streamGenerateContent?alt=sse` streams
 * it: thought parts, text parts, each function call whole in a part (the
 * first carrying the thought signature, else a last empty text part does),
 * then the finish reason with the usage.
 */
function geminiEvents(r: ScriptedResponse, model: string, cache: CacheUsage): Record<string, unknown>[] {
  const chunk = (parts: Record<string, unknown>[], extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
    modelVersion: model,
    responseId: "gemini-mock",
  });
  const events: Record<string, unknown>[] = [];
  for (const c of chunks(r.reasoning ?? "")) events.push(chunk([{ text: c, thought: true }]));
  for (const c of chunks(r.text ?? "", r.text_piece)) events.push(chunk([{ text: c }]));
  const signature = r.signature ?? (r.reasoning !== undefined ? "mock-gemini-signature" : undefined);
  (r.tool_calls ?? []).forEach((call, i) =>
    events.push(
      chunk([
        {
          functionCall: { id: call.id, name: call.name, args: call.arguments },
          ...(i === 0 && signature ? { thoughtSignature: signature } : {}),
        },
      ]),
    ),
  );
  if (!r.tool_calls?.length && signature) events.push(chunk([{ text: "", thoughtSignature: signature }]));
  if (r.usage) cache = { read: 0, write: 0 };
  const usage = r.usage ?? { input: cache.total ?? 100, output: 20 };
  events.push({
    ...chunk([], { finishReason: r.stop === "max_tokens" ? "MAX_TOKENS" : "STOP" }),
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output,
      ...(r.reasoning ? { thoughtsTokenCount: 7 } : {}),
      ...(cache.read ? { cachedContentTokenCount: cache.read } : {}),
      totalTokenCount: usage.input + usage.output,
    },
  });
  return events;
}

/**
 * The id of a Responses input reasoning item that is only an id (no
 * encrypted content, no text of its own) in a request that stores nothing:
 * the API would have to find it stored, and cannot.
 */
function unstoredItem(body: Record<string, unknown>): string | undefined {
  if (body.store !== false || !Array.isArray(body.input)) return undefined;
  for (const item of body.input as Record<string, unknown>[]) {
    if (item.type !== "reasoning" || typeof item.encrypted_content === "string") continue;
    if (Array.isArray(item.content) && item.content.length) continue;
    return String(item.id);
  }
  return undefined;
}

/**
 * The answer to a compaction request, as the page shows it streamed: "When
 * you stream the response, the block arrives whole. You get one
 * `content_block_start` event carrying the complete block, then
 * `content_block_stop`, with no `content_block_delta` events." Its usage: "The
 * top-level `input_tokens` and `output_tokens` are zero because no reply was
 * generated", the call's own counts in `usage.iterations` as its `compaction`
 * entry. `stop` other than "compaction" is a summary that did not come: "the
 * response is still a 200 with empty `content` … The `stop_reason` is the one
 * the summarization call ended with."
 */
function compactionAnswer(
  body: Record<string, unknown>,
  summary: string,
  usage: { input: number; output: number },
  stop = "compaction",
): SseEvent[] {
  const made = stop === "compaction";
  const iteration = { type: "compaction", input_tokens: usage.input, output_tokens: made ? usage.output : 0 };
  const start = anthropicMessageStart(String(body.model), 0);
  (start[1].message as { usage: Record<string, unknown> }).usage.output_tokens = 0;
  return [
    start,
    ...(made ? anthropicBlock(0, compactionBlock(body, summary), []) : []),
    [
      "message_delta",
      {
        type: "message_delta",
        delta: { stop_reason: stop, stop_sequence: null },
        usage: { input_tokens: 0, output_tokens: 0, iterations: [iteration] },
      },
    ],
    ["message_stop", { type: "message_stop" }],
  ];
}

const sse = (events: SseEvent[]): string[] =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/** The stream's lines for a scripted response, in the provider's format. */
function streamLines(
  script: ScriptedResponse,
  body: Record<string, unknown>,
  anthropic: boolean,
  cached: CacheUsage,
  dialect?: "responses" | "google" | "ollama",
  preserved?: Preserved,
): string[] {
  const model = typeof body.model === "string" ? body.model : "mock";
  if (dialect === "ollama") return ollamaLines(script, model);
  if (dialect === "google")
    return geminiEvents(script, model, cached).map((data) => `data: ${JSON.stringify(data)}\n\n`);
  if (dialect === "responses")
    return responsesEvents(script, model, cached).map(
      (data) => `event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`,
    );
  return anthropic
    ? anthropicEvents(script, model, cached, preserved).map(
        ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
      )
    : [
        ...openaiEvents(script, model, cached).map((data) => `data: ${JSON.stringify(data)}\n\n`),
        "data: [DONE]\n\n",
      ];
}

/** Write the lines with the script's pace, or drop the connection where its fault says. */
async function writeStream(
  res: http.ServerResponse,
  lines: string[],
  script: ScriptedResponse,
): Promise<void> {
  if (script.split_bytes) {
    const whole = Buffer.from(lines.join(""));
    for (let i = 0; i < whole.length && !res.destroyed; i += script.split_bytes) {
      res.write(whole.subarray(i, i + script.split_bytes));
      await sleep(1);
    }
    res.end();
    return;
  }
  for (const [i, line] of lines.entries()) {
    if (script.fault?.cut_after_events !== undefined && i >= script.fault.cut_after_events) {
      // What was written reaches the client before the connection drops, as on a real network.
      await sleep(20);
      res.socket?.destroy();
      return;
    }
    if (res.destroyed) return;
    res.write(line);
    if (script.event_delay_ms) await sleep(script.event_delay_ms);
  }
  res.end();
}

/**
 * A Models API answer as a request without the compaction beta gets it:
 * "To check whether a model supports on-demand compaction, call the Models
 * API with the beta header and read each model's `capabilities.compaction`."
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand)
 */
function withoutUnaskedBetas(info: object, headers: http.IncomingHttpHeaders): object {
  const capabilities = (info as { capabilities?: Record<string, unknown> }).capabilities;
  if (!capabilities || String(headers["anthropic-beta"] ?? "").includes(COMPACTION_BETA)) return info;
  const { compaction: _unasked, ...rest } = capabilities;
  return { ...info, capabilities: rest };
}

/** The mock's state: what it was asked, what it will answer, and who waits for an answer to start. */
class MockState {
  readonly promptCache = new PromptCache();
  readonly requests: RecordedRequest[] = [];
  readonly models = new Map<string, object | string>();
  readonly gets = new Map<string, object>();
  readonly modelRequests: RecordedRequest[] = [];
  readonly dropped: (Dropped & { request: number })[] = [];
  readonly contextEdits: Record<string, unknown>[][] = [];
  refusedForBinding = 0;
  readonly waiters: { n: number; resolve: () => void }[] = [];
  started = 0;
  constructor(
    readonly queue: ScriptedResponse[],
    readonly route: MockRoute | undefined,
    readonly record: boolean,
  ) {}

  /** An answer began: wake those waiting for this many. */
  begin(): void {
    this.started++;
    for (const w of this.waiters.filter((w) => w.n <= this.started)) w.resolve();
  }

  /** The Models API: a model's info as Anthropic's `GET /v1/models/{id}` gives it, or its 404. */
  describeModel(req: http.IncomingMessage, res: http.ServerResponse): void {
    this.modelRequests.push({ path: req.url ?? "", headers: req.headers, body: {} });
    const id = decodeURIComponent((req.url ?? "").replace(/^.*\/models\//, ""));
    const info = this.models.get(id);
    if (!info) {
      writeFault(res, { status: 404, message: `model: ${id}` }, true);
      return;
    }
    if (typeof info === "string") {
      // Not an answer of the API's (a proxy's page): what a lookup cannot read.
      res.writeHead(200, { "content-type": "text/html" });
      res.end(info);
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(withoutUnaskedBetas(info, req.headers)));
  }

  async answer(req: http.IncomingMessage, raw: string, res: http.ServerResponse): Promise<void> {
    if (req.method === "GET" && this.gets.has(req.url ?? "")) {
      this.modelRequests.push({ path: req.url ?? "", headers: req.headers, body: {} });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(this.gets.get(req.url ?? "")));
      return;
    }
    if (req.method === "GET") {
      this.describeModel(req, res);
      return;
    }
    if (req.url === "/api/show") {
      // Ollama's model details: what `gets` holds for the path, else the model is not pulled.
      this.modelRequests.push({ path: req.url, headers: req.headers, body: {} });
      const info = this.gets.get(req.url);
      res.writeHead(info ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(info ?? { error: "model not found" }));
      return;
    }
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    if (this.record) this.requests.push({ path: req.url ?? "", headers: req.headers, body });
    const url = req.url ?? "";
    const anthropic = url.includes("/messages");
    const google = url.includes(":streamGenerateContent");
    const refused = missingCredentials(url, req.headers);
    if (refused) {
      writeFault(res, refused, anthropic, google);
      return;
    }
    const unstored = url.endsWith("/responses") ? unstoredItem(body) : undefined;
    if (unstored) {
      // As the real API answers a reasoning item it would have to look up, when nothing is stored.
      writeFault(
        res,
        {
          status: 404,
          message: `Item with id '${unstored}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
        },
        false,
      );
      return;
    }
    const compaction = anthropic ? compactionRefusal(body, req.headers) : undefined;
    if (compaction) {
      writeFault(
        res,
        { status: compaction.status, message: compaction.message, error_code: compaction.errorCode },
        true,
      );
      return;
    }
    const toolChange = anthropic ? checkToolChanges(body, req.headers) : undefined;
    const editing = anthropic ? contextEditing(body, req.headers) : undefined;
    const refusal = toolChange ?? (editing && "error" in editing ? editing.error : undefined);
    if (refusal) {
      writeFault(res, refusal, true);
      return;
    }
    if (editing && "applied" in editing) this.contextEdits.push(editing.applied);
    let preserved: Preserved | undefined;
    if (anthropic && PRESERVED_THINKING_MODELS.has(String(body.model))) {
      const check = checkPrefixes(body, req.headers);
      if (!check.ok) {
        this.refusedForBinding += 1;
        writeFault(res, { status: check.status, message: check.message }, true);
        return;
      }
      for (const d of check.dropped) this.dropped.push({ ...d, request: this.requests.length });
      preserved = { signature: check.sign(), transformations: check.transformations };
    }
    if (editing && "applied" in editing && editing.applied.length) {
      preserved = { ...(preserved ?? { transformations: [] }), appliedEdits: editing.applied };
    }
    const script = this.route?.(body) ?? this.queue.shift();
    if (!script) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ error: { type: "api_error", message: "the mock has no scripted response left" } }),
      );
      return;
    }
    if (script.delay_first_byte_ms) await sleep(script.delay_first_byte_ms);
    if (anthropic && body.compaction !== undefined && !script.fault?.status) {
      // On-demand compaction: the summary comes back as one sealed block, and nothing is sampled after it.
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      this.begin();
      const usage = script.usage ?? { input: 100, output: 30 };
      await writeStream(res, sse(compactionAnswer(body, script.text ?? "", usage, script.stop)), script);
      return;
    }
    if (script.raw) {
      this.begin();
      await replay(res, script.raw);
      return;
    }
    if (script.fault?.status) {
      writeFault(res, { ...script.fault, status: script.fault.status }, anthropic, google);
      return;
    }
    res.writeHead(200, {
      // Ollama streams JSON lines; the others server-sent events.
      "content-type": url === "/api/chat" ? "application/x-ndjson" : "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    this.begin();
    const cached: CacheUsage = !this.record
      ? { read: 0, write: 0 }
      : anthropic
        ? this.promptCache.anthropic(editing && "edited" in editing ? editing.edited : body)
        : this.promptCache.openai(body);
    const dialect = url.endsWith("/responses")
      ? "responses"
      : google
        ? "google"
        : url === "/api/chat"
          ? "ollama"
          : undefined;
    await writeStream(res, streamLines(script, body, anthropic, cached, dialect, preserved), script);
  }
}

/**
 * What the real APIs answer a request without the headers they require:
 * Anthropic its key (a Bearer token is not one) and version, OpenAI's
 * Responses a Bearer key, Gemini its key. Local servers (Ollama, llama.cpp)
 * and compatible ones require nothing.
 */
function missingCredentials(
  url: string,
  headers: http.IncomingHttpHeaders,
): { status: number; message: string } | undefined {
  if (url.includes("/messages")) {
    if (!headers["x-api-key"]) return { status: 401, message: "x-api-key header is required" };
    if (!headers["anthropic-version"])
      return { status: 400, message: "anthropic-version: header is required" };
  }
  if (url.endsWith("/responses") && !/^Bearer \S+/.test(headers.authorization ?? ""))
    return {
      status: 401,
      message:
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
    };
  if (url.includes(":streamGenerateContent") && !headers["x-goog-api-key"] && !/[?&]key=/.test(url))
    return {
      status: 403,
      message:
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    };
  return undefined;
}

export async function startMockLlm(
  initial: ScriptedResponse[] = [],
  route?: MockRoute,
  options: MockOptions = {},
): Promise<MockLlm> {
  const state = new MockState([...initial], route, options.record ?? true);
  const listener: http.RequestListener = (req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => state.record && parts.push(d));
    req.on("end", () => void state.answer(req, Buffer.concat(parts).toString(), res));
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    requests: state.requests,
    models: state.models,
    gets: state.gets,
    modelRequests: state.modelRequests,
    dropped: state.dropped,
    contextEdits: state.contextEdits,
    get refusedForBinding() {
      return state.refusedForBinding;
    },
    connections: () => connections,
    queue: state.queue,
    push: (...responses) => state.queue.push(...responses),
    streaming: (n) =>
      state.started >= n ? Promise.resolve() : new Promise((resolve) => state.waiters.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** Write a recorded answer as it was recorded (or stall part way, or compress it whole). */
async function replay(res: http.ServerResponse, raw: RawResponse): Promise<void> {
  const headers: Record<string, string> = {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    ...raw.headers,
  };
  if (raw.gzip) {
    res.writeHead(raw.status ?? 200, { ...headers, "content-encoding": "gzip" });
    res.end(gzipSync(raw.pieces.join("")));
    return;
  }
  res.writeHead(raw.status ?? 200, headers);
  for (const [i, piece] of raw.pieces.entries()) {
    if (raw.stall_after !== undefined && i >= raw.stall_after) return;
    if (res.destroyed) return;
    res.write(piece);
    await sleep(1);
  }
  res.end();
}

/**
 * A recorded request body without its prompt-cache markers (Anthropic
 * `cache_control`, and a system prompt as one cached text block), for tests
 * about what the request says rather than how it is cached.
 */
export function withoutCacheMarkers<T>(body: T): T {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === "object") {
      const { cache_control: _marker, ...rest } = value as Record<string, unknown>;
      return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, strip(v)]));
    }
    return value;
  };
  const copy = strip(body) as Record<string, unknown>;
  const system = copy.system as { type: string; text: string }[] | undefined;
  if (Array.isArray(system) && system.length === 1 && system[0]!.type === "text")
    copy.system = system[0]!.text;
  return copy as T;
}

/** A streamed Messages API request straight to the mock (`body` over the defaults), with its status and raw stream. */
export async function postMessages(
  mock: MockLlm,
  body: Record<string, unknown>,
  beta?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${mock.url}/v1/messages`, {
    method: "POST",
    headers: {
      "x-api-key": "k",
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
      ...(beta ? { "anthropic-beta": beta } : {}),
    },
    body: JSON.stringify({ max_tokens: 100, stream: true, ...body }),
  });
  return { status: response.status, text: await response.text() };
}
