// Anthropic's preserved thinking, as the platform docs state the rule, played
// by the mock server. Each rule names the docs sentence it plays, quoted with
// its page:
//   PT  https://platform.claude.com/docs/en/build-with-claude/preserved-thinking
//   PC  https://platform.claude.com/docs/en/build-with-claude/preserved-thinking/prefix-checks
// A summary the server writes (on-demand compaction) is a `compaction` block
// that goes first in later requests in place of the messages it summarised,
// and stands for those messages in every later block's prefix (its signature
// seals them; the rules of the block itself are compaction-rules.ts's).
// The digest is the server's own, over the wire format: it knows nothing of
// how jp decides what to send.
import { createHash } from "node:crypto";
import type * as http from "node:http";

/** The models that check a block's prefix (the docs' supported models). */
export const PRESERVED_THINKING_MODELS: ReadonlySet<string> = new Set([
  "claude-fable-5-2",
  "claude-mythos-5-2",
  "claude-fable-5-1",
  "claude-mythos-5-1",
  "claude-opus-5-5",
  "claude-sonnet-5-5",
  "claude-haiku-5-5",
]);

/**
 * Which other models' thinking a model reads. PT: "Each model reads its own
 * thinking blocks and those of a fixed set of other models. Claude Fable 5.1
 * reads blocks from Claude Opus 5 and, on the Claude API, from Claude Opus
 * 5.5; neither Claude Opus 5 nor Claude Opus 5.5 reads blocks from Claude
 * Fable 5.1." And https://platform.claude.com/docs/en/models/fable-5-2/whats-new-fable-5-2:
 * "Only Claude Fable 5.2 and Claude Mythos 5.2 read Claude Fable 5.2 thinking blocks".
 */
const READS: Readonly<Record<string, readonly string[]>> = {
  "claude-fable-5-1": ["claude-opus-5", "claude-opus-5-5"],
  "claude-mythos-5-2": ["claude-fable-5-2"],
};

const reads = (model: string, writer: string): boolean =>
  writer === model || (READS[model] ?? []).includes(writer);

export const BINDING_BETA = "thinking-binding-controls-2026-08-01";

type Block = Record<string, unknown>;

const isThinking = (block: Block): boolean => block.type === "thinking" || block.type === "redacted_thinking";

/** A block as the prefix check compares it: its cache marker left out. */
function compared(block: Block): Block {
  const { cache_control: _marker, ...rest } = block;
  return rest;
}

