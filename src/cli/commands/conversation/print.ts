// `jp conversation print [ID]`: the full history, or with --compacted exactly what the model sees.
import { droppedLine, leftOutLines } from "../../../render/reasoning.js";
import { Option, type Command } from "commander";
import type { Context } from "../../context.js";
import { conversationOrPick } from "../../pick.js";
import { groupTurns, isKind, NO_TURN, TurnCounter, turnsLabel, type Event } from "../../../events/index.js";
import type { ConversationRef } from "../../../store/conversations.js";
import {
  firstTurns,
  indexCompactions,
  lastTurns,
  project,
  turnSink,
  resolveRange,
  streamFacts,
  turnSelector,
  type TurnOrigin,
  type TurnRange,
  type Window,
  windowProblem,
  streamShape,
  projectStream,
  projectionOutline,
  type CompactionEntry,
  type StreamShape,
} from "../../../compaction/index.js";
import { visible } from "../../../render/visible.js";
import {
  fateOf,
  historyBlocks,
  renderCompacted,
  renderHistory,
  type SummaryInfo,
} from "../../../render/history.js";
import { page } from "../../../render/pager.js";
import { UsageError } from "../../../errors.js";
import type { OptionalValueFlag } from "../../argv.js";
import { isTurnCount } from "./compact.js";
import { counted } from "../../../render/words.js";

export const optionalValues: OptionalValueFlag[] = [
  { flags: ["--first"], hidden: "--first-value", takesNextToken: isTurnCount },
  { flags: ["--last"], hidden: "--last-value", takesNextToken: isTurnCount },
];

interface PrintOptions {
  json?: boolean;
  compacted?: boolean;
  turn?: string;
  first?: boolean;
  firstValue?: string;
  last?: boolean;
  lastValue?: string;
}

function selection(opts: PrintOptions, events: readonly Event[], now: number): TurnRange | undefined {
  const windows: Window[] = [];
  if (opts.turn !== undefined) windows.push(turnSelector(opts.turn));
  if (opts.first || opts.firstValue !== undefined) windows.push(firstTurns(opts.firstValue ?? "1"));
  if (opts.last || opts.lastValue !== undefined) windows.push(lastTurns(opts.lastValue ?? "1"));
  if (windows.length > 1)
    throw new UsageError("--turn, --first and --last each choose the turns; give only one");
  if (!windows[0]) return undefined;
  const facts = streamFacts(events, now);
  const problem =
    opts.turn !== undefined ? windowProblem(windows[0], facts, `--turn ${opts.turn}`) : undefined;
  if (problem) throw new UsageError(problem, "`jp conversation show` says how many turns there are");
  const resolved = resolveRange(windows[0], facts);
  return resolved.ok ? resolved.range : { from: 1, to: 0 };
}

const selecting = (opts: PrintOptions): boolean =>
  opts.turn !== undefined ||
  !!opts.first ||
  !!opts.last ||
  opts.firstValue !== undefined ||
  opts.lastValue !== undefined;

/** The summaries of the compactions, as the compacted view heads their turns. */
function summaryInfos(entries: readonly CompactionEntry[]): Map<string, SummaryInfo> {
  const summaries = new Map<string, SummaryInfo>();
  for (const { event: c } of entries)
    if (c.summary)
      summaries.set(c.id, {
        source: c.source,
        note: c.note,
        supplied: c.summary.source === "supplied",
        author: c.summary.author,
        editedBy: c.summary.edited_by,
        model: c.summary.model,
        ...(c.summary.provider ? { byProvider: true } : {}),
      });
  return summaries;
}

/** The header of the compacted view: what is active, and the turns before and after. */
function compactedHeader(ctx: Context, shape: StreamShape): string {
  const entries = shape.entries;
  const outline = projectionOutline(shape);
  const deferred = entries.flatMap((e) => {
    if (e.state.kind !== "deferred") return [];
    const c = e.event;
    const note = c.note ? ` — ${c.note}` : "";
    return [
      `Deferred: #${e.number} ${c.id} by ${c.source}, ${turnsLabel(c.from_turn, c.to_turn)}, takes effect at turn ${e.state.untilTurn + 1}${note}`,
    ];
  });
  const pending = [...deferred, ...notSent(shape), ...reasoningNotSent(shape)].map((l) => `\n${l}`).join("");
  return ctx.color.dim(
    `What the model sees: ${counted(outline.activeCompactions, "active compaction")}; ${counted(shape.turnCount, "raw turn")} → ${counted(outline.turns, "projected turn")}.${pending}`,
  );
}

