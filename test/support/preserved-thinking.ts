// Anthropic's preserved thinking, as the platform docs state the rule
// ("Preserved thinking", "Prefix checks on thinking blocks", "Fix a thinking
// block bound to a different conversation"), played by the mock server:
// - a thinking block is signed with the model that wrote it and a digest of
//   its prefix: the top-level system prompt, the tools not marked
//   `defer_loading`, and every message block before it, `cache_control`
//   markers left out of the comparison;
// - a block another model wrote is dropped without an error;
// - a block whose prefix differs from the one it was written in is refused
//   with a 400 naming it, or, with `thinking.block_binding
//   .prefix_mismatch_behavior: "drop_block"` and the beta header, dropped and
//   listed in the answer's `input_transformations` (`thinking_dropped`, as
//   the beta SDK's types name it; another model's blocks are listed too);
// - a summary the server writes (on-demand compaction) is a `compaction`
//   block that goes first in later requests in place of the messages it
//   summarised, and the thinking of the turns kept after it stays valid: the
//   block stands for those messages in every later block's prefix (its
//   signature seals them; the rules of the block itself are compaction-rules.ts's).
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

export const BINDING_BETA = "thinking-binding-controls-2026-08-01";

type Block = Record<string, unknown>;

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

/** The header of the prefix: the system prompt's text and the tools loaded up front. */
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
 * digest of the one before and the block. A compaction block the server wrote
 * stands for the messages it summarised: the chain goes on from theirs.
 */
function messageChain(blocks: { role: string; block: Block }[]): string[] {
  const chain: string[] = [];
  let value = "";
  for (const { role, block } of blocks) {
    chain.push(value);
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

/** The signature of a block written by `model` after the header and a history whose chain is `chain`. */
function signature(model: string, body: Record<string, unknown>, chain: string) {
  return `bound.${model}.${digest([header(body), chain])}`;
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
  for (const [k, { block, path }] of blocks.entries()) {
    if (block.type !== "thinking" && block.type !== "redacted_thinking") continue;
    const sig = String(block.type === "thinking" ? block.signature : block.data);
    const [tag, writer] = sig.split(".");
    if (tag !== "bound" || writer !== model) {
      // A block the model cannot read is dropped without an error.
      dropped.push({ path, reason: "model_binding_mismatch" });
      continue;
    }
    if (sig === signature(writer, body, chain[k]!)) continue;
    if (!drop)
      return {
        ok: false,
        status: 400,
        message: `${path}: Invalid \`signature\` in \`thinking\` block. The block is bound to a different conversation. Remove the block, or set \`thinking.block_binding.prefix_mismatch_behavior\` to "drop_block".`,
      };
    dropped.push({ path, reason: "prefix_binding_mismatch" });
  }
  const transformations = dropped.map((d) => ({ type: "thinking_dropped", path: d.path, reason: d.reason }));
  return { ok: true, dropped, transformations, sign: () => signature(model, body, chain.at(-1)!) };
}
