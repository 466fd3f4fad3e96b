// Owns JP's system prompt: its `system_prompt`, `system_prompt_sections` and
// `instructions`, merged as JP merges them (across the files a config extends,
// and across a conversation's recorded deltas) and rendered as JP renders
// them (jp_config's SectionConfig::render and InstructionsConfig::to_section).
// jp sends the parts as one system prompt, in JP's order, blank-line separated.
import { enableFields } from "./enable.js";
import { isPlain, type Plain } from "./trust.js";

/** The assistant keys that make up JP's system prompt. */
export const JP_PROMPT_KEYS = ["system_prompt", "system_prompt_sections", "instructions"] as const;

export interface Merged<T> {
  value: T;
  /** JP's `discard_when_merged`: the next value replaces this one whatever its strategy. */
  discard: boolean;
}

export interface JpPrompt {
  prompt: Merged<string | undefined>;
  sections: Merged<unknown[]>;
  instructions: Merged<unknown[]>;
  /** Whether the config offers tools: JP then adds its "Tool Usage" instruction. */
  tools: boolean;
}

export const EMPTY_JP_PROMPT: JpPrompt = {
  prompt: { value: undefined, discard: false },
  sections: { value: [], discard: false },
  instructions: { value: [], discard: false },
  tools: false,
};

/** The instruction JP adds when tools are offered (jp_cli's build_sections). */
const TOOL_USAGE = {
  title: "Tool Usage",
  description: "How to leverage the tools available to you.",
  items: [
    "Use all the tools available to you to give the best possible answer.",
    "Verify the tool name, description and parameters are correct.",
    "Even if you've reasoned yourself towards a solution, use any available tool to verify your answer.",
  ],
};

/** Whether a JP config's tools include one it offers (JP's `enable` is the tool's, then `*`'s, then true). */
function offersTools(config: Plain): boolean {
  const conversation = isPlain(config.conversation) ? config.conversation : {};
  const tools = isPlain(conversation.tools) ? conversation.tools : {};
  const defaults = isPlain(tools["*"]) ? enableFields(tools["*"].enable).state : undefined;
  return Object.entries(tools).some(
    ([name, tool]) => name !== "*" && isPlain(tool) && (enableFields(tool.enable).state ?? defaults ?? true),
  );
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** JP's separator names (jp_config's MergedStringSeparator) as the text they put between two values. */
const SEPARATORS: Readonly<Record<string, string>> = { none: "", space: " ", line: "\n", paragraph: "\n\n" };

/** JP's MergeableString: a string replaces; `{ value, strategy, separator }` replaces, appends or prepends. */
function mergeString(prev: Merged<string | undefined>, next: unknown): Merged<string | undefined> {
  if (typeof next === "string") return { value: next, discard: false };
  if (!isPlain(next)) return prev;
  const value = str(next.value);
  const discard = next.discard_when_merged === true;
  if (prev.discard || prev.value === undefined || value === undefined)
    return { value: value ?? (prev.discard ? undefined : prev.value), discard };
  const named = str(next.separator);
  const separator = named !== undefined && Object.hasOwn(SEPARATORS, named) ? (SEPARATORS[named] ?? "") : "";
  if (next.strategy === "append") return { value: `${prev.value}${separator}${value}`, discard };
  if (next.strategy === "prepend") return { value: `${value}${separator}${prev.value}`, discard };
  return { value, discard };
}

/** JP's MergeableVec: a list appends; `{ value, strategy, dedup }` appends, prepends or replaces. */
export function mergeList(prev: Merged<unknown[]>, next: unknown): Merged<unknown[]> {
  if (Array.isArray(next)) {
    const items: unknown[] = next;
    return { value: prev.discard ? items : [...prev.value, ...items], discard: false };
  }
  if (!isPlain(next) || !Array.isArray(next.value)) return prev;
  const given: unknown[] = next.value;
  const discard = next.discard_when_merged === true;
  let value: unknown[];
  if (prev.discard || next.strategy === "replace") value = given;
  else if (next.strategy === "prepend") value = [...given, ...prev.value];
  else value = [...prev.value, ...given];
  if (next.dedup === true)
    value = value.filter(
      (item, i) => value.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i,
    );
  return { value, discard };
}

