// Owns the built-in `compact` tool: the assistant proposes compaction rules,
// the user approves a self-sufficient preview, and approved rules are
// recorded (deferred to the next turn) with the tool's response.
import { messageOf } from "../errors.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRewriteTokens } from "../tokens/cache-rewrite.js";
import { checkCompactArgs, COMPACT_PARAMETERS, isCompactArgs, RULE_FIELDS } from "./compact-args.check.js";
import { planAssistantRules, project, type AssistantRule, type ToolHint } from "../compaction/index.js";
import { isJsonObject, turnsLabel, type Compaction, type Event } from "../events/index.js";
import type { PreviewRule } from "../render/compact-preview.js";
import type { TokenCounter } from "../tokens/count.js";
import { decideApproval, type Approval } from "./approval.js";
import { privateTempDir } from "../store/private-temp.js";
import type { Prompter } from "./prompter.js";
import type { RunMode, Tool, ToolContext } from "./types.js";

const COMPACT_KEYS = ["y", "n", "r", "e", "?"] as const;
const COMPACT_HELP = [
  "  y  record these compactions; they take effect when the next turn starts",
  "  n  record nothing; the assistant is told you declined",
  "  r  record nothing, with a reason you type; the assistant receives it",
  "  e  edit the rules (summary text included) as JSON in $EDITOR, then see the preview again",
  "  ?  this help",
].join("\n");

const DESCRIPTION = `Compact this conversation: replace earlier turns with a summary you write, or strip their reasoning or tool calls, so later requests stay small. Nothing is deleted; the user approves a preview first, and recorded rules take effect when the next turn starts (this turn is not affected).

Each rule chooses a range of whole turns and what to do with it:
- after_quote / before_quote: a verbatim passage (copy it exactly, 5-20 distinctive words) from the turn just before / just after the range. The range starts after the turn holding after_quote and ends before the turn holding before_quote.
- keep_first / keep_last: numbers of turns at the start / end to leave untouched. keep_last is at least 1: the current turn is never compacted.
- summary: plain text that replaces every event of the range. Make it stand alone: keep file paths, commands, exact error messages, numbers, decisions with their reasons, and the current state.
- reasoning: "strip" removes thinking; tool_calls: "strip" | "strip-requests" | "strip-responses" | "omit".
- note (required): one sentence on why, shown to the user (at most 200 characters).
Quotes that are not found, match several turns, or fall inside an existing summary come back as errors; fix the quote and call again.`;

export { COMPACT_PARAMETERS };

/** How the preview and the spilled text are written; the CLI passes render/compact-preview.ts. */
export interface CompactPreview {
  render(events: readonly Event[], rules: readonly PreviewRule[]): string;
  dropped(events: readonly Event[], compaction: Compaction): string;
}

export interface CompactToolDeps {
  preview: CompactPreview;
  now: () => Date;
  newId: () => string;
  hints: Readonly<Record<string, ToolHint>>;
  counter: () => Promise<TokenCounter>;
  conversationId: string;
  run?: RunMode;
}

function parseArgs(
  args: Record<string, unknown>,
): { ok: true; rules: AssistantRule[] } | { ok: false; error: string } {
  if (isCompactArgs(args)) return { ok: true, rules: args.rules };
  const issue = checkCompactArgs(args) ?? { path: [], code: "custom", message: "schema mismatch" };
  const where =
    issue.path
      .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
      .join("")
      .replace(/^\./, "") || "arguments";
  let fix = issue.message;
  if (issue.code === "unrecognized_keys")
    fix = `unknown field ${(issue.keys ?? []).join(", ")}; a rule accepts ${RULE_FIELDS.join(", ")}`;
  else if (where.endsWith(".note")) fix = "note is required: say in one sentence why";
  return {
    ok: false,
    error: `invalid compact call at ${where}: ${fix}. Fix the arguments and call compact again.`,
  };
}

