// Owns reading the Messages API's stream into stream parts: blocks opened,
// extended and closed; usage; why it stopped.
import type {
  ContentBlock,
  MessageDeltaUsage,
  RawMessageStreamEvent,
} from "@anthropic-ai/sdk/resources/messages";
import { isJsonObject, type JsonObject } from "../../../events/index.js";
import { StreamCutError, StreamErrorEvent } from "../../errors.js";
import { inputTransformationsOf } from "../../reasoning-binding.js";
import { malformedArguments, tryToolArguments } from "../../tool-arguments.js";
import type { StopReason, StreamPart } from "../../types.js";

export const STOP: Record<string, StopReason> = {
  end_turn: "end",
  stop_sequence: "end",
  tool_use: "tool_use",
  max_tokens: "max_tokens",
  refusal: "refusal",
  pause_turn: "pause",
  model_context_window_exceeded: "context_exceeded",
  compaction: "compaction",
};

/** Stops that cut the answer off where it was: a call in progress then is cut, not malformed. */
const CUTTING: ReadonlySet<StopReason | undefined> = new Set(["max_tokens", "context_exceeded"]);

/** The counts a stream reports, in message_start and message_delta alike. */
type RawUsage = Partial<
  Pick<
    MessageDeltaUsage,
    "input_tokens" | "output_tokens" | "cache_read_input_tokens" | "cache_creation_input_tokens"
  >
> & { cache_creation?: { ephemeral_1h_input_tokens?: number | null } | null };

const USAGE_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_read_input_tokens",
  "cache_creation_input_tokens",
] as const satisfies readonly (keyof RawUsage)[];

/** Anthropic counts fresh, cache-read and cache-written input apart; jp's input is all three. */
export function usagePart(raw: RawUsage, write1h: number): StreamPart {
  const read = raw.cache_read_input_tokens ?? 0;
  const write = raw.cache_creation_input_tokens ?? 0;
  return {
    type: "usage",
    ...(raw.input_tokens != null ? { inputTokens: raw.input_tokens + read + write } : {}),
    ...(raw.output_tokens != null ? { outputTokens: raw.output_tokens } : {}),
    ...(read ? { cacheReadTokens: read } : {}),
    ...(write ? { cacheWriteTokens: write } : {}),
    ...(write1h ? { cacheWrite1hTokens: write1h } : {}),
  };
}

/** A block in progress, by its stream index. */
type OpenBlock =
  | { kind: "text" | "thinking" }
  | { kind: "tool"; id: string; name: string; json: string }
  /** A block of a type jp does not interpret: kept as it started, its streamed input gathered. */
  | { kind: "other"; block: JsonObject; json: string }
  /** A block given whole where it started (redacted thinking): nothing more to say at its end. */
  | { kind: "whole" };

export function openBlock(block: ContentBlock): { open: OpenBlock; parts: StreamPart[] } {
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- the API's block types are open: any jp does not interpret is kept whole by the default
  switch (block.type) {
    case "text": {
      const b = block;
      const parts: StreamPart[] = b.text ? [{ type: "text", text: b.text }] : [];
      for (const citation of b.citations ?? []) parts.push({ type: "citation", citation: { ...citation } });
      return { open: { kind: "text" }, parts };
    }
    case "thinking": {
      const b = block;
      // Opened even when empty: with display "omitted" a block is only its signature, and goes back so.
      const parts: StreamPart[] = [{ type: "reasoning", text: b.thinking }];
      if (b.signature) parts.push({ type: "reasoning_signature", signature: b.signature });
      return { open: { kind: "thinking" }, parts };
    }
    case "redacted_thinking": {
      const b = block;
      return { open: { kind: "whole" }, parts: [{ type: "redacted_reasoning", data: b.data }] };
    }
    case "tool_use": {
      const b = block;
      return { open: { kind: "tool", id: b.id, name: b.name, json: "" }, parts: [] };
    }
    default:
      return { open: { kind: "other", block: { ...block }, json: "" }, parts: [] };
  }
}

/**
 * A delta of a block jp keeps whole, merged into it: a compaction block's
 * summary and sealed history (`compaction_delta`), its signature. False for a
 * delta that is not of this kind (a server tool's input JSON, gathered apart).
 */
function mergeWhole(block: JsonObject, delta: object): boolean {
  if (!isJsonObject(delta)) return false;
  const grow = (key: string, piece: unknown) => {
    if (typeof piece !== "string") return;
    const before = block[key];
    block[key] = `${typeof before === "string" ? before : ""}${piece}`;
  };
  if (delta.type === "compaction_delta") {
    grow("content", delta.content);
    grow("encrypted_content", delta.encrypted_content);
    return true;
  }
  if (delta.type === "signature_delta") {
    grow("signature", delta.signature);
    return true;
  }
  return false;
}

/** The parts that close a block: its end, the call it made, or the block itself. */
export function closeBlock(open: OpenBlock, cut: (call: OpenBlock & { kind: "tool" }) => void): StreamPart[] {
  switch (open.kind) {
    case "text":
    case "thinking":
      return [{ type: "block_end" }];
    case "tool": {
      const args = tryToolArguments(open.json);
      if (args === undefined) {
        cut(open);
        return [];
      }
      return [{ type: "tool_call", id: open.id, name: open.name, arguments: args }];
    }
    case "whole":
      return [];
    case "other": {
      const block = { ...open.block };
      if (open.json) block.input = tryToolArguments(open.json) ?? block.input;
      return [{ type: "provider_block", block }];
    }
  }
}

