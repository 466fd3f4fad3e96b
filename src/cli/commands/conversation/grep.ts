// `jp conversation grep PATTERN [ID...]`: search conversations, as stored or as the model sees them.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { project, textPieces, type Piece } from "../../../compaction/index.js";
import { turnsLabel } from "../../../events/index.js";
import { UsageError } from "../../../errors.js";
import { visible } from "../../../render/visible.js";
import type { ConversationRef } from "../../../store/conversations.js";

interface GrepOptions {
  compacted?: boolean;
  ignoreCase?: boolean;
  json?: boolean;
}

interface GrepMatch {
  id: string;
  /** 1-based raw turn; a summary's first turn in the compacted view. */
  turn: number;
  /** Where the line sits: `user`, `assistant`, `tool result NAME ID`…, or `summary of turns A–B`. */
  where: string;
  line: string;
}

function patternOf(source: string, opts: GrepOptions): RegExp {
  try {
    return new RegExp(source, opts.ignoreCase ? "iu" : "u");
  } catch (error) {
    throw new UsageError(
      `'${source}' is not a regular expression jp can read: ${error instanceof Error ? error.message : String(error)}`,
      "JavaScript's syntax; quote it for the shell, and escape . * ( [ to match them as they are",
    );
  }
}

/** The lines of `pieces` that match. */
function* matchesIn(ref: ConversationRef, pieces: Iterable<Piece & { where?: string }>, pattern: RegExp) {
  for (const piece of pieces)
    for (const line of piece.text.split("\n"))
      if (pattern.test(line))
        yield {
          id: ref.id,
          turn: piece.turn + 1,
          where: piece.where ?? piece.label,
          line,
        } satisfies GrepMatch;
}

/** The pieces of what the model sees: each projected turn's text, a summary labelled with the turns it stands for. */
function* compactedPieces(ctx: Context, ref: ConversationRef): Generator<Piece & { where?: string }> {
  for (const t of project(ctx.store().readEvents(ref)).turns) {
    const first = t.origin.kind === "kept" ? t.origin.turn : t.origin.from;
    const summary =
      t.origin.kind === "summary" ? `summary of ${turnsLabel(t.origin.from, t.origin.to)}, ` : "";
    for (const piece of textPieces(t.events, first)) yield { ...piece, where: `${summary}${piece.label}` };
  }
}

function show(ctx: Context, match: GrepMatch, pattern: RegExp): string {
  const c = ctx.color;
  const line = visible(match.line.length > 400 ? `${match.line.slice(0, 399)}…` : match.line);
  const marked = line.replace(new RegExp(pattern.source, `${pattern.flags}g`), (m) => c.bold(c.red(m)));
  return `${c.magenta(match.id)} ${c.dim(`turn ${match.turn}`)} ${c.cyan(visible(match.where))}: ${marked}`;
}

export function register(parent: Command, ctx: Context): void {
  parent
    .command("grep <pattern> [ids...]")
    .description(
      "search every conversation (or those given) for a regular expression, line by line; exits 1 when nothing matches",
    )
    .option("--compacted", "search what the model sees (summaries, stripped calls), not the stored history")
    .option("-i, --ignore-case", "match regardless of case")
    .option("--json", 'print an array of { "id", "turn", "where", "line" }')
    .action((source: string, ids: string[], opts: GrepOptions) => {
      const pattern = patternOf(source, opts);
      const store = ctx.store();
      const refs = ids.length ? ids.map((id) => store.resolve(id)) : store.list();
      const found: GrepMatch[] = [];
      let count = 0;
      for (const ref of refs) {
        // The stored history streams, so a conversation of any size is searched in bounded memory.
        const pieces = opts.compacted ? compactedPieces(ctx, ref) : textPieces(store.streamEvents(ref));
        for (const match of matchesIn(ref, pieces, pattern)) {
          count += 1;
          if (opts.json) found.push(match);
          else ctx.out(show(ctx, match, pattern));
        }
      }
      if (opts.json) ctx.out(JSON.stringify(found, null, 2));
      if (count === 0) {
        if (!opts.json) ctx.info(`no line matches ${source}`);
        ctx.exitCode = 1;
      }
    });
}