export function createCompactTool(deps: CompactToolDeps): Tool {
  // The same rules keep their ids from preview to record: the ids (and spill files) shown are the ones recorded.
  const idsByRules = new Map<string, string[]>();
  const idsFor = (rules: readonly unknown[]): string[] => {
    const key = JSON.stringify(rules);
    let ids = idsByRules.get(key);
    if (!ids) {
      ids = rules.map(() => deps.newId());
      idsByRules.set(key, ids);
    }
    return ids;
  };
  const plan = (events: readonly Event[], args: Record<string, unknown>) => {
    const parsed = parseArgs(args);
    if (!parsed.ok) return parsed;
    const ids = idsFor(parsed.rules);
    return planAssistantRules(events, parsed.rules, {
      ids,
      now: deps.now().getTime(),
      toolHints: deps.hints,
    });
  };

  /** Each rule's compaction with its token figures as if it were active (they are deferred when recorded). */
  const measure = async (events: readonly Event[], compactions: Compaction[]) => {
    const counter = await deps.counter();
    const active = (c: Compaction): Compaction => {
      const { deferred_until_turn: _deferred, ...rest } = c;
      return rest;
    };
    let current = [...events];
    let previous = project(current).events;
    let before = counter.events(previous);
    return compactions.map((c) => {
      current = [...current, active(c)];
      const projected = project(current).events;
      const after = counter.events(projected);
      const cacheRewrite = cacheRewriteTokens(counter, previous, projected);
      const figures = {
        compaction: c,
        tokensBefore: before,
        tokensAfter: after,
        cacheRewrite,
        approximate: counter.approximate,
      };
      before = after;
      previous = projected;
      return figures;
    });
  };

  /** Spill files written for a preview, by compaction id: deleted when declined, kept (and recorded) when approved. */
  const spilled = new Map<string, string>();
  const dropSpills = () => {
    for (const file of spilled.values()) fs.rmSync(file, { force: true });
    spilled.clear();
  };

  const preview = async (events: readonly Event[], compactions: Compaction[]): Promise<string> => {
    const measured = await measure(events, compactions);
    const dir = privateTempDir();
    const rules: PreviewRule[] = measured.map((figures) => {
      const c = figures.compaction;
      const spillFile = path.join(dir, `compact-${deps.conversationId}-${c.id}.md`);
      fs.writeFileSync(spillFile, deps.preview.dropped(events, c), { mode: 0o600, flag: "w" });
      spilled.set(c.id, spillFile);
      return { ...figures, spillFile };
    });
    return deps.preview.render(events, rules);
  };

  /** The y/n/e/? conversation over a proposal, until it is approved or declined. */
  const askToCompact = async (
    args: Record<string, unknown>,
    ctx: ToolContext,
    prompter: Prompter,
  ): Promise<Approval> => {
    let current = args;
    let shown = false;
    for (;;) {
      if (!shown) {
        const result = plan(ctx.events, current);
        prompter.say(result.ok ? await preview(ctx.events, result.compactions) : `jp: ${result.error}`);
        shown = true;
      }
      const answer = await prompter.choose("Run compact? [y,n,r,e,?] ", COMPACT_KEYS, {
        help: COMPACT_HELP,
        onEnd: "n",
      });
      if (answer === "y") {
        const result = plan(ctx.events, current);
        if (result.ok) return { run: true, args: current };
        prompter.say(`jp: ${result.error}\nEdit the rules with e, or decline with n.`);
      } else if (answer === "n" || answer === "r") {
        const why = answer === "r" ? await prompter.ask("Reason (sent to the assistant): ") : "";
        dropSpills();
        return {
          run: false,
          reason: `the user declined the proposed compaction${why ? `: ${why}` : ""}; nothing was recorded`,
        };
      } else if (answer === "e") {
        const edited = await prompter.editText(`${JSON.stringify(current, null, 2)}\n`, ".json");
        if (edited === undefined) {
          prompter.say("edit cancelled; the rules are as they were");
          continue;
        }
        try {
          const parsed: unknown = JSON.parse(edited);
          if (!isJsonObject(parsed)) throw new Error("the rules must be a JSON object");
          current = parsed;
          const result = plan(ctx.events, current);
          prompter.say(result.ok ? await preview(ctx.events, result.compactions) : `jp: ${result.error}`);
        } catch (error) {
          prompter.say(
            `jp: the edited rules are not valid JSON (${messageOf(error)}); press e to edit again`,
          );
        }
      }
    }
  };

  const tool: Tool = {
    name: "compact",
    description: DESCRIPTION,
    parameters: COMPACT_PARAMETERS,
    source: "builtin",
    run: deps.run ?? "ask",
    enable: "explicit",
    validate(args, ctx) {
      const result = plan(ctx.events, args);
      return result.ok ? undefined : result.error;
    },
    async renderArguments(args, ctx) {
      const result = plan(ctx.events, args);
      return result.ok ? preview(ctx.events, result.compactions) : result.error;
    },
    async approve(args, ctx: ToolContext, prompter: Prompter): Promise<Approval> {
      const decision = decideApproval(tool.run, prompter.interactive);
      if (decision === "run") return { run: true, args };
      if (decision === "skip") return { run: false, reason: "the user configured compact not to run" };
      if (decision === "no_terminal") {
        prompter.say(
          "jp: the compact tool needs your approval, but there is no terminal to ask on; nothing was compacted.",
        );
        return {
          run: false,
          reason:
            "compaction needs the user's approval and no one was there to give it; nothing was recorded",
        };
      }
      try {
        return await askToCompact(args, ctx, prompter);
      } catch (error) {
        // Ctrl-C at the prompt: nothing is recorded, so nothing spilled is kept.
        dropSpills();
        throw error;
      }
    },
    async execute(args, ctx) {
      const result = plan(ctx.events, args);
      if (!result.ok) return { content: result.error, isError: true };
      const measured = await measure(ctx.events, result.compactions);
      const recorded = measured.map(({ compaction: c, tokensBefore, tokensAfter }) => {
        const spillFile = spilled.get(c.id);
        return {
          ...c,
          stats: { tokens_before: tokensBefore, tokens_after: tokensAfter },
          // Where the dropped text was spilled for the preview; the file is kept.
          ...(spillFile ? { metadata: { spill_file: spillFile } } : {}),
        };
      });
      // A later call with the same rules is another compaction: new ids.
      if (Array.isArray(args.rules)) idsByRules.delete(JSON.stringify(args.rules));
      // Spill files of earlier previews (before an edit) show nothing that was recorded.
      const kept = new Set(result.compactions.map((c) => c.id));
      for (const [id, file] of spilled) if (!kept.has(id)) fs.rmSync(file, { force: true });
      const lines = recorded.map(
        (c) =>
          `${turnsLabel(c.from_turn, c.to_turn)}${c.summary ? " replaced by your summary" : ""}${c.reasoning ? ", reasoning stripped" : ""}${c.tool_calls ? `, tool calls ${c.tool_calls.policy}` : ""}`,
      );
      return {
        content: `Recorded ${recorded.length} compaction${recorded.length === 1 ? "" : "s"}; they take effect when the next turn starts: ${lines.join("; ")}.`,
        isError: false,
        effects: recorded,
      };
    },
  };
  return tool;
}
