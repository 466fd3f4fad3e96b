// Owns the names of what response events keep in their metadata beyond
// their body: what the next request must hand back for the provider to accept
// the turn exactly as it was answered, and what a response cost. The first is
// the name JP's own logs use, so imports keep their signatures.
import { isKnown, type Event } from "./kinds.js";
import { isJsonObject } from "./json.js";

/** A reasoning block's signature. */
export const REASONING_SIGNATURE_KEY = "anthropic_thinking_signature";
/** A redacted thinking block's encrypted data, on a reasoning event with empty text. */
export const REDACTED_REASONING_KEY = "anthropic_redacted_thinking";
/** On a `data` response: the data is an Anthropic content block jp does not interpret, sent back verbatim. */
export const PROVIDER_BLOCK_KEY = "anthropic_block";
/** A text block's citations, as the provider sent them. */
export const CITATIONS_KEY = "anthropic_citations";
/** The field an OpenAI-compatible server sent reasoning in (`reasoning_content`, `reasoning`), where it wants it back. */
export const REASONING_FIELD_KEY = "openai_reasoning_field";
/** On a reasoning response: the OpenAI Responses reasoning item it was (`id`, `encrypted_content`), sent back whole. */
export const OPENAI_REASONING_ITEM_KEY = "openai_reasoning_item";
/** An OpenAI output message's phase (`commentary` or `final_answer`), sent back with it as OpenAI asks. */
export const OPENAI_PHASE_KEY = "openai_phase";
/** On a Gemini part (text, thought or function call): its thought signature, sent back on the same part. */
export const GEMINI_SIGNATURE_KEY = "google_thought_signature";
/** On a Gemini function call that came without an id: jp made its id up, and sends none back. */
export const GEMINI_UNNAMED_CALL_KEY = "google_call_without_id";
/** On an answer's last block: OpenRouter's `reasoning_details` (signed or encrypted reasoning), sent back verbatim. */
export const REASONING_DETAILS_KEY = "openrouter_reasoning_details";
/** On a message response: the text is the model's refusal. */
export const REFUSAL_KEY = "refusal";
/** On a tool call: the output limit cut its arguments off; the text that arrived. */
export const CUT_ARGUMENTS_KEY = "cut_arguments";
/**
 * The usage of attempts a retry threw away (or that failed the request):
 * billed, so counted, though they left no response.
 */
export const DISCARDED_ATTEMPTS_KEY = "discarded_attempts";
/**
 * On a tool call the user edited before it ran: `{proposed, edited_by: "user"}`,
 * the model's own arguments. The call's `arguments` are the ones that ran.
 */
export const EDITED_ARGUMENTS_KEY = "edited_arguments";
/** On a tool response: images the result held besides its text (an MCP tool's), as `{media_type, data}`. */
export const TOOL_IMAGES_KEY = "tool_images";
/**
 * On a reasoning response written by a model that binds reasoning to the
 * request it was written in (Anthropic's preserved thinking): digests of that
 * request's `header` (system prompt and tools) and of its `history` (every
 * sent event before the block, as sent). The block goes back only while both
 * are unchanged (`llm/reasoning-binding.ts`).
 */
export const REASONING_BINDING_KEY = "bound_to";
/** On a response's last event: the earlier reasoning jp left out of its request, by raw turn and why. */
export const REASONING_LEFT_OUT_KEY = "reasoning_left_out";
/** On a response's last event: the provider's `input_transformations` (blocks it dropped), verbatim. */
export const INPUT_TRANSFORMATIONS_KEY = "input_transformations";
/**
 * On the response of a summary turn the provider wrote (a compaction block):
 * `{block, continues}` as the compaction recorded them (`Summary.provider`),
 * with the writer in `model`.
 */
export const PROVIDER_SUMMARY_KEY = "provider_summary";
/** On a question asked with `-u NAME` of a model that cannot be forced: the tool asked for in words with it. */
export const ASKED_FOR_TOOL_KEY = "asked_for_tool";
/**
 * On the last event of an answer whose stream failed partway: why. What
 * arrived is kept (and sent on, as an interrupted answer's is); `jp q
 * --retry` asks the question again.
 */
export const STREAM_FAILED_KEY = "stream_failed";

/** Whether an event records reasoning its request left out or a provider dropped. */
export function reportsReasoning(e: Event): boolean {
  if (!isKnown(e) || !isJsonObject(e.metadata)) return false;
  return (
    e.metadata[REASONING_LEFT_OUT_KEY] !== undefined || e.metadata[INPUT_TRANSFORMATIONS_KEY] !== undefined
  );
}
/**
 * On a question asked with tools that differ from the conversation's usual
 * ones (`-t NAME`, `-T NAME` for one question), on a model with preserved
 * thinking: `{added, removed}`, the definitions offered besides the usual
 * tools and the names of usual tools not offered. Every later request says
 * the change where it was made, in the conversation (`llm/tool-changes.ts`),
 * so the tools at the top of the request never change.
 */
export const TOOL_CHANGES_KEY = "tool_changes";
/**
 * On the first question of a conversation asked of such a model: the tools
 * every later request keeps on top, whatever the config or an MCP server's
 * list becomes (a change is then said in the conversation).
 */
export const TOOLS_ON_TOP_KEY = "tools_on_top";
