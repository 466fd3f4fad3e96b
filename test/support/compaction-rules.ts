// Anthropic's on-demand compaction (beta compact-2026-09-04), as its page
// states the rules, played by the mock server. Every rule quotes the sentence
// it plays, from https://platform.claude.com/docs/en/build-with-claude/compaction-on-demand
// ("the page" below). The block's seal (what it stands for in later thinking
// blocks' prefixes) is preserved-thinking.ts's.
import type * as http from "node:http";
import { COMPACTION_BETA, verifiesCompaction } from "./preserved-thinking.js";

type Block = Record<string, unknown>;

/** A refusal as the API answers it: the status, the message, and `error.details.error_code` where the page names one. */
export interface CompactionRefusal {
  status: number;
  message: string;
  errorCode?: string;
}

/** The fields a returned block has; "A block was sent back with fields the API didn't return … 400". */
const BLOCK_FIELDS = new Set(["type", "content", "signature", "cache_control"]);

function betasOf(headers: http.IncomingHttpHeaders): string[] {
  return String(headers["anthropic-beta"] ?? "")
    .split(",")
    .map((b) => b.trim());
}

/** Each content block of the request with its path, in order. */
function blocksOf(body: Record<string, unknown>): { block: Block; path: string; role: string }[] {
  const messages = (body.messages as { role: string; content: unknown }[] | undefined) ?? [];
  return messages.flatMap((m, i) =>
    typeof m.content === "string"
      ? [{ block: { type: "text", text: m.content }, path: `messages.${i}.content`, role: m.role }]
      : (m.content as Block[]).map((block, j) => ({
          block,
          path: `messages.${i}.content.${j}`,
          role: m.role,
        })),
  );
}

/**
 * What the API refuses in a Messages request because of on-demand
 * compaction: a request asking for a summary, or one carrying a block.
 * Undefined where it has nothing to refuse.
 */
export function compactionRefusal(
  body: Record<string, unknown>,
  headers: http.IncomingHttpHeaders,
): CompactionRefusal | undefined {
  const betas = betasOf(headers);
  const blocks = blocksOf(body);
  const carried = blocks.filter((b) => b.block.type === "compaction");
  // "400 on a later request that carries the block: a validation error that says `compaction` is
  // not one of the expected content block types. The message doesn't mention the header."
  if (carried.length && !betas.includes(COMPACTION_BETA))
    return {
      status: 400,
      message: `${carried[0]!.path}.type: \`compaction\` is not one of the expected content block types`,
    };
  // "The request carries more than one `compaction` block. … Send exactly one, the newest."
  if (carried.length > 1)
    return { status: 400, message: `${carried[1]!.path}: a request may carry only one compaction block` };
  const [block] = carried;
  if (block) {
    // "Remove the summarized messages. If any remain in front of the block, the request returns a
    // 400 error (`compaction_block_misplaced`)."
    if (blocks[0] !== block)
      return {
        status: 400,
        message: `${block.path}: the compaction block must come first in messages`,
        errorCode: "compaction_block_misplaced",
      };
    // "400 validation error, such as `messages.0.content.0.compaction.citations: Extra inputs are not permitted`"
    const extra = Object.keys(block.block).find((k) => !BLOCK_FIELDS.has(k));
    if (extra)
      return { status: 400, message: `${block.path}.compaction.${extra}: Extra inputs are not permitted` };
    // "400 `compaction_signature_invalid` or `compaction_content_mismatch`: The block's `signature`
    // or `content` was changed after the API returned it."
    const seal = verifiesCompaction(block.block);
    if (seal !== "ok")
      return {
        status: 400,
        message: `${block.path}: the compaction block's ${seal === "signature" ? "signature" : "content"} does not match what the API returned`,
        errorCode: seal === "signature" ? "compaction_signature_invalid" : "compaction_content_mismatch",
      };
  }
  return body.compaction === undefined ? undefined : summaryRequestRefusal(body, betas, blocks);
}

/** What the API refuses in a request that asks for a summary (`compaction: {type: "summarize"}`). */
function summaryRequestRefusal(
  body: Record<string, unknown>,
  betas: readonly string[],
  blocks: readonly { block: Block; role: string }[],
): CompactionRefusal | undefined {
  // "400 on the compaction request, with a message that says the `compaction` parameter
  // `requires anthropic-beta: compact-2026-09-04`"
  if (!betas.includes(COMPACTION_BETA))
    return { status: 400, message: `compaction: this parameter requires anthropic-beta: ${COMPACTION_BETA}` };
  // "You can't combine `compaction` with `context_management` on one request."
  if (body.context_management !== undefined)
    return { status: 400, message: "compaction: cannot be combined with context_management" };
  // "Also leave out `stop_sequences`, structured-output `output_config.format`, and a `tool_choice`
  // of type `any` or `tool`. … the API rejects them."
  const choice = (body.tool_choice as Block | undefined)?.type;
  if (body.stop_sequences !== undefined)
    return { status: 400, message: "stop_sequences: not allowed with compaction" };
  if ((body.output_config as Block | undefined)?.format !== undefined)
    return { status: 400, message: "output_config.format: not allowed with compaction" };
  if (choice === "any" || choice === "tool")
    return { status: 400, message: `tool_choice: type '${choice}' can't be sent with compaction` };
  // "400 `compaction_nothing_to_summarize`: `messages` has no `user` or `assistant` content, for example an empty list."
  if (blocks.length === 0)
    return {
      status: 400,
      message: "There is nothing to summarize.",
      errorCode: "compaction_nothing_to_summarize",
    };
  // "If the last `assistant` turn ends in a tool call with no result yet, the API rejects the request."
  const last = blocks.at(-1)!;
  if (last.role === "assistant" && last.block.type === "tool_use")
    return {
      status: 400,
      message: "the last assistant turn ends in a tool call with no result: send its tool result first",
    };
  return undefined;
}
