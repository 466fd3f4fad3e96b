// Owns what a conversation's recorded config (its config_delta events) may
// change. A conversation file is data, never authority: it can arrive by
// import or in a cloned repository, so nothing in it may run a command without
// asking, send the API key elsewhere, or loosen how a tool is approved.
// Settings that grant power (providers, a tool's command, source and run mode,
// whether a tool is offered) come only from files the user controls.
import { isJsonObject } from "../events/json.js";

export type Plain = Record<string, unknown>;
export const isPlain: (v: unknown) => v is Plain = isJsonObject;

/** Tool keys that describe a tool to the model or to compaction, and grant nothing. */
const DESCRIPTIVE_TOOL_KEYS = ["compaction", "summary", "description", "parameters"] as const;

/** A tool defined only by the conversation may also say how to run it; it is always asked for. */
const CONVERSATION_TOOL_KEYS = [
  ...DESCRIPTIVE_TOOL_KEYS,
  "command",
  "enable",
  "timeout_secs",
  "max_output_bytes",
] as const;

/** Run modes a conversation may choose for its own tools: every one of them asks or refuses. */
const CONVERSATION_RUN_MODES = new Set(["ask", "edit", "skip"]);

export interface ConversationDelta {
  /** The part of the delta jp applies. */
  value: Plain;
  /** Tools the delta names that jp cannot serve, as `name (why)`. */
  leftOut: string[];
}

function pick(source: Plain, keys: readonly string[]): Plain {
  const out: Plain = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = structuredClone(source[key]);
  return out;
}

/**
 * The part of one config delta a conversation may set: `assistant.*` (model,
 * system prompt, reasoning, request settings), and for tools their
 * descriptions and compaction hints; a tool the user's config does not define
 * may be defined by the conversation, but is run only after asking.
 * `userTools` names the tools defined by user-controlled layers.
 */
export function restrictConversationDelta(
  delta: Plain,
  userTools: ReadonlySet<string>,
  userServers: ReadonlySet<string> = new Set(),
  /** In a workspace the user trusts, the conversation keeps the tools it turned on (a persona's, as JP keeps them). */
  trusted = false,
): ConversationDelta {
  const value: Plain = {};
  const leftOut: string[] = [];
  if (isPlain(delta.assistant)) value.assistant = structuredClone(delta.assistant);
  const conversation = isPlain(delta.conversation) ? delta.conversation : undefined;
  const tools = conversation && isPlain(conversation.tools) ? conversation.tools : undefined;
  if (!tools) return { value, leftOut };
  const kept: Plain = {};
  for (const [name, raw] of Object.entries(tools)) {
    if (!isPlain(raw)) continue;
    const source = typeof raw.source === "string" ? raw.source : undefined;
    if (name === "*" || userTools.has(name)) {
      kept[name] = pick(raw, trusted ? [...DESCRIPTIVE_TOOL_KEYS, "enable"] : DESCRIPTIVE_TOOL_KEYS);
    } else if (source?.startsWith("mcp.")) {
      // A server only the user's config can define; the conversation may name its tools, always asked for.
      const server = source.split(".")[1] ?? "";
      if (userServers.has(server))
        kept[name] = { ...pick(raw, [...DESCRIPTIVE_TOOL_KEYS, "enable"]), source, run: "ask" };
      else leftOut.push(`${name} (${source}: your config has no [providers.mcp.${server}])`);
    } else if (source !== undefined && source !== "local") {
      leftOut.push(`${name} (${source === "builtin" ? "a built-in of the tool that recorded it" : source})`);
    } else if (raw.command === undefined) {
      kept[name] = pick(raw, DESCRIPTIVE_TOOL_KEYS);
    } else {
      const run = typeof raw.run === "string" && CONVERSATION_RUN_MODES.has(raw.run) ? raw.run : "ask";
      kept[name] = { ...pick(raw, CONVERSATION_TOOL_KEYS), source: "local", run };
    }
  }
  value.conversation = { tools: kept };
  return { value, leftOut };
}

/** Names of the MCP servers a layer's value defines (`providers.mcp.NAME`). */
export function serverNames(value: Plain): string[] {
  const providers = isPlain(value.providers) ? value.providers : undefined;
  return providers && isPlain(providers.mcp) ? Object.keys(providers.mcp) : [];
}

/** Names of the tools a layer's value defines (`conversation.tools.NAME`, `*` excluded). */
export function toolNames(value: Plain): string[] {
  const conversation = isPlain(value.conversation) ? value.conversation : undefined;
  const tools = conversation && isPlain(conversation.tools) ? conversation.tools : {};
  return Object.keys(tools).filter((name) => name !== "*");
}