/**
 * The counts of each sampling iteration, where the answer lists them: "The
 * top-level `input_tokens` and `output_tokens` are zero because no reply was
 * generated. To count what a conversation consumed, sum across
 * `usage.iterations`, not the top-level fields."
 * (https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand)
 * Undefined where the answer lists none.
 */
function iterationsOf(raw: unknown): RawUsage | undefined {
  const iterations = isJsonObject(raw) ? raw.iterations : undefined;
  if (!Array.isArray(iterations) || iterations.length === 0) return undefined;
  const sum: RawUsage = {};
  let write1h = 0;
  for (const iteration of iterations) {
    if (!isJsonObject(iteration)) continue;
    for (const key of USAGE_KEYS) {
      const value = iteration[key];
      if (typeof value === "number") sum[key] = (sum[key] ?? 0) + value;
    }
    const creation = iteration.cache_creation;
    const hour = isJsonObject(creation) ? creation.ephemeral_1h_input_tokens : undefined;
    if (typeof hour === "number") write1h += hour;
  }
  return { ...sum, cache_creation: { ephemeral_1h_input_tokens: write1h } };
}

/** The counts so far: message_start carries the input counts; message_delta the final output (and, lately, input) counts. */
class UsageTally {
  private readonly counts: RawUsage = {};
  private write1h = 0;
  /** The sum of the iterations, once the answer lists them: it replaces the top-level counts. */
  private iterations: RawUsage | undefined;

  merge(raw: RawUsage | undefined | null): void {
    for (const key of USAGE_KEYS) {
      const value = raw?.[key];
      if (typeof value === "number") this.counts[key] = value;
    }
    const hour = raw?.cache_creation?.ephemeral_1h_input_tokens;
    if (typeof hour === "number") this.write1h = hour;
    this.iterations = iterationsOf(raw) ?? this.iterations;
  }

  part(): StreamPart {
    if (this.iterations)
      return usagePart(this.iterations, this.iterations.cache_creation?.ephemeral_1h_input_tokens ?? 0);
    return usagePart(this.counts, this.write1h);
  }
}

type BlockDelta = Extract<RawMessageStreamEvent, { type: "content_block_delta" }>["delta"];

/** What a block's delta says, if it says something of its own; a tool's JSON and a whole block grow in `open`. */
function deltaPart(open: OpenBlock | undefined, d: BlockDelta): StreamPart | undefined {
  if (open?.kind === "other" && mergeWhole(open.block, d)) return undefined;
  if (d.type === "text_delta" && d.text) return { type: "text", text: d.text };
  if (d.type === "thinking_delta" && d.thinking) return { type: "reasoning", text: d.thinking };
  if (d.type === "signature_delta" && d.signature)
    return { type: "reasoning_signature", signature: d.signature };
  if (d.type === "citations_delta") return { type: "citation", citation: { ...d.citation } };
  if (d.type === "input_json_delta" && (open?.kind === "tool" || open?.kind === "other"))
    open.json += d.partial_json;
  return undefined;
}

/** Stream parts from raw Messages API stream events, block by block in the order they came. */
export async function* anthropicParts(
  events: AsyncIterable<RawMessageStreamEvent>,
): AsyncGenerator<StreamPart> {
  const blocks = new Map<number, OpenBlock>();
  const usage = new UsageTally();
  let stop: StopReason | undefined;
  let detail: string | undefined;
  let unparsed: (OpenBlock & { kind: "tool" }) | undefined;
  for await (const ev of events) {
    switch (ev.type) {
      case "message_start": {
        usage.merge(ev.message.usage);
        // Counted now: an answer cut off or retried was still billed for its input.
        yield usage.part();
        const changed = inputTransformationsOf(ev.message);
        if (changed.length) yield { type: "input_transformations", items: changed };
        break;
      }
      case "content_block_start": {
        const { open, parts } = openBlock(ev.content_block);
        blocks.set(ev.index, open);
        yield* parts;
        break;
      }
      case "content_block_delta": {
        const part = deltaPart(blocks.get(ev.index), ev.delta);
        if (part) yield part;
        break;
      }
      case "content_block_stop": {
        const open = blocks.get(ev.index);
        blocks.delete(ev.index);
        if (open) yield* closeBlock(open, (call) => (unparsed = call));
        break;
      }
      case "message_delta":
        if (ev.delta.stop_reason) stop = STOP[ev.delta.stop_reason] ?? "other";
        // Older streams send no stop_details at all.
        detail = ev.delta.stop_details?.explanation ?? detail;
        usage.merge(ev.usage);
        yield usage.part();
        break;
      case "message_stop":
        // A block the output limit cut off may never see its content_block_stop.
        for (const [index, open] of [...blocks].sort(([a], [b]) => a - b)) {
          blocks.delete(index);
          yield* closeBlock(open, (call) => (unparsed = call));
        }
        if (unparsed) {
          // Arguments that are not JSON are a cut-off only when the output limit ended the answer.
          if (!CUTTING.has(stop))
            throw new StreamErrorEvent(malformedArguments(unparsed.name, unparsed.json));
          yield {
            type: "cut_tool_call",
            id: unparsed.id,
            name: unparsed.name,
            partialArguments: unparsed.json,
          };
        }
        yield { type: "stop", reason: stop ?? "end", ...(detail ? { detail } : {}) };
        return;
      default:
        break;
    }
  }
  // The stream ended without message_stop: the connection dropped mid-message.
  throw new StreamCutError();
}
