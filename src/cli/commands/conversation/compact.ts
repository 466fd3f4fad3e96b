// `jp conversation compact [ID…]`: append compactions (or a reset) and show the timeline.
import { Option, type Command } from "commander";
import type { Context } from "../../context.js";
import { dropsReasoningOnEdit, providerSummaries } from "../../provider-summaries.js";
import { nextRequestFrame } from "../../request-frame.js";
import type { OptionalValueFlag } from "../../argv.js";
import {
  addSpecOptions,
  COMPACT_SPEC_FLAG,
  defaultKeeps,
  narrowRule,
  parseToolMode,
  rangeOverrides,
  rulesFromSpecs,
  type RangeFlags,
  type SpecOptions,
} from "../../compact-options.js";
import {
  configuredRules,
  hintsNamingNoTool,
  toolHints,
  type ResolvedRule,
} from "../../../config/compaction-rules.js";
import {
  indexCompactions,
  truncateNote,
  toolPolicyFor,
  NOTE_MAX,
  type CompactionRule,
  toolModeOf,
  streamFacts,
  streamShape,
  windowProblem,
  type CompactionEntry,
} from "../../../compaction/index.js";
import { UsageError } from "../../../errors.js";
import type { ConversationRef } from "../../../store/conversations.js";
import {
  compactConversation,
  rangeTokens,
  type CompactionInput,
  type CompactionOutcome,
} from "../../../service/compact.js";
import type { ProviderSummaries } from "../../../llm/provider-summary.js";
import type { Config } from "../../../config/schema.js";
import type { TokenCounter } from "../../../tokens/count.js";
import { progressLine, type ProgressCallback } from "../../../render/progress.js";
import { renderTimeline, describePolicies } from "../../../render/compactions.js";
import { compactionItems } from "../../../render/compaction-list.js";
import { turnsLabel } from "../../../events/index.js";
import type { CompactionReset, Event } from "../../../events/index.js";
import { turnCount } from "../../../events/index.js";
import { grouped } from "../../../numbers.js";

/** A count of turns (`--first 16`); conversation ids are longer, so they are never taken for one. */
export const isTurnCount = (token: string): boolean => /^\d{1,6}$/.test(token);
const isToolMode = (token: string): boolean => toolModeOf(token) !== undefined;
/** A compaction as `show` names it: its number (3), from the end (-1 is the newest), or its id. */
const isCompactionRef = (token: string): boolean =>
  /^-?\d{1,6}$/.test(token) || /^k[0-9a-f]{4,}$/.test(token);

export const optionalValues: OptionalValueFlag[] = [
  COMPACT_SPEC_FLAG,
  { flags: ["--first"], hidden: "--first-value", takesNextToken: isTurnCount },
  { flags: ["--last"], hidden: "--last-value", takesNextToken: isTurnCount },
  { flags: ["-t", "--tools"], hidden: "--tools-value", takesNextToken: isToolMode },
  { flags: ["-s", "--summarize"], hidden: "--summarize-value" },
  { flags: ["--reset"], hidden: "--reset-value", takesNextToken: isCompactionRef },
];

interface CompactOptions extends RangeFlags, SpecOptions {
  reasoning?: boolean;
  tools?: boolean;
  toolsValue?: string;
  summarize?: boolean;
  summarizeValue?: string;
  summary?: string;
  model?: string;
  /** false with --no-record. */
  record?: boolean;
  dryRun?: boolean;
  reset?: boolean;
  resetValue?: string;
  note?: string;
  json?: boolean;
}

const hidden = (flags: string) => new Option(flags).hideHelp();

