// Owns carrying a JP workspace's configuration over to jp: what maps onto a
// jp key is written as jp writes it, and everything else is named, so the
// user knows what to redo by hand. Works on the merged JP config (plain data),
// checking each piece with jp's own config checker.
import {
  EMPTY_JP_PROMPT,
  hasJpPrompt,
  JP_PROMPT_KEYS,
  mergeJpPrompt,
  mergeList,
  type Merged,
  renderJpPrompt,
  type JpPrompt,
} from "./jp-prompt.js";
import { keyPath } from "./paths.js";
import { checkConfig } from "./schema.check.js";
import { isPlain, type Plain } from "./trust.js";
import { JP_EFFORT_NAMES, jpEffortLevel } from "./jp-efforts.js";
import { trimEndOf } from "../trim.js";

export interface CarriedConfig {
  /** A jp config, valid by jp's schema. */
  config: Plain;
  /** One line per JP setting not carried over, with why. */
  notCarried: string[];
  /**
   * One line per carried setting that gives power to whoever wrote the JP
   * config: a program it runs, a header it sends, an address your key goes
   * to, a tool run without asking. Shown to be reviewed before the first `jp q`.
   */
  review: string[];
}

/** What of a carried config runs programs, sends credentials, redirects keys or runs unasked. */
export function powerOf(config: Plain): string[] {
  const lines: string[] = [];
  const providers = isPlain(config.providers) ? config.providers : {};
  const mcp = isPlain(providers.mcp) ? providers.mcp : {};
  for (const [name, server] of Object.entries(mcp)) {
    if (!isPlain(server)) continue;
    const at = `providers.mcp.${name}`;
    if (typeof server.command === "string") {
      const args = Array.isArray(server.arguments) ? server.arguments.map(String) : [];
      lines.push(`${at} runs ${JSON.stringify([server.command, ...args])} when one of its tools is offered`);
    }
    if (typeof server.url === "string") lines.push(`${at} connects to ${server.url}`);
    if (isPlain(server.headers))
      for (const [header, value] of Object.entries(server.headers))
        lines.push(`${at}.headers.${header} sends ${JSON.stringify(value)} to that server`);
    if (Array.isArray(server.variables) && server.variables.length)
      lines.push(`${at}.variables passes ${server.variables.map(String).join(", ")} from your environment`);
  }
  for (const [name, settings] of Object.entries(providers))
    if (name !== "mcp" && isPlain(settings) && typeof settings.base_url === "string")
      lines.push(`providers.${name}.base_url = ${settings.base_url}: your ${name} key is sent there`);
  const conversation = isPlain(config.conversation) ? config.conversation : {};
  const tools = isPlain(conversation.tools) ? conversation.tools : {};
  for (const [name, tool] of Object.entries(tools)) {
    if (!isPlain(tool)) continue;
    const at = `conversation.tools.${name}`;
    if (tool.command !== undefined) lines.push(`${at} runs ${JSON.stringify(tool.command)}`);
    if (tool.run === "unattended") lines.push(`${at}.run = "unattended": it runs without asking you`);
  }
  return lines;
}

/** Tables merged deeply, later values winning; lists replaced. */
export function mergePlain(target: Plain, source: Plain): Plain {
  for (const [key, value] of Object.entries(source)) {
    const existing = target[key];
    target[key] =
      isPlain(value) && isPlain(existing) ? mergePlain({ ...existing }, value) : structuredClone(value);
  }
  return target;
}

/** Whether `value` at `path` of a jp config passes jp's checker. */
function valid(path: readonly string[], value: unknown): boolean {
  let wrapped: unknown = value;
  for (const key of [...path].reverse()) wrapped = { [key]: wrapped };
  return checkConfig(wrapped) === undefined;
}

