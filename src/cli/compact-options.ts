// Owns turning compaction flags (`-k`, `-r`, `-t`, `-s`, `--summary`, range
// and keep flags) into rules, for `compact`, `fork -k` and `q -k`.
import { dropsReasoningOnEdit, providerSummaries } from "./provider-summaries.js";
import { nextRequestFrame } from "./request-frame.js";
import type { Command } from "commander";
import {
  firstTurns,
  lastTurns,
  parseCliBound,
  parseKeepBound,
  parseSpec,
  turnSelector,
  toolModeOf,
  TOOL_MODE_WORDS,
  type CompactionRule,
  type KeepBound,
  type ToolMode,
  type Window,
} from "../compaction/index.js";
import {
  configuredRules,
  DEFAULT_KEEP_FIRST,
  DEFAULT_KEEP_LAST,
  type ResolvedRule,
} from "../config/compaction-rules.js";
import type { Config } from "../config/schema.js";
import { UsageError, messageOf } from "../errors.js";
import type { OptionalValueFlag } from "./argv.js";
import type { Context } from "./context.js";
import type { ConversationRef } from "../store/conversations.js";
import { toolHints } from "../config/compaction-rules.js";
import { compactConversation, type PlannedCompaction } from "../service/compact.js";
import { Option } from "commander";

const SPEC_START = /^(r|s|t|reasoning|summarize|tools)([=+:]|$)/;
/** A word with a policy's shape (`zz:1..2`, `x+y`): taken as a spec, to be reported if it is not one. */
const SPEC_SHAPED = /^[A-Za-z]+[=+:][\w=+:.-]*$/;

export const COMPACT_SPEC_FLAG: OptionalValueFlag = {
  flags: ["-k", "--compact"],
  hidden: "--compact-spec",
  takesNextToken: (token) => SPEC_START.test(token) || SPEC_SHAPED.test(token),
};

export interface SpecOptions {
  compact?: boolean;
  compactSpec?: string[];
}

/** `-k/--compact[=SPEC]`, repeatable. */
export function addSpecOptions(cmd: Command): Command {
  return cmd
    .option(
      "-k, --compact",
      "compact with the configured rules; -k SPEC (repeatable) adds a rule such as r+t:..-3 or s:-3 (README: Ranges)",
    )
    .addOption(
      new Option("--compact-spec <spec>")
        .hideHelp()
        .argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]),
    );
}

export function parseToolMode(value: string): ToolMode {
  const mode = toolModeOf(value);
  if (!mode) throw new UsageError(`--tools '${value}' is not a tool mode`, `use ${TOOL_MODE_WORDS}`);
  return mode;
}

export const defaultKeeps = (): Pick<CompactionRule, "keepFirst" | "keepLast"> => ({
  keepFirst: { kind: "count", turns: DEFAULT_KEEP_FIRST },
  keepLast: { kind: "count", turns: DEFAULT_KEEP_LAST },
});

/** A rule from one -k spec: its explicit range, or the default keeps when it has none. */
export function ruleFromSpec(spec: string): ResolvedRule {
  const parsed = parseSpec(spec);
  const rule: CompactionRule = parsed.range ? { ...parsed.range } : defaultKeeps();
  if (parsed.reasoning) rule.reasoning = parsed.reasoning;
  if (parsed.tool_calls) rule.tool_calls = parsed.tool_calls;
  if (parsed.summarize) rule.summary = { kind: "derive" };
  return { rule, label: `-k ${spec}`, ...(parsed.summarize ? { summary: {} } : {}) };
}

/** Bare -k means the configured rules; specs alone replace them; both together append. */
export function rulesFromSpecs(opts: SpecOptions, config: Config): ResolvedRule[] {
  return [...(opts.compact ? configuredRules(config) : []), ...(opts.compactSpec ?? []).map(ruleFromSpec)];
}

export interface RangeFlags {
  keepFirst?: string;
  keepLast?: string;
  from?: string;
  to?: string;
  first?: boolean;
  firstValue?: string;
  last?: boolean;
  lastValue?: string;
  turn?: string;
}

export interface RangeOverrides {
  window?: Window;
  keepFirst?: KeepBound;
  keepLast?: KeepBound;
}

