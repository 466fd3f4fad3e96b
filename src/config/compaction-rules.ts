// Owns turning configured compaction rules and tool hints into the core's rules.
import type { ToolPolicy } from "../events/index.js";
import { parseKeepBound, toolPolicyFor, type CompactionRule, type ToolHint } from "../compaction/index.js";
import type { CompactionRuleConfig, Config } from "./schema.js";

/** Keep bounds a rule gets when it names none: the first and the last turn. */
export const DEFAULT_KEEP_FIRST = 1;
export const DEFAULT_KEEP_LAST = 1;

export interface SummaryOptions {
  instructions?: string;
  context?: string;
  model?: string;
}

/** A core rule plus what the summariser needs, and a label for output. */
export interface ResolvedRule {
  rule: CompactionRule;
  summary?: SummaryOptions;
  label: string;
}

export function toolPolicyFromConfig(value: NonNullable<CompactionRuleConfig["tool_calls"]>): ToolPolicy {
  return typeof value === "string" ? toolPolicyFor(value) : value;
}

export function ruleFromConfig(config: CompactionRuleConfig, index: number): ResolvedRule {
  const rule: CompactionRule = {
    keepFirst: parseKeepBound(
      config.keep_first ?? DEFAULT_KEEP_FIRST,
      `conversation.compaction.rules[${index}].keep_first`,
    ),
    keepLast: parseKeepBound(
      config.keep_last ?? DEFAULT_KEEP_LAST,
      `conversation.compaction.rules[${index}].keep_last`,
    ),
  };
  if (config.reasoning) rule.reasoning = config.reasoning;
  if (config.tool_calls) rule.tool_calls = toolPolicyFromConfig(config.tool_calls);
  if (config.record === false) rule.record = false;
  let summary: SummaryOptions | undefined;
  if (config.summary) {
    summary = { ...config.summary, model: config.summary.model?.id };
    rule.summary = { kind: "derive", ...(summary.model ? { model: summary.model } : {}) };
  }
  return { rule, ...(summary ? { summary } : {}), label: `rule ${index + 1}` };
}

export function configuredRules(config: Config): ResolvedRule[] {
  const rules = config.conversation?.compaction?.rules;
  const list = Array.isArray(rules) ? rules : (rules?.value ?? []);
  return list.map(ruleFromConfig);
}

/**
 * The tools hints name that neither the config defines (a command, a source)
 * nor the conversation has called: most likely a typo (`serch` for `search`),
 * which would otherwise apply to nothing without a word.
 */
export function hintsNamingNoTool(config: Config, calledTools: ReadonlySet<string>): string[] {
  const defined = new Set(
    Object.entries(config.conversation?.tools ?? {})
      .filter(([, tool]) => tool.command !== undefined || tool.source !== undefined)
      .map(([name]) => name),
  );
  return Object.keys(toolHints(config)).filter(
    (name) => name !== "*" && name !== "compact" && !defined.has(name) && !calledTools.has(name),
  );
}

/** Per-tool hints from `conversation.tools.<name>.compaction` (and `'*'`), to freeze into compactions. */
export function toolHints(config: Config): Record<string, ToolHint> {
  const hints: Record<string, ToolHint> = {};
  for (const [name, tool] of Object.entries(config.conversation?.tools ?? {}))
    if (tool.compaction) hints[name] = tool.compaction;
  return hints;
}