/** Settings of a server another file defines (a user's `optional = true`), valid on a server of either kind. */
function validOverride(name: string, server: unknown): boolean {
  if (!isPlain(server) || ["type", "command", "url"].some((key) => Object.hasOwn(server, key))) return false;
  return [
    { type: "stdio", command: "-" },
    { type: "http", url: "http://127.0.0.1" },
  ].some((kind) => valid(["providers", "mcp", name], { ...kind, ...server }));
}

/** `config` without the server tables that only override settings (checked alone by validOverride). */
function withoutServerOverrides(config: Plain): Plain {
  const providers = isPlain(config.providers) ? config.providers : undefined;
  if (!providers || !isPlain(providers.mcp)) return config;
  const mcp = Object.fromEntries(
    Object.entries(providers.mcp).filter(([name, server]) => !validOverride(name, server)),
  );
  return { ...config, providers: { ...providers, mcp } };
}

/** Every leaf key path under `value`, for naming what was not carried (an empty table has none). */
function leafPaths(value: unknown, prefix: string): string[] {
  if (!isPlain(value)) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => leafPaths(v, prefix ? `${prefix}.${k}` : k));
}

/** `value` without `keys`. */
function omit(value: Plain, keys: readonly string[]): Plain {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !keys.includes(k)));
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A JP model id: `provider/name`, or `{ provider, name }`. */
function modelId(model: unknown): string | undefined {
  if (!isPlain(model)) return undefined;
  if (typeof model.id === "string") return model.id;
  if (isPlain(model.id) && typeof model.id.provider === "string" && typeof model.id.name === "string")
    return `${model.id.provider}/${model.id.name}`;
  return undefined;
}

/** A JP placeholder of a tool's arguments, with its filters: `{{ tool.arguments.path | default('') }}`. */
const ARGUMENT_PLACEHOLDER = /\{\{\s*tool\.arguments\.([A-Za-z0-9_-]+)\s*((?:\|[^}]*)?)\}\}/g;
/** The filters jp's filling already does: an argument the model left out is filled in as "". */
const EMPTY_DEFAULT = /^\|\s*default\(\s*(?:''|"")\s*\)\s*$/;

/**
 * A JP tool command as jp writes it: `{{tool.arguments.X}}` is jp's `{{X}}`
 * (with `| default('')`, which jp's filling does anyway), `{{tool.name}}` the
 * tool's name; JP's `{{context}}` and `{{tool}}` stay, for jp fills them as
 * JP does. A filter jp has no counterpart for is a problem.
 */
function carryCommand(
  command: string | unknown[],
  name: string,
): { command?: string | string[]; problem?: string } {
  const filters: string[] = [];
  const parts = (Array.isArray(command) ? command : [command]).map((part) =>
    String(part)
      .replace(ARGUMENT_PLACEHOLDER, (whole, argument: string, filter: string) => {
        if (filter.trim() === "" || EMPTY_DEFAULT.test(filter.trim())) return `{{${argument}}}`;
        filters.push(whole);
        return whole;
      })
      .replace(/\{\{\s*tool\.name\s*\}\}/g, name),
  );
  // JP's {{context}} and {{tool…}} are filled by jp as JP fills them (tools/local.ts).
  if (filters.length)
    return { problem: `its command uses ${filters.join(", ")}, a filter jp has no counterpart for` };
  return { command: Array.isArray(command) ? parts : parts.join(" ") };
}

const TOOL_KEYS_KEPT = [
  "source",
  "run",
  "enable",
  "summary",
  "compaction",
  "timeout_secs",
  "max_output_bytes",
  "options",
  "access",
  "cancellation_response",
];
/** Tool keys that only change how JP shows a tool, not what it does. */
const TOOL_DISPLAY_KEYS = new Set(["style", "result"]);

/** The answers JP's `questions` fix; a question JP sends to the assistant is asked of the user in jp. */
function carryQuestions(questions: Plain, at: string, notCarried: string[]): Plain | undefined {
  const carried: Plain = {};
  for (const [id, question] of Object.entries(questions)) {
    if (!isPlain(question)) continue;
    if (question.answer !== undefined) carried[id] = { answer: question.answer };
    else if (question.target !== undefined && question.target !== "user")
      notCarried.push(`${at}.questions.${id}.target: jp asks the user, not an assistant`);
  }
  return Object.keys(carried).length ? carried : undefined;
}