export function register(parent: Command, ctx: Context): void {
  const cmd = parent
    .command("compact [ids...]")
    .description(
      "compact conversations (default: the active one) by appending compactions; nothing is removed",
    )
    .option("--keep-first <bound>", "leave the first turns untouched: a count, @N, -N or a duration")
    .option("--keep-last <bound>", "leave the last turns untouched: a count, @N, -N or a duration")
    .option(
      "--from <bound>",
      "first turn to compact: N (1-based), -N (-1 is the last), a duration, or last-compaction",
    )
    .option("--to <bound>", "last turn to compact: N (1-based), -N (-1 is the last), or a duration")
    .option("--first", "compact only the first turn; --first=N the first N turns")
    .addOption(hidden("--first-value <n>"))
    .option("--last", "compact only the last turn; --last=N the last N turns")
    .addOption(hidden("--last-value <n>"))
    .option("--turn <range>", "compact turn N, or turns A..B (1-based, inclusive)")
    .option("-r, --reasoning", "strip reasoning")
    .option("-t, --tools", "strip tool calls; -t=MODE for strip, strip-requests, strip-responses or omit")
    .addOption(hidden("--tools-value <mode>"))
    .option(
      "-s, --summarize",
      "replace the turns with a generated summary; -s=CONTEXT says what to keep in view",
    )
    .addOption(hidden("--summarize-value <context>"))
    .option("--summary <text>", "replace the turns with this summary, written by you")
    .option("-m, --model <id>", "model that writes generated summaries")
    .option(
      "--no-record",
      "with a summary: leave out the record of the work of those turns that the model is otherwise shown",
    );
  addSpecOptions(cmd)
    .option("--note <text>", `why, in one sentence (at most ${NOTE_MAX} characters)`)
    .option("--dry-run", "show what would change, with token counts, and change nothing")
    .option(
      "--reset",
      "undo all compactions (appends a reset); --reset N undoes one: its number as `show` lists it, -1 for the newest, or its id",
    )
    .addOption(hidden("--reset-value <n>"))
    .option("--json", "print the result as JSON")
    .action(async (ids: string[], opts: CompactOptions) => {
      const store = ctx.store();
      const refs = ids.length ? ids.map((id) => store.resolve(id)) : [store.resolve()];
      const results: unknown[] = [];
      for (const ref of refs) {
        if (refs.length > 1 && !opts.json) ctx.out(ctx.color.bold(`${ref.id}:`));
        results.push(
          opts.reset || opts.resetValue !== undefined
            ? resetCompactions(ctx, ref, opts)
            : await compact(ctx, ref, opts),
        );
      }
      if (opts.json) ctx.out(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
    });
}

function checkConflicts(opts: CompactOptions): void {
  const reset = opts.reset || opts.resetValue !== undefined;
  const given = (pairs: [boolean, string][]) => pairs.filter(([on]) => on).map(([, name]) => name);
  const policyFlags = given([
    [!!opts.reasoning, "-r"],
    [!!opts.tools || opts.toolsValue !== undefined, "-t"],
    [!!opts.summarize || opts.summarizeValue !== undefined, "-s"],
    [opts.summary !== undefined, "--summary"],
  ]);
  const specFlags = given([[!!opts.compact || (opts.compactSpec?.length ?? 0) > 0, "-k"]]);
  const rangeFlags = given([
    [opts.keepFirst !== undefined, "--keep-first"],
    [opts.keepLast !== undefined, "--keep-last"],
    [opts.from !== undefined, "--from"],
    [opts.to !== undefined, "--to"],
    [!!opts.first || opts.firstValue !== undefined, "--first"],
    [!!opts.last || opts.lastValue !== undefined, "--last"],
    [opts.turn !== undefined, "--turn"],
  ]);
  if (reset) {
    const others = [
      ...policyFlags,
      ...specFlags,
      ...rangeFlags,
      ...given([
        [opts.note !== undefined, "--note"],
        [opts.model !== undefined, "-m"],
      ]),
    ];
    if (others.length)
      throw new UsageError(`--reset undoes compactions and cannot be combined with ${others.join(", ")}`);
    return;
  }
  if (policyFlags.length && specFlags.length) {
    throw new UsageError(
      `give policies either as flags (${policyFlags.join(", ")}) or as -k specs, not both`,
    );
  }
  if (opts.summary !== undefined && policyFlags.length > 1) {
    throw new UsageError(
      `--summary replaces the turns with your text; ${policyFlags.filter((f) => f !== "--summary").join(", ")} cannot be combined with it`,
    );
  }
}

/** The rules this invocation applies, before range flags narrow them. */
function chooseRules(opts: CompactOptions, config: Parameters<typeof configuredRules>[0]): ResolvedRule[] {
  if (opts.summary !== undefined) {
    return [
      {
        rule: { ...defaultKeeps(), summary: { kind: "supplied", text: opts.summary, author: "user" } },
        label: "--summary",
      },
    ];
  }
  const tools = opts.tools || opts.toolsValue !== undefined;
  const summarize = opts.summarize || opts.summarizeValue !== undefined;
  if (opts.reasoning || tools || summarize) {
    const rule: CompactionRule = defaultKeeps();
    if (opts.reasoning) rule.reasoning = "strip";
    if (tools) rule.tool_calls = toolPolicyFor(parseToolMode(opts.toolsValue ?? "strip"));
    if (summarize) rule.summary = { kind: "derive" };
    return [{ rule, label: "flags", ...(summarize ? { summary: { context: opts.summarizeValue } } : {}) }];
  }
  if (opts.compact || opts.compactSpec?.length) return rulesFromSpecs(opts, config);
  return configuredRules(config);
}

/** The flags that chose turns by position, as typed (`--turn 3..5`, `--from 5 --to 3`), if any did. */
function windowFlags(opts: CompactOptions): string | undefined {
  if (opts.turn !== undefined) return `--turn ${opts.turn}`;
  const given = [
    ...(opts.from !== undefined ? [`--from ${opts.from}`] : []),
    ...(opts.to !== undefined ? [`--to ${opts.to}`] : []),
  ];
  return given.length ? given.join(" ") : undefined;
}

/** `counter`, reporting how far through each list of events it has counted (the caller clears the line). */
function countingWithProgress(counter: TokenCounter, progress: ProgressCallback): TokenCounter {
  return {
    get approximate() {
      return counter.approximate;
    },
    get method() {
      return counter.method;
    },
    event: (e) => counter.event(e),
    text: (t) => counter.text(t),
    events(list) {
      let total = 0;
      for (let i = 0; i < list.length; i++) {
        total += counter.event(list[i]!);
        if (i % 5000 === 0) progress(i, list.length);
      }
      return total;
    },
  };
}

/** Above this many events, planning shows a status line while it works. */
const LONG_CONVERSATION_EVENTS = 20_000;

/** The rules to apply: configured or given, narrowed to the command's window, with --model for derived summaries. */
function resolvedRules(
  ctx: Context,
  opts: CompactOptions,
  config: Config,
  overrides: ReturnType<typeof rangeOverrides>,
) {
  return chooseRules(opts, config).map((r) => {
    const narrowed = narrowRule(r, overrides);
    if (narrowed.combined) ctx.warn(narrowed.combined);
    if (opts.record === false) narrowed.rule.record = false;
    if (opts.model && narrowed.rule.summary?.kind === "derive") {
      narrowed.rule.summary = { kind: "derive", model: opts.model };
      narrowed.summary = { ...narrowed.summary, model: opts.model };
    }
    return narrowed;
  });
}

/** --note, cut to its limit with a warning. */
function noteOf(ctx: Context, opts: CompactOptions): string | undefined {
  if (opts.note === undefined) return undefined;
  const cut = truncateNote(opts.note);
  if (cut.truncated) ctx.warn(`--note is longer than ${NOTE_MAX} characters; it was cut to ${NOTE_MAX}`);
  return cut.note;
}

/** What is wrong with the conversation for these options, said before any work: a window it lacks, hints naming no tool. */
function checkAgainst(
  ctx: Context,
  events: readonly Event[],
  config: Config,
  opts: CompactOptions,
  overrides: ReturnType<typeof rangeOverrides>,
): void {
  // A window the user gave names turns of this conversation, in order; one that does not is an error.
  const flags = windowFlags(opts);
  const problem =
    flags && overrides.window
      ? windowProblem(overrides.window, streamFacts(events, ctx.clock.now().getTime()), flags)
      : undefined;
  if (problem) throw new UsageError(problem, "`jp conversation show` says how many turns there are");
  const called = new Set(events.flatMap((e) => (e.type === "tool_call_request" ? [e.name] : [])));
  for (const name of hintsNamingNoTool(config, called))
    ctx.warn(
      `conversation.tools.${name}.compaction names no tool of your config or of this conversation (a typo?); it applies to nothing`,
    );
}

/** Plan and measure (generating summaries unless a dry run), saying how far it is on a long conversation. */
async function planned(
  ctx: Context,
  input: Omit<CompactionInput, "counter" | "now" | "newId" | "summarizer">,
  counter: TokenCounter,
  providers: ProviderSummaries | undefined,
): Promise<CompactionOutcome> {
  const long = input.events.length > LONG_CONVERSATION_EVENTS;
  // Planning and counting a long conversation takes seconds: say how far it is while it runs.
  const clear = long ? ctx.status(`planning ${grouped(input.events.length)} events…`) : () => undefined;
  const counting = progressLine(
    ctx.stderr,
    (done, total) =>
      `planning and counting: ${grouped(done)} of ${grouped(total)} events (${Math.floor((done / total) * 100)}%)`,
  );
  return compactConversation({
    ...input,
    now: ctx.clock.now(),
    newId: ctx.newId,
    counter: long ? countingWithProgress(counter, counting) : counter,
    summarizer: ctx.summarizer,
    ...(providers ? { providerSummaries: providers } : {}),
  }).finally(() => {
    counting(1, 1);
    clear();
  });
}

async function compact(ctx: Context, ref: ConversationRef, opts: CompactOptions): Promise<unknown> {
  checkConflicts(opts);
  const store = ctx.store();
  const { config } = await ctx.config({ conversation: ref });
  const overrides = rangeOverrides({
    ...opts,
    first: opts.first || opts.firstValue !== undefined,
    last: opts.last || opts.lastValue !== undefined,
  });
  const rules = resolvedRules(ctx, opts, config, overrides);
  const note = noteOf(ctx, opts);
  const events = store.readEvents(ref);
  checkAgainst(ctx, events, config, opts, overrides);
  const counter = await ctx.tokenCounter(config);
  const { frame } = await nextRequestFrame(ctx, config);
  const outcome = await planned(
    ctx,
    {
      events,
      frame,
      rules,
      hints: toolHints(config),
      source: "user",
      note,
      defaultModel: config.assistant?.model?.id ?? "",
      dropsReasoningOnEdit: dropsReasoningOnEdit(config),
      dryRun: !!opts.dryRun,
    },
    counter,
    // A dry run writes no summary: it needs no provider.
    opts.dryRun ? undefined : await providerSummaries(ctx, config, ref),
  );
  // A turn in progress is waited for: a compaction lands between turns, not inside one.
  if (!opts.dryRun && outcome.planned.length) {
    const turn = store.holdTurn(ref);
    try {
      store.append(
        ref,
        outcome.planned.map((p) => p.compaction),
      );
    } finally {
      turn.release();
    }
  }
  const lines = renderTimeline(outcome, indexCompactions(events).entries, {
    dryRun: !!opts.dryRun,
    approximate: counter.approximate,
    turnCount: turnCount(events),
    pinned: streamShape(events).pinned,
    rangeTokens: (which, range) =>
      rangeTokens(which === "before" ? outcome.before : outcome.after, counter, range),
  });
  if (opts.json) return compactJson(ref, opts, outcome, counter, lines);
  ctx.out(lines.join("\n"));
  return undefined;
}

/** `compact --json`: the items `show` lists, numbered as `--reset N` takes them, with what planning measured. */
function compactJson(
  ref: ConversationRef,
  opts: CompactOptions,
  outcome: CompactionOutcome,
  counter: TokenCounter,
  timeline: string[],
) {
  const entries = indexCompactions(outcome.events).entries;
  return {
    id: ref.id,
    dry_run: !!opts.dryRun,
    compactions: outcome.planned.map((p) => {
      const entry = entries.find((e) => e.event.id === p.compaction.id);
      return {
        ...(entry ? compactionItems([entry])[0] : undefined),
        ...(opts.dryRun ? { state: "planned" } : {}),
        summary_generated: p.compaction.summary?.source === "derived" ? !p.summaryNotGenerated : null,
        tokens: {
          before: p.tokens.before,
          after: p.tokens.after,
          range_before: p.tokens.rangeBefore,
          range_after: p.tokens.rangeAfter,
        },
      };
    }),
    skipped: outcome.skipped,
    tokens: { ...outcome.tokens, approximate: counter.approximate, method: counter.method },
    cache_rewrite_tokens: outcome.cacheRewrite,
    reasoning_lost: {
      turns: outcome.reasoningLost.turns.map((t) => t + 1),
      tokens: outcome.reasoningLost.tokens,
    },
    facts_leaving: outcome.factsLeaving,
    facts_at_risk: outcome.atRisk,
    timeline,
  };
}

/** The compaction `--reset VALUE` names: its number in `show`, -N from the newest, or its id. */
function compactionNamed(value: string, entries: readonly CompactionEntry[]): CompactionEntry {
  const list = "see them with `jp conversation show`";
  if (/^k[0-9a-f]+$/.test(value)) {
    const entry = entries.find((e) => e.event.id === value);
    if (!entry) throw new UsageError(`this conversation has no compaction ${value}`, list);
    return entry;
  }
  const n = /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n === 0)
    throw new UsageError(
      `--reset ${value} names no compaction`,
      "give its number as `jp conversation show` lists it (1, 2…), -1 for the newest, or its id (k…)",
    );
  const entry = n > 0 ? entries[n - 1] : entries[entries.length + n];
  if (!entry)
    throw new UsageError(
      `there is no compaction ${n > 0 ? `#${n}` : n}; this conversation has ${entries.length}`,
      list,
    );
  return entry;
}