/** The blocks of the request in order, with their role and path (`messages.i.content.j`). */
function messageBlocks(body: Record<string, unknown>): { role: string; block: Block; path: string }[] {
  const out: { role: string; block: Block; path: string }[] = [];
  const messages = (body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  messages.forEach((m, i) => {
    if (typeof m.content === "string")
      out.push({ role: m.role, block: { type: "text", text: m.content }, path: `messages.${i}.content` });
    else
      (m.content as Block[]).forEach((b, j) =>
        out.push({ role: m.role, block: compared(b), path: `messages.${i}.content.${j}` }),
      );
  });
  return out;
}

/**
 * The header of the prefix: the system prompt's text and the tools loaded up
 * front. PT: "The top-level `system` prompt, `tools`, and `messages` before
 * the block are its prefix."
 */
function header(body: Record<string, unknown>): unknown {
  const system = body.system;
  const texts =
    typeof system === "string"
      ? [system]
      : ((system as Block[] | undefined) ?? []).map((b) => (typeof b.text === "string" ? b.text : ""));
  const tools = ((body.tools as Block[] | undefined) ?? []).filter((t) => t.defer_loading !== true);
  return [texts.join(""), tools.map(compared)];
}

function digest(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url").slice(0, 16);
}

/**
 * The digest of the messages before each block, as a chain: each link the
 * digest of the one before and the block. Thinking blocks are no link of it:
 * PT, "Earlier thinking blocks aren't in the prefix" (where they stand is the
 * order check's, below). A compaction block the server wrote stands for the
 * messages it summarised: the chain goes on from theirs.
 */
function messageChain(blocks: { role: string; block: Block }[]): string[] {
  const chain: string[] = [];
  let value = "";
  for (const { role, block } of blocks) {
    chain.push(value);
    if (isThinking(block)) continue;
    const stands = block.type === "compaction" ? compactedChain(block) : undefined;
    value = stands ?? digest([value, role, block]);
  }
  chain.push(value);
  return chain;
}

/**
 * What a compaction block this server wrote stands for: its signature seals
 * the chain of the messages it summarised (`compaction.<chain>.<digest>`).
 */
export function compactedChain(block: Block): string | undefined {
  const [tag, chain] = typeof block.signature === "string" ? block.signature.split(".") : [];
  return tag === "compaction" && chain ? chain : undefined;
}

/**
 * Whether a compaction block is as this server returned it: "ok", or which
 * of its signature (not one of this server's) or its content (changed since) does not hold.
 */
export function verifiesCompaction(block: Block): "ok" | "signature" | "content" {
  const chain = compactedChain(block);
  if (chain === undefined) return "signature";
  const sealed = String(block.signature).split(".")[2];
  return sealed === digest([block.content, chain]) ? "ok" : "content";
}

/**
 * The thinking blocks sent before a block, as it records them: how many, and
 * the last one's id (`none` without one). PC: a prefix check "also fails if a
 * thinking block between others was left out or moved."
 */
interface Order {
  count: number;
  after: string;
}

/** A thinking block's id: the digest of its signature (or of a redacted block's data). */
const thinkingId = (block: Block): string =>
  digest(String(block.type === "thinking" ? block.signature : block.data));

/** The signature of a block written by `model` after the header, a history whose chain is `chain`, and `order`. */
function signature(model: string, body: Record<string, unknown>, chain: string, order: Order) {
  const { count, after } = order;
  return `bound.${model}.${count}.${after}.${digest([header(body), chain, count, after])}`;
}

/** A signature this server wrote, read back; undefined for any other. */
function readSignature(sig: string): ({ writer: string; digest: string } & Order) | undefined {
  const [tag, writer, count, after, sealed] = sig.split(".");
  if (tag !== "bound" || !writer || !after || !sealed || !/^\d+$/.test(count ?? "")) return undefined;
  return { writer, count: Number(count), after, digest: sealed };
}

/**
 * Whether the thinking sent before a block (`sent`, their ids in order) is
 * what it may follow. PT: "You can remove thinking blocks from the start of
 * the history (oldest first), from the end, or all of them. What fails is a
 * gap… Once you remove a block, leave it out." So the blocks before it must be
 * the last of those that were before it when it was written: none at all, or
 * at most as many, ending with the one it was written after (a block left out
 * between, or one put back before, breaks that).
 */
function inOrder(sent: readonly string[], order: Order): boolean {
  return sent.length === 0 || (sent.length <= order.count && sent.at(-1) === order.after);
}

/** On-demand compaction (`compaction: {type: "summarize"}`, beta compact-2026-09-04): the block, sealed with what it stands for. */
export const COMPACTION_BETA = "compact-2026-09-04";

export function compactionBlock(body: Record<string, unknown>, summary: string): Block {
  const chain = messageChain(messageBlocks(body)).at(-1)!;
  // As the docs' example returns it: the summary and a signature, nothing more.
  return {
    type: "compaction",
    content: summary,
    signature: `compaction.${chain}.${digest([summary, chain])}`,
  };
}

/** Tools added and withdrawn in the conversation, in `role: "system"` messages (beta SDK types). */
export const TOOL_CHANGES_BETA = "mid-conversation-tool-changes-2026-07-01";

/**
 * A request's tool changes in the conversation, checked as the beta SDK's
 * types describe them (BetaRequestToolAdditionBlock: "`tool` is a reference
 * to a tool (or MCP toolset) declared in the request's `tools`";
 * BetaRequestToolRemovalBlock: "`tool` references a tool (or MCP toolset) by
 * name: one declared in the request's `tools` or defined earlier in
 * `messages`"), behind their beta header. Undefined when they are sound.
 */
export function checkToolChanges(
  body: Record<string, unknown>,
  headers: http.IncomingHttpHeaders,
): { status: number; message: string } | undefined {
  const declared = new Set(((body.tools as Block[] | undefined) ?? []).map((t) => String(t.name)));
  const betas = String(headers["anthropic-beta"] ?? "").split(",");
  const messages = (body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  for (const [i, m] of messages.entries()) {
    if (m.role !== "system" || !Array.isArray(m.content)) continue;
    for (const [j, block] of (m.content as Block[]).entries()) {
      if (block.type !== "tool_addition" && block.type !== "tool_removal") continue;
      const path = `messages.${i}.content.${j}`;
      if (!betas.includes(TOOL_CHANGES_BETA))
        return {
          status: 400,
          message: `${path}: ${block.type} requires the beta header anthropic-beta: ${TOOL_CHANGES_BETA}`,
        };
      const tool = block.tool as Block | undefined;
      if (tool?.type !== "tool_reference" || !declared.has(String(tool.name)))
        return {
          status: 400,
          message: `${path}.tool: no tool named ${JSON.stringify(tool?.name)} is declared in tools`,
        };
    }
  }
  return undefined;
}

/** Context editing's beta header. */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";

/**
 * Server-side context editing, as https://platform.claude.com/docs/en/build-with-claude/context-editing
 * ("CE" below) states it: "To enable it, use the beta header context-management-2025-06-27";
 * and (the beta SDK's types) on-demand compaction "Cannot be combined with
 * `context_management`". The edits apply to what the model reads, after the
 * prefix check of the request as sent: "Context editing is applied
 * server-side before the prompt reaches Claude. Your client application
 * maintains the full, unmodified conversation history". Tokens are counted
 * at four characters each, as the mock counts them everywhere.
 */
/** The text a cleared tool result is replaced with (the docs call it placeholder text). */
const CLEARED_PLACEHOLDER = "[tool result cleared]";

/** An edit's threshold: `{type, value}` as the beta SDK's types give it, or the default. */
const valueOf = (field: unknown, fallback: number): number =>
  typeof (field as { value?: unknown } | undefined)?.value === "number"
    ? (field as { value: number }).value
    : fallback;

export function contextEditing(
  body: Record<string, unknown>,
  headers: http.IncomingHttpHeaders,
):
  | { error: { status: number; message: string } }
  | { applied: Block[]; edited: Record<string, unknown> }
  | undefined {
  const config = body.context_management as { edits?: Block[] } | undefined;
  if (config === undefined) return undefined;
  const betas = String(headers["anthropic-beta"] ?? "").split(",");
  if (!betas.includes(CONTEXT_MANAGEMENT_BETA))
    return {
      error: {
        status: 400,
        message: `context_management: this field requires the beta header anthropic-beta: ${CONTEXT_MANAGEMENT_BETA}`,
      },
    };
  if (body.compaction !== undefined)
    return { error: { status: 400, message: "compaction: cannot be combined with context_management" } };
  const applied: Block[] = [];
  // What the model reads; the cache is read over it, since tool result clearing "invalidates
  // cached prompt prefixes when content is cleared" (CE).
  const edited = structuredClone(body);
  for (const edit of config.edits ?? []) {
    if (edit.type !== "clear_tool_uses_20250919") continue;
    const cleared = clearedToolUses(body, edit);
    if (cleared.length === 0) continue;
    const tokens = cleared.reduce(
      (n, b) => n + Math.ceil(JSON.stringify(b.block.content ?? "").length / 4),
      0,
    );
    // The beta SDK's types, clear_at_least: "Context will only be modified if at least this many
    // tokens can be removed." CE: "If the API can't clear at least the specified amount, the
    // strategy will not be applied."
    if (tokens < valueOf(edit.clear_at_least, 0)) continue;
    applied.push({
      type: "clear_tool_uses_20250919",
      cleared_tool_uses: cleared.length,
      cleared_input_tokens: tokens,
    });
    // CE: "the API automatically clears the oldest tool results in chronological order,
    // replacing them with placeholder text".
    const paths = new Set(cleared.map((b) => b.path));
    (edited.messages as { content: unknown }[]).forEach((m, i) => {
      if (Array.isArray(m.content))
        m.content = (m.content as Block[]).map((b, j) =>
          paths.has(`messages.${i}.content.${j}`) ? { ...b, content: CLEARED_PLACEHOLDER } : b,
        );
    });
  }
  return { applied, edited };
}

/**
 * The tool results a `clear_tool_uses_20250919` edit clears, by its options
 * as CE's table gives them: `trigger` (default 100,000 input tokens): "Once
 * the prompt exceeds this threshold, clearing will begin. You can specify
 * this value in either `input_tokens` or `tool_uses`"; `keep` (default 3 tool
 * uses): "how many recent tool use/result pairs to keep after clearing
 * occurs. The API removes the oldest tool interactions first, preserving the
 * most recent ones"; `exclude_tools`: "tool names whose tool uses and
 * results should never be cleared".
 */
function clearedToolUses(body: Record<string, unknown>, edit: Block): { block: Block; path: string }[] {
  const blocks = messageBlocks(body);
  const results = blocks.filter((b) => b.block.type === "tool_result");
  const trigger = edit.trigger as { type?: string } | undefined;
  const over =
    trigger?.type === "tool_uses"
      ? results.length > valueOf(trigger, 0)
      : Math.ceil(JSON.stringify(body).length / 4) > valueOf(trigger, 100_000);
  if (!over) return [];
  const excluded = new Set((edit.exclude_tools as string[] | undefined) ?? []);
  const toolOf = new Map(
    blocks.filter((b) => b.block.type === "tool_use").map((b) => [String(b.block.id), String(b.block.name)]),
  );
  const oldest = results.slice(0, Math.max(0, results.length - valueOf(edit.keep, 3)));
  return oldest.filter((b) => !excluded.has(toolOf.get(String(b.block.tool_use_id)) ?? ""));
}

export interface Dropped {
  path: string;
  /** As the beta SDK's BetaThinkingDroppedInputTransformation names them. */
  reason: "prefix_binding_mismatch" | "model_binding_mismatch";
}

export type PrefixCheck =
  | { ok: true; dropped: Dropped[]; transformations: Block[]; sign: () => string }
  | { ok: false; status: number; message: string };

/**
 * Check a Messages API request to a model with preserved thinking. On
 * success, what was dropped and how to sign the thinking the answer opens
 * with (its prefix is the whole request).
 */
export function checkPrefixes(body: Record<string, unknown>, headers: http.IncomingHttpHeaders): PrefixCheck {
  const model = String(body.model);
  const thinking = body.thinking as Block | undefined;
  const binding = thinking?.block_binding as Block | undefined;
  const betas = String(headers["anthropic-beta"] ?? "").split(",");
  if (binding && !betas.includes(BINDING_BETA))
    return {
      ok: false,
      status: 400,
      message: `thinking.block_binding: this field requires the beta header anthropic-beta: ${BINDING_BETA}`,
    };
  const drop = binding?.prefix_mismatch_behavior === "drop_block";
  // On-demand compaction's own rules (the block first, its beta header) are compaction-rules.ts's.
  const blocks = messageBlocks(body);
  const chain = messageChain(blocks);
  const dropped: Dropped[] = [];
  /** The ids of the thinking blocks sent so far, in order. */
  const sent: string[] = [];
  // PT: "that block and every later thinking block are invalid".
  let invalid = false;
  for (const [k, { block, path }] of blocks.entries()) {
    if (!isThinking(block)) continue;
    const id = thinkingId(block);
    const written = readSignature(String(block.type === "thinking" ? block.signature : block.data));
    const before = [...sent];
    sent.push(id);
    if (!written || !reads(model, written.writer)) {
      // PT: "If the current model can't read a block, the API drops it from that request without an error."
      dropped.push({ path, reason: "model_binding_mismatch" });
      continue;
    }
    const sameDigest = signature(written.writer, body, chain[k]!, written).endsWith(`.${written.digest}`);
    invalid ||= !sameDigest || !inOrder(before, written);
    if (!invalid) continue;
    // PT: "the API rejects the request with a 400 error or drops the invalid blocks, whichever you choose."
    if (!drop)
      return {
        ok: false,
        status: 400,
        message: `${path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
      };
    dropped.push({ path, reason: "prefix_binding_mismatch" });
  }
  const order: Order = { count: sent.length, after: sent.at(-1) ?? "none" };
  const transformations = dropped.map((d) => ({ type: "thinking_dropped", path: d.path, reason: d.reason }));
  return { ok: true, dropped, transformations, sign: () => signature(model, body, chain.at(-1)!, order) };
}