/** One JP tool as a jp tool, and what of it was not carried. */
function carryTool(name: string, tool: Plain, notCarried: string[]): Plain | undefined {
  const out: Plain = {};
  const at = `conversation.tools.${name}`;
  for (const key of TOOL_KEYS_KEPT) {
    if (tool[key] === undefined) continue;
    if (valid(["conversation", "tools", name, key], tool[key])) out[key] = tool[key];
    else notCarried.push(`${at}.${key} = ${JSON.stringify(tool[key])}: not a value jp accepts`);
  }
  // JP shows the model the summary, the description and the examples.
  const described = [str(tool.description), str(tool.examples) && `Examples:\n${str(tool.examples)}`]
    .filter(Boolean)
    .join("\n\n");
  if (described) out.description = described.trim();
  if (typeof tool.command === "string" || Array.isArray(tool.command)) {
    const carried = carryCommand(tool.command, name);
    if (carried.problem !== undefined) {
      notCarried.push(`${at}: ${carried.problem}; define the command anew`);
      return undefined;
    }
    out.command = carried.command;
  }
  if (isPlain(tool.parameters)) {
    const parameters: Plain = {};
    for (const [param, raw] of Object.entries(tool.parameters)) {
      if (!isPlain(raw)) continue;
      const { summary, ...rest } = raw;
      parameters[param] = { ...rest, ...(typeof summary === "string" ? { description: summary } : {}) };
    }
    out.parameters = parameters;
  }
  if (isPlain(tool.questions)) {
    const questions = carryQuestions(tool.questions, at, notCarried);
    if (questions) out.questions = questions;
  }
  for (const key of Object.keys(tool))
    if (TOOL_DISPLAY_KEYS.has(key))
      notCarried.push(`${at}.${key}: how JP shows the tool; jp has no such setting`);
  if (tool.format !== undefined)
    notCarried.push(`${at}.format: when JP runs a custom argument formatter; jp has none`);
  if (out.source === "local" && out.command === undefined) {
    notCarried.push(`${at}: a local tool without a command`);
    return undefined;
  }
  return out;
}

/**
 * JP's OpenAI base URL is the server's root (`https://api.openai.com`), and JP
 * adds the API's `/v1`; jp's is the API's own, as OpenAI's SDKs take it.
 */
function jpBaseUrl(provider: string, url: string): string {
  if (provider !== "openai") return url;
  try {
    const parsed = new URL(url);
    return parsed.pathname === "/" || parsed.pathname === "" ? `${trimEndOf(url, "/")}/v1` : url;
  } catch {
    return url;
  }
}

/** The MCP servers, the aliases and the LLM providers' settings of JP's `providers` that jp has too. */
function carryProviders(providers: Plain, out: Plain, notCarried: string[]): void {
  const carried: Plain = {};
  if (isPlain(providers.mcp))
    for (const [name, server] of Object.entries(providers.mcp)) {
      if (valid(["providers", "mcp", name], server) || validOverride(name, server))
        mergePlain(carried, { mcp: { [name]: server } });
      else
        notCarried.push(
          `providers.mcp.${name}: a server jp cannot start as written (${JSON.stringify(server)})`,
        );
    }
  const llm = isPlain(providers.llm) ? providers.llm : {};
  if (isPlain(llm.aliases)) carried.llm = { aliases: llm.aliases };
  for (const [name, settings] of Object.entries(llm)) {
    if (name === "aliases" || !isPlain(settings)) continue;
    const baseUrl = str(settings.base_url);
    if (baseUrl) mergePlain(carried, { [name]: { base_url: jpBaseUrl(name, baseUrl) } });
    // Where the key and the URL are read from the environment: the same settings in jp.
    for (const key of ["api_key_env", "base_url_env"] as const) {
      const value = str(settings[key]);
      if (value) mergePlain(carried, { [name]: { [key]: value } });
    }
    // JP's Anthropic beta headers are jp's `beta`.
    const beta = Array.isArray(settings.beta_headers)
      ? settings.beta_headers.filter((h) => typeof h === "string")
      : [];
    if (beta.length) mergePlain(carried, { [name]: { beta } });
    for (const key of leafPaths(settings, `providers.llm.${name}`))
      if (
        !/\.(base_url|api_key_env|base_url_env)$/.test(key) &&
        !(beta.length && /\.beta_headers(\[\d+\])?$/.test(key))
      )
        notCarried.push(`${key}: jp has no such provider setting`);
  }
  if (Object.keys(carried).length) out.providers = carried;
}