function resetCompactions(ctx: Context, ref: ConversationRef, opts: CompactOptions): unknown {
  checkConflicts(opts);
  const store = ctx.store();
  const entries = indexCompactions(store.readEvents(ref)).entries;
  const live = entries.filter((e) => e.state.kind !== "reset");
  let ids: string[] | undefined;
  let targets = live;
  if (opts.resetValue !== undefined) {
    const entry = compactionNamed(opts.resetValue, entries);
    if (entry.state.kind === "reset")
      throw new UsageError(`compaction #${entry.number} (${entry.event.id}) is already reset`);
    ids = [entry.event.id];
    targets = [entry];
  }
  const describe = targets.map(
    (e) =>
      `#${e.number} ${e.event.id} (${turnsLabel(e.event.from_turn, e.event.to_turn)}, ${describePolicies(e.event)})`,
  );
  if (targets.length === 0) {
    if (!opts.json) ctx.out("Nothing to reset.");
    return { id: ref.id, dry_run: !!opts.dryRun, reset: [] };
  }
  if (!opts.dryRun) {
    const event: CompactionReset = {
      type: "compaction_reset",
      timestamp: ctx.clock.now().toISOString(),
      ...(ids ? { ids } : {}),
    };
    const turn = store.holdTurn(ref);
    try {
      store.append(ref, [event]);
    } finally {
      turn.release();
    }
  }
  if (!opts.json) ctx.out(`${opts.dryRun ? "Would reset" : "Reset"} ${describe.join(", ")}.`);
  return {
    id: ref.id,
    dry_run: !!opts.dryRun,
    reset: targets.map((e) => ({ index: e.number, id: e.event.id })),
  };
}