/** `prev` with one JP config (a file's or a recorded delta's) merged over it. */
export function mergeJpPrompt(prev: JpPrompt, config: Plain): JpPrompt {
  const assistant = isPlain(config.assistant) ? config.assistant : {};
  return {
    tools: prev.tools || offersTools(config),
    prompt: "system_prompt" in assistant ? mergeString(prev.prompt, assistant.system_prompt) : prev.prompt,
    sections:
      "system_prompt_sections" in assistant
        ? mergeList(prev.sections, assistant.system_prompt_sections)
        : prev.sections,
    instructions:
      "instructions" in assistant ? mergeList(prev.instructions, assistant.instructions) : prev.instructions,
  };
}

export function hasJpPrompt(assistant: Plain): boolean {
  return JP_PROMPT_KEYS.some((key) => key in assistant);
}

interface Section {
  content: string;
  tag?: string;
  title?: string;
  position: number;
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Content that would break the surrounding tag goes in CDATA, a `]]>` inside split across two. */
function cdataIfNeeded(content: string): string {
  if (!/[<>&]/.test(content)) return content;
  return `<![CDATA[\n${content.split("]]>").join("]]]]><![CDATA[>")}\n]]>`;
}

/** One section as JP renders it: `<tag title="…">`, `<tag>`, `# title`, or the content alone. */
export function renderSection({ content, tag, title }: Section): string {
  if (tag !== undefined && title !== undefined)
    return `<${tag} title="${escapeAttribute(title)}">\n${cdataIfNeeded(content).trim()}\n</${tag}>`;
  if (tag !== undefined) return `<${tag}>\n${cdataIfNeeded(content).trim()}\n</${tag}>`;
  if (title !== undefined) return `# ${title}\n\n${content}`;
  return content.trim();
}

const position = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function asSection(raw: unknown): Section | undefined {
  if (typeof raw === "string") return { content: raw, position: 0 };
  if (!isPlain(raw)) return undefined;
  return {
    content: str(raw.content) ?? "",
    ...(str(raw.tag) !== undefined ? { tag: str(raw.tag) } : {}),
    ...(str(raw.title) !== undefined ? { title: str(raw.title) } : {}),
    position: position(raw.position),
  };
}

/** One example of an instruction: a text, or a good/bad contrast with its reason. */
function exampleLines(example: unknown): string {
  if (typeof example === "string") return `${example}\n`;
  if (!isPlain(example)) return "";
  const reason = str(example.reason);
  return `Good: ${str(example.good) ?? ""}\nBad: ${str(example.bad) ?? ""}\n${reason !== undefined ? `Reason: ${reason}\n` : ""}`;
}

/** An instruction as the `<instruction>` section JP makes of it. */
function instructionSection(raw: unknown): Section | undefined {
  if (typeof raw === "string") return { content: "", tag: "instruction", title: raw, position: 0 };
  if (!isPlain(raw)) return undefined;
  let content = "";
  const description = str(raw.description);
  if (description !== undefined) content += `${description}\n\n`;
  for (const item of Array.isArray(raw.items) ? raw.items : []) content += `- ${String(item)}\n`;
  const examples = Array.isArray(raw.examples) ? raw.examples : [];
  if (examples.length) {
    content += "\n**Examples**\n";
    for (const example of examples) content += `\n${exampleLines(example)}`;
  }
  return {
    content: content.trimEnd(),
    tag: "instruction",
    ...(str(raw.title) !== undefined ? { title: str(raw.title) } : {}),
    position: position(raw.position),
  };
}

/** The system prompt JP would send: the prompt, then the sections and instructions (and "Tool Usage" when tools are offered) by position. */
export function renderJpPrompt(prompt: JpPrompt): string | undefined {
  const sections = [
    ...prompt.sections.value.map(asSection),
    ...prompt.instructions.value.map(instructionSection),
    ...(prompt.tools ? [instructionSection(TOOL_USAGE)] : []),
  ].filter((s): s is Section => s !== undefined);
  // A stable sort, as JP's: equal positions keep sections before instructions, each in its order.
  sections.sort((a, b) => a.position - b.position);
  const parts = [
    ...(prompt.prompt.value !== undefined ? [prompt.prompt.value] : []),
    ...sections.map(renderSection),
  ];
  return parts.length ? parts.join("\n\n") : undefined;
}