/** JP's reasoning effort (`parameters.reasoning.effort`, or `parameters.reasoning` alone) as jp's; "auto" is kept. */
function jpEffort(parameters: Plain): { level?: string; problem?: string } {
  const reasoning = isPlain(parameters.reasoning) ? parameters.reasoning : {};
  const effort = str(reasoning.effort) ?? str(parameters.reasoning);
  if (effort === undefined) return {};
  const level = jpEffortLevel(effort);
  if (level !== undefined) return { level };
  return {
    problem: `assistant.model.parameters.reasoning.effort = "${effort}": not an effort jp knows (${JP_EFFORT_NAMES.join(", ")})`,
  };
}

/** The model, reasoning effort and system prompt of JP's `assistant`. */
function carryAssistant(assistant: Plain, out: Plain, notCarried: string[]): void {
  const carried: Plain = {};
  const id = modelId(assistant.model);
  if (id) carried.model = { id };
  const parameters =
    isPlain(assistant.model) && isPlain(assistant.model.parameters) ? assistant.model.parameters : {};
  const reasoning = isPlain(parameters.reasoning) ? parameters.reasoning : {};
  const effort = jpEffort(parameters);
  if (effort.problem) notCarried.push(effort.problem);
  else if (effort.level !== undefined && effort.level !== "none")
    carried.reasoning = { effort: effort.level };
  // An assistant table alone: its tools (JP's "Tool Usage") are the merged config's, rendered by mergeJpFiles.
  const prompt = renderJpPrompt(mergeJpPrompt(EMPTY_JP_PROMPT, { assistant }));
  if (prompt) carried.system_prompt = prompt;
  if (Object.keys(carried).length) out.assistant = carried;
  const model = isPlain(assistant.model) ? assistant.model : {};
  const others = [
    ...leafPaths(omit(assistant, ["model", ...JP_PROMPT_KEYS]), "assistant"),
    ...leafPaths(omit(model, ["id", "parameters"]), "assistant.model"),
    ...leafPaths(omit(parameters, ["reasoning"]), "assistant.model.parameters"),
    ...leafPaths(omit(reasoning, ["effort"]), "assistant.model.parameters.reasoning"),
  ];
  for (const key of others) notCarried.push(`${key}: no jp counterpart`);
}

/** The model that titles new conversations (`conversation.title.generate.model.id`). */
function carryTitle(title: Plain, out: Plain, notCarried: string[]): void {
  const generate = isPlain(title.generate) ? title.generate : {};
  const model = modelId(generate.model);
  if (model) out.title = { generate: { model: { id: model } } };
  const others = [
    ...leafPaths(omit(title, ["generate"]), "conversation.title"),
    ...leafPaths(omit(generate, ["model"]), "conversation.title.generate"),
    ...leafPaths(
      isPlain(generate.model) ? omit(generate.model, ["id"]) : {},
      "conversation.title.generate.model",
    ),
  ];
  for (const key of others) notCarried.push(`${key}: no jp counterpart`);
}

/** The kinds of JP attachment jp reads (cli/attachments.ts): a path has no scheme. */
const ATTACHMENT_SCHEMES = new Set(["file", "http", "https", "cmd"]);