/** The reasoning the newest request left out, and what providers dropped (preserved thinking). */
function reasoningNotSent(shape: StreamShape): string[] {
  const dropped = droppedLine(shape.reasoning.dropped);
  return [
    ...leftOutLines(shape.reasoning.leftOut).map((l) => `Not sent: ${l}`),
    ...(dropped ? [`Dropped: ${dropped}`] : []),
  ];
}

/** The raw turns the view leaves out whole, each with why. */
function notSent(shape: StreamShape): string[] {
  const failures = new Map(shape.failures.map((q) => [q.turn, q]));
  return [...shape.failed]
    .sort((a, b) => a - b)
    .map((turn) => {
      const q = failures.get(turn);
      const why = q
        ? `its question failed (${visible(q.reason)}); ${fateOf(q)}`
        : "it holds nothing a model can see (started and left before its question)";
      return `Not sent: turn ${turn + 1}, ${why}`;
    });
}

/**
 * Logs up to this many MB are read once and held while the compacted view is
 * made (a 20 MB log's events take some 100 MB); larger ones are read twice as
 * they stream, so memory stays bounded whatever the size. JP_PRINT_HOLD_MB
 * sets it (0: always stream).
 */
const HOLD_MB = 32;

function holdLimitBytes(env: NodeJS.ProcessEnv): number {
  const set = env.JP_PRINT_HOLD_MB?.trim();
  const mb = set ? Number(set) : HOLD_MB;
  if (!Number.isFinite(mb) || mb < 0)
    throw new UsageError(
      `JP_PRINT_HOLD_MB is '${set}', not a number of MB: unset it, or give one such as 32`,
    );
  return mb * 2 ** 20;
}

/**
 * The compacted view of a log of any size, to a file or a pipe: one pass for
 * the shape of the stream, then the projection made and printed a turn at a
 * time (over the log held in memory, or streamed again when it is large).
 */
function printCompactedToFile(ctx: Context, ref: ConversationRef): void {
  const store = ctx.store();
  const held = store.logBytes(ref) <= holdLimitBytes(ctx.env) ? store.readEvents(ref) : undefined;
  const events = () => held ?? store.streamEvents(ref);
  const shape = streamShape(events());
  const outline = projectionOutline(shape);
  const summaries = summaryInfos(shape.entries);
  ctx.stdout.write(`${compactedHeader(ctx, shape)}\n\n`);
  if (outline.turns === 0) {
    ctx.stdout.write("(no turns)\n");
    return;
  }
  const toolNames = new Map<string, string>();
  // The raw calls of the turns still to print: whether a projected call was stripped shows against them.
  const rawCalls = new Map<string, { arguments: Record<string, unknown>; content?: string; turn: number }>();
  const rawTurn = new TurnCounter();
  let latestRawTurn = 0;
  let printed = 0;
  const sink = turnSink((turn) => {
    const text = renderCompacted([turn], rawCalls, summaries, { color: ctx.color }, toolNames);
    ctx.stdout.write(`${printed++ === 0 ? "" : "\n\n"}${text}`);
    // Calls of raw turns before the one being read are done with, shown or not.
    for (const [id, call] of rawCalls) if (call.turn < latestRawTurn) rawCalls.delete(id);
  });
  // The raw events pass through here on their way to the projection, so their calls are known in time.
  function* noting(events: Iterable<Event>): Generator<Event> {
    for (const e of events) {
      const t = rawTurn.next(e);
      if (t !== NO_TURN) latestRawTurn = t;
      if (isKind(e, "tool_call_request")) rawCalls.set(e.id, { arguments: e.arguments, turn: latestRawTurn });
      else if (isKind(e, "tool_call_response")) {
        const call = rawCalls.get(e.id);
        if (call) call.content = e.content;
      }
      yield e;
    }
  }
  projectStream(noting(events()), shape, sink);
  sink.end();
  ctx.stdout.write("\n");
}

const originFrom = (o: TurnOrigin) => (o.kind === "kept" ? o.turn : o.from);
const originTo = (o: TurnOrigin) => (o.kind === "kept" ? o.turn : o.to);