/** Parse and check the range flags: one way of choosing turns, and keep values that leave something. */
export function rangeOverrides(flags: RangeFlags): RangeOverrides {
  const choosers = [
    flags.first ? "--first" : undefined,
    flags.last ? "--last" : undefined,
    flags.turn !== undefined ? "--turn" : undefined,
    flags.from !== undefined || flags.to !== undefined ? "--from/--to" : undefined,
  ].filter((x) => x !== undefined);
  if (choosers.length > 1)
    throw new UsageError(
      `${choosers.join(" and ")} both choose the turns; give only one of --first, --last, --turn or --from/--to`,
    );
  const out: RangeOverrides = {};
  if (flags.keepFirst !== undefined) out.keepFirst = parseKeepFlag(flags.keepFirst, "--keep-first");
  if (flags.keepLast !== undefined) out.keepLast = parseKeepFlag(flags.keepLast, "--keep-last");
  const selected = (flag: "--first" | "--last", n: number) => {
    const kf = out.keepFirst?.kind === "count" ? out.keepFirst.turns : 0;
    const kl = out.keepLast?.kind === "count" ? out.keepLast.turns : 0;
    if (kf >= n && out.keepFirst)
      throw new UsageError(
        `--keep-first ${kf} keeps all ${n} turns that ${flag} ${n} selects; nothing would be compacted`,
        `give --keep-first a value below ${n}`,
      );
    if (kl >= n && out.keepLast)
      throw new UsageError(
        `--keep-last ${kl} keeps all ${n} turns that ${flag} ${n} selects; nothing would be compacted`,
        `give --keep-last a value below ${n}`,
      );
    if (kf + kl >= n)
      throw new UsageError(
        `--keep-first ${kf} and --keep-last ${kl} together keep all ${n} turns that ${flag} ${n} selects; nothing would be compacted`,
      );
  };
  if (flags.first) {
    const value = flags.firstValue ?? "1";
    out.window = firstTurns(value);
    selected("--first", Number(value));
  } else if (flags.last) {
    const value = flags.lastValue ?? "1";
    out.window = lastTurns(value);
    selected("--last", Number(value));
  } else if (flags.turn !== undefined) {
    out.window = turnSelector(flags.turn);
  } else if (flags.from !== undefined || flags.to !== undefined) {
    out.window = {};
    if (flags.from !== undefined) out.window.from = parseCliBound(flags.from, "--from");
    if (flags.to !== undefined) out.window.to = parseCliBound(flags.to, "--to");
  }
  return out;
}

function parseKeepFlag(value: string, flag: string): KeepBound {
  try {
    return parseKeepBound(value, flag);
  } catch (error) {
    throw new UsageError(
      messageOf(error),
      "use a count (4), a 1-based position (@5), -N from the end, or a duration (5h)",
    );
  }
}

/**
 * Narrow a rule with the range flags. A window (--turn, --first, --last,
 * --from/--to) is the whole range: the rule's own range and keep values give
 * way, and only keep flags narrow it further. A keep flag alone replaces that
 * side; the rule's keep on the other side stays, and `combined` says so.
 */
export function narrowRule(
  resolved: ResolvedRule,
  overrides: RangeOverrides,
): ResolvedRule & { combined?: string } {
  const rule: CompactionRule = { ...resolved.rule };
  if (overrides.window) {
    delete rule.from;
    delete rule.to;
    delete rule.keepFirst;
    delete rule.keepLast;
    if (overrides.window.from) rule.from = overrides.window.from;
    if (overrides.window.to) rule.to = overrides.window.to;
  }
  if (overrides.keepFirst) rule.keepFirst = overrides.keepFirst;
  if (overrides.keepLast) rule.keepLast = overrides.keepLast;
  let combined: string | undefined;
  if (!overrides.window && (overrides.keepFirst === undefined) !== (overrides.keepLast === undefined)) {
    const [given, kept, bound] = overrides.keepFirst
      ? (["--keep-first", "keep_last", rule.keepLast] as const)
      : (["--keep-last", "keep_first", rule.keepFirst] as const);
    const whose = resolved.label === "flags" ? "the default" : `${resolved.label}'s`;
    const end = kept === "keep_first" ? "start at turn 1" : "compact through the last turn";
    if (bound && !(bound.kind === "count" && bound.turns === 0))
      combined = `${given} applies with ${whose} ${kept} = ${describeKeep(bound)} (give --${kept.replace("_", "-")} 0 to ${end})`;
  }
  return combined ? { ...resolved, rule, combined } : { ...resolved, rule };
}

/** A keep value as the user would write it. */
function describeKeep(bound: KeepBound): string {
  switch (bound.kind) {
    case "count":
      return String(bound.turns);
    case "absolute":
      return `@${bound.index + 1}`;
    case "from_end":
      return `-${bound.offset + 1}`;
    case "ago":
      return `${Math.round(bound.ms / 60_000)}m`;
    case "last_compaction":
      return "last-compaction";
  }
}

/**
 * `-k` on `fork` and `q`: compact the conversation by the configured rules
 * and/or the specs, appending what was planned unless `persist` is false.
 */
export async function compactWithSpecs(
  ctx: Context,
  ref: ConversationRef,
  opts: SpecOptions,
  config: Config,
  persist = true,
): Promise<PlannedCompaction[]> {
  if (!opts.compact && !opts.compactSpec?.length) return [];
  const store = ctx.store();
  const providers = await providerSummaries(ctx, config, ref);
  const events = store.readEvents(ref);
  const { frame } = await nextRequestFrame(ctx, config);
  const outcome = await compactConversation({
    events,
    frame,
    rules: rulesFromSpecs(opts, config),
    hints: toolHints(config),
    source: "user",
    now: ctx.clock.now(),
    newId: ctx.newId,
    counter: await ctx.tokenCounter(config),
    summarizer: ctx.summarizer,
    defaultModel: config.assistant?.model?.id ?? "",
    dropsReasoningOnEdit: dropsReasoningOnEdit(config),
    dryRun: false,
    ...(providers ? { providerSummaries: providers } : {}),
  });
  if (outcome.planned.length && persist)
    store.append(
      ref,
      outcome.planned.map((p) => p.compaction),
    );
  return outcome.planned;
}