/** JP's `conversation.attachments` (a list, or `{ value, strategy }`) that jp can read. */
function carryAttachments(given: unknown, notCarried: string[]): unknown[] {
  const list: unknown[] = Array.isArray(given)
    ? given
    : isPlain(given) && Array.isArray(given.value)
      ? given.value
      : [];
  return list.filter((entry, i) => {
    const at = `conversation.attachments[${i}]`;
    if (!valid(["conversation", "attachments"], [entry])) {
      notCarried.push(`${at}: not an attachment jp reads (${JSON.stringify(entry)})`);
      return false;
    }
    const scheme =
      typeof entry === "string"
        ? /^([a-z][a-z0-9+.-]+):/i.exec(entry)?.[1]
        : isPlain(entry)
          ? str(entry.type)
          : undefined;
    if (scheme !== undefined && !ATTACHMENT_SCHEMES.has(scheme.toLowerCase())) {
      notCarried.push(`${at}: jp has no reader for JP's ${scheme} attachments`);
      return false;
    }
    return true;
  });
}

/** The compaction rules, tools and title model of JP's `conversation`. */
function carryConversation(conversation: Plain, out: Plain, notCarried: string[]): void {
  const carried: Plain = {};
  const compaction = isPlain(conversation.compaction) ? conversation.compaction : {};
  if (Array.isArray(compaction.rules)) {
    const rules = compaction.rules.filter((rule, i) => {
      const ok = valid(["conversation", "compaction", "rules"], [rule]);
      if (!ok)
        notCarried.push(`conversation.compaction.rules[${i}]: not a rule jp reads (${JSON.stringify(rule)})`);
      return ok;
    });
    if (rules.length) carried.compaction = { rules };
  }
  if (isPlain(conversation.tools)) {
    const tools: Plain = {};
    for (const [name, tool] of Object.entries(conversation.tools)) {
      if (!isPlain(tool)) continue;
      const one = carryTool(name, tool, notCarried);
      if (one && Object.keys(one).length) tools[name] = one;
    }
    if (Object.keys(tools).length) carried.tools = tools;
  }
  carryTitle(isPlain(conversation.title) ? conversation.title : {}, carried, notCarried);
  const attachments = carryAttachments(conversation.attachments, notCarried);
  if (attachments.length) carried.attachments = attachments;
  if (Object.keys(carried).length) out.conversation = carried;
  const others = [
    ...leafPaths(omit(conversation, ["compaction", "tools", "title", "attachments"]), "conversation"),
    ...leafPaths(omit(compaction, ["rules"]), "conversation.compaction"),
  ];
  for (const key of others) notCarried.push(`${key}: no jp counterpart`);
}

/**
 * jp's config for a JP workspace's merged config: MCP servers, tools (local
 * and MCP, with run modes and compaction hints), aliases, the default model,
 * reasoning, the system prompt and compaction rules; the rest named.
 */
export function carryJpConfig(jp: Plain): CarriedConfig {
  const config: Plain = {};
  const notCarried: string[] = [];
  const handled = new Set(["providers", "assistant", "conversation", "extends", "config_load_paths"]);
  if (isPlain(jp.providers)) carryProviders(jp.providers, config, notCarried);
  if (isPlain(jp.assistant)) carryAssistant(jp.assistant, config, notCarried);
  if (isPlain(jp.conversation)) carryConversation(jp.conversation, config, notCarried);
  for (const key of Object.keys(jp))
    if (!handled.has(key))
      notCarried.push(`${key}: no jp counterpart (${leafPaths(jp[key], key).join(", ")})`);
  const issue = checkConfig(withoutServerOverrides(config));
  if (issue) notCarried.push(`the carried config is invalid at ${keyPath(issue.path)}: ${issue.message}`);
  const carried = issue ? {} : config;
  return { config: carried, notCarried, review: powerOf(carried) };
}