export function register(parent: Command, ctx: Context): void {
  parent
    .command("print [id]")
    .description(
      "print the full history of a conversation (default: the active one), with 1-based turn numbers",
    )
    .option(
      "--compacted",
      "print what the model will see: projected turns headed with their raw turn numbers",
    )
    .option("--turn <range>", "only raw turn N, or turns A..B")
    .option("--first", "only the first turn; --first=N the first N")
    .addOption(new Option("--first-value <n>").hideHelp())
    .option("--last", "only the last turn; --last=N the last N")
    .addOption(new Option("--last-value <n>").hideHelp())
    .option(
      "--json",
      'print { "id", "turns": [ { "turn", "events" } ] }; with --compacted each turn has an "origin"',
    )
    .action((id: string | undefined, opts: PrintOptions) => print(ctx, id, opts));
}

/** Whether the whole raw history is asked for, as text. */
const wholeHistory = (opts: PrintOptions) =>
  !opts.compacted &&
  !opts.json &&
  !opts.turn &&
  !opts.first &&
  !opts.last &&
  !opts.firstValue &&
  !opts.lastValue;

async function print(ctx: Context, id: string | undefined, opts: PrintOptions): Promise<void> {
  const store = ctx.store();
  const ref = await conversationOrPick(ctx, id, "Print which conversation?");
  if (!ref) return;
  if (wholeHistory(opts) && !ctx.stdout.isTTY) {
    // To a file or a pipe the history streams: a conversation of any size prints in bounded memory.
    let blocks = 0;
    for (const block of historyBlocks(store.streamEvents(ref), { color: ctx.color }))
      ctx.stdout.write(`${blocks++ === 0 ? "" : "\n\n"}${block}`);
    ctx.stdout.write(blocks === 0 ? "(no events)\n" : "\n");
    return;
  }
  if (opts.compacted && !opts.json && !selecting(opts) && !ctx.stdout.isTTY) {
    // To a file or a pipe the compacted view streams too: two passes over the log, bounded memory.
    printCompactedToFile(ctx, ref);
    return;
  }
  const events = store.readEvents(ref);
  const range = selection(opts, events, ctx.clock.now().getTime());
  const inRange = (from: number, to: number) => !range || (to >= range.from && from <= range.to);
  if (opts.compacted) await printCompacted(ctx, ref, events, opts, inRange);
  else await printRaw(ctx, ref, events, opts, range);
}

/** The stored history, of the selected raw turns or all. */
async function printRaw(
  ctx: Context,
  ref: ConversationRef,
  events: readonly Event[],
  opts: PrintOptions,
  range: TurnRange | undefined,
): Promise<void> {
  const turns = groupTurns(events).filter((t) => !range || (t.index >= range.from && t.index <= range.to));
  if (opts.json) {
    ctx.out(
      JSON.stringify(
        { id: ref.id, turns: turns.map((t) => ({ turn: t.index + 1, events: t.events })) },
        null,
        2,
      ),
    );
    return;
  }
  const shown = range ? turns.flatMap((t) => t.events) : events;
  await page(
    ctx,
    shown.length === 0 ? "(no events)" : renderHistory(shown, { color: ctx.color }, range?.from ?? 0),
  );
}

/** What the model sees, of the projected turns that come from the selected raw turns. */
async function printCompacted(
  ctx: Context,
  ref: ConversationRef,
  events: readonly Event[],
  opts: PrintOptions,
  inRange: (from: number, to: number) => boolean,
): Promise<void> {
  const selected = project(events).turns.filter((t) => inRange(originFrom(t.origin), originTo(t.origin)));
  if (opts.json) {
    const turns = selected.map((t) => ({
      origin:
        t.origin.kind === "kept"
          ? { kind: "kept", turn: t.origin.turn + 1 }
          : { kind: "summary", from: t.origin.from + 1, to: t.origin.to + 1 },
      events: t.events,
    }));
    ctx.out(JSON.stringify({ id: ref.id, turns }, null, 2));
    return;
  }
  const rawCalls = new Map<string, { arguments: Record<string, unknown>; content?: string }>();
  for (const e of events) {
    if (isKind(e, "tool_call_request")) rawCalls.set(e.id, { arguments: e.arguments });
    else if (isKind(e, "tool_call_response")) {
      const call = rawCalls.get(e.id);
      if (call) call.content = e.content;
    }
  }
  const entries = indexCompactions(events).entries;
  const text =
    selected.length === 0
      ? "(no turns)"
      : renderCompacted(selected, rawCalls, summaryInfos(entries), { color: ctx.color });
  const header = compactedHeader(ctx, streamShape(events));
  await page(ctx, `${header}\n\n${text}`);
}
