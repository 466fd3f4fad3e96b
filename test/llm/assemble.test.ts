// Stream assembly, as a property over every stream JP recorded with the
// providers (fixtures/jp-cassettes): however the network cuts the bytes of an
// answer (through an event, a line end, a UTF-8 character), the same bytes
// make the same events, the same text on screen and the same error. Each
// answer goes the way a provider's own takes: the event-stream or line decoder
// of net/, the provider's reader of its frames, its parts, then assembly.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import { collect, emptyCollected, responseEvents } from "../../src/llm/assemble.js";
import { completionChunks, openaiParts } from "../../src/llm/chat-completions.js";
import { messageEvents } from "../../src/llm/providers/anthropic/index.js";
import { anthropicParts } from "../../src/llm/providers/anthropic/stream.js";
import { geminiChunks, geminiParts } from "../../src/llm/providers/google/index.js";
import { ollamaChunks, ollamaParts } from "../../src/llm/providers/ollama/index.js";
import { responsesParts, responsesStreamEvents } from "../../src/llm/providers/openai/responses.js";
import type { StreamPart } from "../../src/llm/types.js";
import { LineDecoder, SseDecoder, type ServerSentEvent } from "../../src/net/sse.js";
import { CASSETTES, cassette, type Interaction } from "../support/cassette.js";

/** How each API's stream is read, from the path it answered on. */
const READERS: { path: RegExp; read: (pieces: readonly Uint8Array[]) => AsyncIterable<StreamPart> }[] = [
  { path: /\/v1\/messages$/, read: (p) => anthropicParts(messageEvents(sse(p))) },
  { path: /\/responses$/, read: (p) => responsesParts(responsesStreamEvents(sse(p))) },
  { path: /:streamGenerateContent/, read: (p) => geminiParts(geminiChunks(sse(p))) },
  { path: /\/api\/chat$/, read: (p) => ollamaParts(ollamaChunks(lines(p))) },
  { path: /\/chat\/completions$/, read: (p) => openaiParts(completionChunks(sse(p))) },
];

/** Server-sent events from byte pieces, as the HTTP transport decodes them. */
function sse(pieces: readonly Uint8Array[]): AsyncIterable<ServerSentEvent> {
  const decoder = new SseDecoder();
  const frames = pieces.flatMap((piece) => decoder.push(piece));
  decoder.end();
  return ReadableStream.from(frames);
}

/** Lines from byte pieces, as the HTTP transport decodes a line-delimited stream. */
function lines(pieces: readonly Uint8Array[]): AsyncIterable<string> {
  const decoder = new LineDecoder();
  return ReadableStream.from([...pieces.flatMap((piece) => decoder.decode(piece)), ...decoder.flush()]);
}

interface Outcome {
  events: Event[];
  /** What the terminal was given to show, text and reasoning apart. */
  shown: { text: string; reasoning: string };
  error?: string;
}

/** What one answer makes, read in `pieces`. */
async function assemble(
  read: (pieces: readonly Uint8Array[]) => AsyncIterable<StreamPart>,
  pieces: Uint8Array[],
) {
  const shown = { text: "", reasoning: "" };
  const options = {
    now: () => new Date(Date.UTC(2026, 0, 1)),
    modelId: "recorded",
    output: {
      text: (delta: string) => (shown.text += delta),
      reasoning: (delta: string) => (shown.reasoning += delta),
    },
  };
  const collected = emptyCollected();
  const outcome: Outcome = { events: [], shown };
  try {
    for await (const part of read(pieces)) collect(collected, part, options);
  } catch (error) {
    outcome.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
  outcome.events = responseEvents(collected, options, outcome.error !== undefined);
  return withMadeUpIds(outcome, pieces);
}

/**
 * A call the stream gave no id is given a random one (tool-arguments.ts);
 * here each is named by its place, so two readings compare.
 */
function withMadeUpIds(outcome: Outcome, pieces: readonly Uint8Array[]): Outcome {
  const body = Buffer.concat(pieces).toString("utf8");
  let made = 0;
  for (const e of outcome.events)
    if (e.type === "tool_call_request" && !body.includes(`"${e.id}"`)) e.id = `made up #${made++}`;
  return outcome;
}

/** `bytes` cut at `cuts` (offsets, any order, repeats allowed: an empty piece is a piece too). */
function cut(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const at = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
  return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
}

interface Streamed {
  name: string;
  bytes: Uint8Array;
  read: (pieces: readonly Uint8Array[]) => AsyncIterable<StreamPart>;
}

/** Every streamed answer of every cassette, with the reader of its API. */
function streamedAnswers(): Streamed[] {
  const out: Streamed[] = [];
  for (const provider of fs.readdirSync(CASSETTES).sort()) {
    const dir = path.join(CASSETTES, provider);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const file of fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".yml"))
      .sort()) {
      const name = `${provider}/${file.slice(0, -".yml".length)}`;
      cassette(name).forEach((interaction: Interaction, i) => {
        const reader = READERS.find((r) => r.path.test(interaction.path));
        if (
          !reader ||
          interaction.status !== 200 ||
          /^application\/json/.test(interaction.headers["content-type"] ?? "")
        )
          return;
        out.push({ name: `${name} #${i}`, bytes: Buffer.from(interaction.body, "utf8"), read: reader.read });
      });
    }
  }
  return out;
}

const STREAMED = streamedAnswers();

describe("assembling a recorded stream", () => {
  it("reads every streamed answer JP recorded, with every provider's reader", async () => {
    // Every provider's recordings are here (one folder each), and each answer makes events.
    const folders = fs
      .readdirSync(CASSETTES)
      .filter((f) => fs.statSync(path.join(CASSETTES, f)).isDirectory());
    expect(folders.length).toBeGreaterThanOrEqual(7);
    expect(new Set(STREAMED.map((s) => s.name.split("/")[0]))).toEqual(new Set(folders));
    expect(STREAMED.length).toBeGreaterThan(150);
    for (const s of STREAMED) {
      const whole = await assemble(s.read, [s.bytes]);
      expect(whole.error, s.name).toBeUndefined();
      expect(whole.events.length, s.name).toBeGreaterThan(0);
    }
  });

  it("makes the same events of an answer cut into one-byte pieces", async () => {
    for (const s of STREAMED) {
      const bytes = [...Array(s.bytes.length).keys()].map((i) => s.bytes.subarray(i, i + 1));
      expect(await assemble(s.read, bytes), s.name).toEqual(await assemble(s.read, [s.bytes]));
    }
  });

  it("makes the same events of an answer however its bytes are cut", async () => {
    const wholes = await Promise.all(STREAMED.map((s) => assemble(s.read, [s.bytes])));
    const cutAnswer = fc
      .integer({ min: 0, max: STREAMED.length - 1 })
      .chain((i) =>
        fc.tuple(
          fc.constant(i),
          fc.array(fc.integer({ min: 0, max: STREAMED[i]!.bytes.length }), { maxLength: 60 }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(cutAnswer, async ([i, cuts]) => {
        const s = STREAMED[i]!;
        expect(await assemble(s.read, cut(s.bytes, cuts)), s.name).toEqual(wholes[i]);
      }),
      { numRuns: 400 },
    );
  });
});