/**
 * JP's config files merged in order, as JP merges them: tables deeply, and
 * the system prompt, its sections and instructions by JP's strategies (a
 * list appends), then rendered into one `system_prompt` as JP renders them.
 */
export function mergeJpFiles(values: readonly Plain[]): Plain {
  let prompt = EMPTY_JP_PROMPT;
  let attachments: Merged<unknown[]> = { value: [], discard: false };
  const merged: Plain = {};
  for (const value of values) {
    mergePlain(merged, value);
    prompt = mergeJpPrompt(prompt, value);
    const conversation = isPlain(value.conversation) ? value.conversation : {};
    if ("attachments" in conversation) attachments = mergeList(attachments, conversation.attachments);
  }
  if (isPlain(merged.assistant) && hasJpPrompt(merged.assistant))
    merged.assistant = withPrompt(merged.assistant, renderJpPrompt(prompt));
  // JP's lists add up from file to file, where mergePlain would keep the last.
  if (attachments.value.length && isPlain(merged.conversation))
    merged.conversation.attachments = attachments.value;
  return merged;
}

/** `assistant` with JP's prompt keys replaced by the one prompt they render to. */
function withPrompt(assistant: Plain, rendered: string | undefined): Plain {
  const rest = omit(assistant, JP_PROMPT_KEYS);
  return rendered === undefined ? rest : { ...rest, system_prompt: rendered };
}

export interface RecordedDelta {
  /** The delta as jp reads it. */
  delta: Plain;
  /** JP's prompt as merged up to and including this delta. */
  prompt: JpPrompt;
  /** Tools of the delta jp cannot run (left out of it), each with why. */
  leftOut: { name: string; why: string }[];
}

/**
 * One recorded config delta of a conversation with JP's forms read as JP
 * means them: the model's `{ provider, name }` id, its reasoning effort, the
 * prompt merged with the earlier deltas' (`prompt`) and rendered, and tool
 * commands whose placeholders jp fills. A tool whose command needs JP's own
 * `{{context}}` or `{{tool}}` is left out with why. jp's own deltas have none of these forms.
 */
export function readRecordedDelta(delta: Plain, prompt: JpPrompt): RecordedDelta {
  const out: Plain = { ...delta };
  const merged = mergeJpPrompt(prompt, delta);
  const assistant: Plain = isPlain(delta.assistant) ? { ...delta.assistant } : {};
  if (isPlain(assistant.model)) {
    const id = modelId(assistant.model);
    const { level } = jpEffort(isPlain(assistant.model.parameters) ? assistant.model.parameters : {});
    assistant.model = { ...omit(assistant.model, ["id", "parameters"]), ...(id ? { id } : {}) };
    if (level !== undefined)
      assistant.reasoning = { ...(isPlain(assistant.reasoning) ? assistant.reasoning : {}), effort: level };
  }
  // Rendered again when the prompt changes, or when the tools JP's "Tool Usage" follows first appear.
  const rerender =
    hasJpPrompt(assistant) || (merged.tools !== prompt.tools && renderJpPrompt(prompt) !== undefined);
  if (rerender) out.assistant = withPrompt(assistant, renderJpPrompt(merged));
  else if (isPlain(delta.assistant)) out.assistant = assistant;
  const leftOut: RecordedDelta["leftOut"] = [];
  const conversation = isPlain(delta.conversation) ? delta.conversation : undefined;
  if (conversation && isPlain(conversation.tools)) {
    const tools: Plain = {};
    for (const [name, tool] of Object.entries(conversation.tools)) {
      if (!isPlain(tool) || (typeof tool.command !== "string" && !Array.isArray(tool.command))) {
        tools[name] = tool;
        continue;
      }
      const carried = carryCommand(tool.command, name);
      if (carried.problem !== undefined) leftOut.push({ name, why: carried.problem });
      else tools[name] = { ...tool, command: carried.command };
    }
    out.conversation = { ...conversation, tools };
  }
  return { delta: out, prompt: merged, leftOut };
}

export { hasJpPrompt } from "./jp-prompt.js";
