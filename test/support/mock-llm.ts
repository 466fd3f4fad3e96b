// A local mock LLM server on 127.0.0.1 speaking Anthropic's Messages and
// OpenAI's Chat Completions streaming formats. It plays scripted responses in
// order, records every request, and can inject faults.
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";

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
  usage?: { input: number; output: number };
  /** end_turn | tool_use | max_tokens | refusal (Anthropic names; mapped for OpenAI). */
  stop?: string;
  /** Wait before the first byte. */
  delay_first_byte_ms?: number;
  /** Wait between stream events. */
  event_delay_ms?: number;
  fault?: { status?: number; retry_after?: number; message?: string; cut_after_events?: number };
}

export interface RecordedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface MockLlm {
  url: string;
  requests: RecordedRequest[];
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

function anthropicEvents(r: ScriptedResponse, model: string): [string, Record<string, unknown>][] {
  const events: [string, Record<string, unknown>][] = [];
  const usage = r.usage ?? { input: 100, output: 20 };
  events.push([
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
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    },
  ]);
  let index = 0;
  if (r.reasoning !== undefined) {
    events.push([
      "content_block_start",
      {
        type: "content_block_start",
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
    ]);
    for (const c of chunks(r.reasoning))
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: c } },
      ]);
    events.push([
      "content_block_delta",
      {
        type: "content_block_delta",
        index,
        delta: { type: "signature_delta", signature: r.signature ?? "mock-signature" },
      },
    ]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
    index++;
  }
  if (r.text !== undefined) {
    events.push([
      "content_block_start",
      { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    ]);
    for (const c of chunks(r.text))
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "text_delta", text: c } },
      ]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
    index++;
  }
  for (const call of r.tool_calls ?? []) {
    events.push([
      "content_block_start",
      {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
      },
    ]);
    for (const c of chunks(JSON.stringify(call.arguments), 7))
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: c } },
      ]);
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
    index++;
  }
  const stop = r.stop ?? (r.tool_calls?.length ? "tool_use" : "end_turn");
  events.push([
    "message_delta",
    {
      type: "message_delta",
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output },
    },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

const OPENAI_STOP: Record<string, string> = {
  end_turn: "stop",
  tool_use: "tool_calls",
  max_tokens: "length",
  refusal: "content_filter",
};

function openaiEvents(r: ScriptedResponse, model: string): Record<string, unknown>[] {
  const base = { id: "chatcmpl-mock", object: "chat.completion.chunk", created: 1_790_000_000, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: Record<string, unknown>[] = [chunk({ role: "assistant", content: "" })];
  for (const c of chunks(r.reasoning ?? "")) events.push(chunk({ reasoning_content: c }));
  for (const c of chunks(r.text ?? "")) events.push(chunk({ content: c }));
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
  const usage = r.usage ?? { input: 100, output: 20 };
  events.push({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.input + usage.output,
    },
  });
  return events;
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
}

export async function startMockLlm(
  initial: ScriptedResponse[] = [],
  route?: MockRoute,
  options: MockOptions = {},
): Promise<MockLlm> {
  const record = options.record ?? true;
  const requests: RecordedRequest[] = [];
  const queue = [...initial];
  const waiters: { n: number; resolve: () => void }[] = [];
  let started = 0;

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (d: Buffer) => record && parts.push(d));
    req.on("end", () => {
      void (async () => {
        const raw = Buffer.concat(parts).toString();
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        if (record) requests.push({ path: req.url ?? "", headers: req.headers, body });
        const anthropic = (req.url ?? "").includes("/messages");
        const script = route?.(body) ?? queue.shift();
        if (!script) {
          res.writeHead(500, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: { type: "api_error", message: "the mock has no scripted response left" },
            }),
          );
          return;
        }
        if (script.delay_first_byte_ms) await sleep(script.delay_first_byte_ms);
        const fault = script.fault;
        if (fault?.status) {
          const headers: Record<string, string> = { "content-type": "application/json" };
          if (fault.retry_after !== undefined) headers["retry-after"] = String(fault.retry_after);
          res.writeHead(fault.status, headers);
          const message = fault.message ?? `mock fault ${fault.status}`;
          const type =
            fault.status === 429
              ? "rate_limit_error"
              : fault.status === 401
                ? "authentication_error"
                : fault.status >= 500
                  ? "api_error"
                  : "invalid_request_error";
          res.end(
            JSON.stringify(
              anthropic
                ? { type: "error", error: { type, message } }
                : { error: { message, type, code: null } },
            ),
          );
          return;
        }
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          connection: "keep-alive",
        });
        started++;
        for (const w of waiters.filter((w) => w.n <= started)) w.resolve();
        const model = String(body.model ?? "mock");
        const lines = anthropic
          ? anthropicEvents(script, model).map(
              ([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
            )
          : [
              ...openaiEvents(script, model).map((data) => `data: ${JSON.stringify(data)}\n\n`),
              "data: [DONE]\n\n",
            ];
        for (const [i, line] of lines.entries()) {
          if (fault?.cut_after_events !== undefined && i >= fault.cut_after_events) {
            res.socket?.destroy();
            return;
          }
          if (res.destroyed) return;
          res.write(line);
          if (script.event_delay_ms) await sleep(script.event_delay_ms);
        }
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    queue,
    push: (...responses) => queue.push(...responses),
    streaming: (n) =>
      started >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
