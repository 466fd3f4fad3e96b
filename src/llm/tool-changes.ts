// Owns a tool offered for one question, or a usual one held back, on a model
// whose thinking is bound to the tools it was written with (Anthropic's
// preserved thinking): the top-level `tools` stay the conversation's usual
// ones, a tool offered besides them is declared with `defer_loading` (no part
// of any thinking block's prefix) and made available where the question is
// asked, in the conversation, by a `tool_addition`; a usual tool held back is
// withdrawn there by a `tool_removal`, and brought back by an addition at the
// next question that offers it. The beta SDK's types
// (BetaRequestToolAdditionBlock): "Mid-conversation directive to make a tool
// available… `tool` is a reference to a tool (or MCP toolset) declared in the
// request's `tools`… The tool is offered to the model from this point in the
// conversation onward." The change is recorded on the question
// (TOOL_CHANGES_KEY), so every later request says it in the same place and
// the thinking written after it stays valid. The tools on top are those of
// the first question asked so (TOOLS_ON_TOP_KEY): what the config or an MCP
// server's list offers later is a change from them.
import {
  type ChatRequest,
  type Event,
  isJsonObject,
  type JsonObject,
  TOOL_CHANGES_KEY,
  TOOLS_ON_TOP_KEY,
} from "../events/index.js";
import type { ToolDefinition } from "./types.js";

/** The beta header that tool changes in the conversation need. */
export const TOOL_CHANGES_BETA = "mid-conversation-tool-changes-2026-07-01";

/** What a question changed of the usual tools: definitions offered besides them, usual ones held back. */
export interface ToolChanges {
  added: ToolDefinition[];
  removed: string[];
}

/** The change from the usual tools (`standing`) to those offered, or undefined when they are the same. */
export function toolChangesOf(
  offered: readonly ToolDefinition[],
  standing: readonly ToolDefinition[],
): ToolChanges | undefined {
  const usual = new Set(standing.map((t) => t.name));
  const now = new Set(offered.map((t) => t.name));
  const added = offered.filter((t) => !usual.has(t.name));
  const removed = standing.filter((t) => !now.has(t.name)).map((t) => t.name);
  return added.length || removed.length ? { added, removed } : undefined;
}

/** The change a question recorded, when it recorded one. */
function recorded(e: ChatRequest): ToolChanges | undefined {
  const c = isJsonObject(e.metadata) ? e.metadata[TOOL_CHANGES_KEY] : undefined;
  if (!isJsonObject(c) || !Array.isArray(c.added) || !Array.isArray(c.removed)) return undefined;
  const added = c.added.filter(isDefinition);
  const removed = c.removed.filter((n): n is string => typeof n === "string");
  return { added, removed };
}

function isDefinition(d: unknown): d is ToolDefinition {
  return (
    isJsonObject(d) &&
    typeof d.name === "string" &&
    typeof d.description === "string" &&
    isJsonObject(d.parameters)
  );
}

const plain = (t: ToolDefinition): JsonObject => ({
  name: t.name,
  description: t.description,
  parameters: { ...t.parameters },
});

/**
 * The question's metadata with what it records: the tools on top when none
 * were recorded before (`top`), and its change from them when it has one.
 */
export function withToolChanges(
  metadata: JsonObject,
  changes: ToolChanges | undefined,
  top?: readonly ToolDefinition[],
): JsonObject {
  return {
    ...metadata,
    ...(top ? { [TOOLS_ON_TOP_KEY]: top.map(plain) } : {}),
    ...(changes
      ? { [TOOL_CHANGES_KEY]: { added: changes.added.map(plain), removed: [...changes.removed] } }
      : {}),
  };
}

/** The tools on top the log recorded (its first question that recorded them), if any. */
export function recordedTop(events: readonly Event[]): ToolDefinition[] | undefined {
  for (const e of events) {
    if (e.type !== "chat_request" || !isJsonObject(e.metadata)) continue;
    const top = e.metadata[TOOLS_ON_TOP_KEY];
    if (Array.isArray(top)) return top.filter(isDefinition);
  }
  return undefined;
}

/**
 * The tools of a request: the usual ones, then every tool a question of the
 * view offered besides them, deferred (its latest definition).
 */
export function requestTools(standing: readonly ToolDefinition[], view: readonly Event[]): ToolDefinition[] {
  const usual = new Set(standing.map((t) => t.name));
  const deferred = new Map<string, ToolDefinition>();
  for (const e of view)
    if (e.type === "chat_request")
      for (const t of recorded(e)?.added ?? []) if (!usual.has(t.name)) deferred.set(t.name, t);
  return [...standing, ...[...deferred.values()].map((t) => ({ ...t, deferred: true }))];
}

/** What to say at one question: the tools made available and those withdrawn, by name. */
export interface ToolShift {
  add: string[];
  remove: string[];
}

/**
 * At each question of the view (by position), how the tools in effect shift
 * from the question before: each question's tools are the usual ones as its
 * record changes them (none recorded: the usual ones). Nothing for a view
 * whose questions recorded no change. Only tools the request declares
 * (`declared`) are named: a change goes only to a request built for it.
 */
export function toolShifts(view: readonly Event[], declared: ReadonlySet<string>): Map<number, ToolShift> {
  const shifts = new Map<number, ToolShift>();
  let added = new Set<string>();
  let removed = new Set<string>();
  view.forEach((e, i) => {
    if (e.type !== "chat_request") return;
    const c = recorded(e);
    const nowAdded = new Set(c?.added.map((t) => t.name));
    const nowRemoved = new Set(c?.removed);
    const add = [...nowAdded]
      .filter((n) => !added.has(n))
      .concat([...removed].filter((n) => !nowRemoved.has(n)));
    const remove = [...added]
      .filter((n) => !nowAdded.has(n))
      .concat([...nowRemoved].filter((n) => !removed.has(n)));
    const shift = { add: add.filter((n) => declared.has(n)), remove: remove.filter((n) => declared.has(n)) };
    if (shift.add.length || shift.remove.length) shifts.set(i, shift);
    added = nowAdded;
    removed = nowRemoved;
  });
  return shifts;
}
