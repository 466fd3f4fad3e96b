// Owns the built-in `compact` tool: the assistant proposes compaction rules,
// the user approves a self-sufficient preview, and approved rules are
// recorded (deferred to the next turn) with the tool's response.
import { messageOf } from "../errors.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheRewriteTokens } from "../tokens/cache-rewrite.js";
import { checkCompactArgs, COMPACT_PARAMETERS, isCompactArgs, RULE_FIELDS } from "./compact-args.check.js";
import {
  lossReport,
  planAssistantRules,
  project,
  streamShape,
  type AssistantRule,
  type Projection,
  type ToolHint,
} from "../compaction/index.js";
import { isJsonObject, turnsLabel, type Compaction, type Event, type Pin } from "../events/index.js";
import type { PreviewRule } from "../render/compact-preview.js";
import type { TokenCounter } from "../tokens/count.js";
import { requestTokens, type RequestFrame } from "../tokens/request.js";
import { decideApproval } from "./approval.js";
import { privateTempDir } from "../store/private-temp.js";
import type { Prompter } from "./prompter.js";
import type { Approval, RunMode, Tool, ToolContext, ToolOutcome } from "./types.js";
import { removeFile } from "../remove-file.js";

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
  render(events: readonly Event[], rules: readonly PreviewRule[], pins?: readonly number[]): string;
  dropped(events: readonly Event[], compaction: Compaction): string;
}

export interface CompactToolDeps {
  preview: CompactPreview;
  now: () => Date;
  newId: () => string;
  hints: Readonly<Record<string, ToolHint>>;
  counter: () => Promise<TokenCounter>;
  /** The request's frame (system prompt, tools, output caps), so the preview counts what show --context counts. */
  frame: () => Promise<RequestFrame>;
  /** The reasoning a model with preserved thinking stops reading when the view `before` becomes `after`. */
  lostReasoning: (
    before: Projection,
    after: Projection,
    counter: TokenCounter,
  ) => { turns: number[]; tokens: number };
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

type Planned = ReturnType<typeof planAssistantRules> | { ok: false; error: string };

/**
 * The compact tool's state across its calls: rules keep their ids from
 * preview to record (so the ids and spill files shown are the ones
 * recorded), and the files spilled for previews are kept or removed with
 * the answer.
 */
class CompactProposals {
  private readonly idsByRules = new Map<string, string[]>();
  /** Spill files written for a preview, by compaction id: deleted when declined, kept (and recorded) when approved. */
  private readonly spilled = new Map<string, string>();
  /** Summary texts the user changed with `e` before approving: recorded as edited by the user. */
  private readonly userEdited = new Set<string>();

  constructor(private readonly deps: CompactToolDeps) {}

  plan(events: readonly Event[], args: Record<string, unknown>): Planned {
    const parsed = parseArgs(args);
    if (!parsed.ok) return parsed;
    return planAssistantRules(events, parsed.rules, {
      ids: this.idsFor(parsed.rules),
      now: this.deps.now().getTime(),
      toolHints: this.deps.hints,
    });
  }

  private idsFor(rules: readonly unknown[]): string[] {
    const key = JSON.stringify(rules);
    let ids = this.idsByRules.get(key);
    if (!ids) {
      ids = rules.map(() => this.deps.newId());
      this.idsByRules.set(key, ids);
    }
    return ids;
  }

  /** Each rule's compaction with its token figures as if it were active (they are deferred when recorded). */
  private async measure(events: readonly Event[], compactions: Compaction[]) {
    const counter = await this.deps.counter();
    const active = (c: Compaction): Compaction => {
      const { deferred_until_turn: _deferred, ...rest } = c;
      return rest;
    };
    const pinned = [...streamShape(events).pinned].sort((a, b) => a - b);
    let current = [...events];
    let previousView = project(current);
    const frame = await this.deps.frame();
    let before = requestTokens(frame, previousView, counter);
    return compactions.map((c) => {
      current = [...current, active(c)];
      const view = project(current);
      const [previous, projected] = [previousView.events, view.events];
      const after = requestTokens(frame, view, counter);
      const loss = lossReport(previous, projected);
      const figures = {
        compaction: c,
        tokensBefore: before,
        tokensAfter: after,
        cacheRewrite: cacheRewriteTokens(counter, previous, projected),
        reasoningLost: this.deps.lostReasoning(previousView, view, counter),
        approximate: counter.approximate,
        atRisk: loss.atRisk,
        factsLeaving: loss.leaving,
        pinned: pinned.filter((t) => t >= c.from_turn && t <= c.to_turn),
      };
      before = after;
      previousView = view;
      return figures;
    });
  }

  async preview(raw: readonly Event[], plan: { compactions: Compaction[]; pins: Pin[] }): Promise<string> {
    // The pins the rules set count from the start: the rules go around them.
    const events = [...raw, ...plan.pins];
    const measured = await this.measure(events, plan.compactions);
    const dir = privateTempDir();
    const rules: PreviewRule[] = measured.map((figures) => {
      const c = figures.compaction;
      const spillFile = path.join(dir, `compact-${this.deps.conversationId}-${c.id}.md`);
      fs.writeFileSync(spillFile, this.deps.preview.dropped(events, c), { mode: 0o600, flag: "w" });
      this.spilled.set(c.id, spillFile);
      return { ...figures, spillFile };
    });
    return this.deps.preview.render(
      events,
      rules,
      plan.pins.map((p) => p.turn),
    );
  }

  /** The preview of a plan, or its error. */
  private async shown(events: readonly Event[], args: Record<string, unknown>): Promise<string> {
    const result = this.plan(events, args);
    return result.ok ? this.preview(events, result) : `jp: ${result.error}`;
  }

  dropSpills(): void {
    for (const file of this.spilled.values()) removeFile(file);
    this.spilled.clear();
  }

  /** The y/n/r/e/? conversation over a proposal, until it is approved or declined. */
  async ask(args: Record<string, unknown>, ctx: ToolContext, prompter: Prompter): Promise<Approval> {
    let current = args;
    prompter.say(await this.shown(ctx.events, current));
    for (;;) {
      const answer = await prompter.choose("Run compact? [y,n,r,e,?] ", COMPACT_KEYS, {
        help: COMPACT_HELP,
        onEnd: "n",
      });
      if (answer === "y") {
        const result = this.plan(ctx.events, current);
        if (result.ok) {
          for (const text of editedSummaries(args, current)) this.userEdited.add(text);
          return { run: true, args: current };
        }
        prompter.say(`jp: ${result.error}\nEdit the rules with e, or decline with n.`);
      } else if (answer === "n" || answer === "r") {
        const why = answer === "r" ? await prompter.ask("Reason (sent to the assistant): ") : "";
        this.dropSpills();
        return {
          run: false,
          reason: `the user declined the proposed compaction${why ? `: ${why}` : ""}; nothing was recorded`,
        };
      } else if (answer === "e") {
        current = await this.edit(current, ctx, prompter);
      }
    }
  }

  /** The rules as the person edited them (shown again), or as they were when the edit failed or was cancelled. */
  private async edit(
    current: Record<string, unknown>,
    ctx: ToolContext,
    prompter: Prompter,
  ): Promise<Record<string, unknown>> {
    const edited = await prompter.editText(`${JSON.stringify(current, null, 2)}\n`, ".json");
    if (edited === undefined) {
      prompter.say("edit cancelled; the rules are as they were");
      return current;
    }
    try {
      const parsed: unknown = JSON.parse(edited);
      if (!isJsonObject(parsed)) throw new Error("the rules must be a JSON object");
      prompter.say(await this.shown(ctx.events, parsed));
      return parsed;
    } catch (error) {
      prompter.say(`jp: the edited rules are not valid JSON (${messageOf(error)}); press e to edit again`);
      return current;
    }
  }

  /** The approved rules as compactions, with their figures and spill files; earlier previews' files removed. */
  async record(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome> {
    const result = this.plan(ctx.events, args);
    if (!result.ok) return { content: result.error, isError: true };
    const measured = await this.measure([...ctx.events, ...result.pins], result.compactions);
    const recorded = measured.map(({ compaction: c, tokensBefore, tokensAfter }) => {
      const spillFile = this.spilled.get(c.id);
      const edited = c.summary && this.userEdited.has(c.summary.text);
      return {
        ...c,
        ...(c.summary && edited ? { summary: { ...c.summary, edited_by: "user" as const } } : {}),
        stats: { tokens_before: tokensBefore, tokens_after: tokensAfter },
        // Where the dropped text was spilled for the preview; the file is kept.
        ...(spillFile ? { metadata: { spill_file: spillFile } } : {}),
      };
    });
    // A later call with the same rules is another compaction: new ids.
    if (Array.isArray(args.rules)) this.idsByRules.delete(JSON.stringify(args.rules));
    // Spill files of earlier previews (before an edit) show nothing that was recorded.
    const kept = new Set(result.compactions.map((c) => c.id));
    for (const [id, file] of this.spilled) if (!kept.has(id)) removeFile(file);
    const pinned = result.pins.map((p) => `turn ${p.turn + 1}`);
    const pins = pinned.length
      ? `Pinned ${pinned.join(", ")}: no compaction changes ${pinned.length > 1 ? "them" : "it"}. `
      : "";
    return {
      content: recorded.length
        ? `${pins}Recorded ${recorded.length} compaction${recorded.length === 1 ? "" : "s"}; they take effect when the next turn starts: ${recorded.map(recordedLine).join("; ")}.`
        : pins.trim(),
      isError: false,
      // The pins first: they hold from the moment they are recorded.
      effects: [...result.pins, ...recorded],
    };
  }
}

/** The summaries of `approved` that differ from the rule at the same place in `proposed`. */
function editedSummaries(proposed: Record<string, unknown>, approved: Record<string, unknown>): string[] {
  const summaries = (args: Record<string, unknown>) =>
    Array.isArray(args.rules)
      ? args.rules.map((r) => (isJsonObject(r) && typeof r.summary === "string" ? r.summary : undefined))
      : [];
  const before = summaries(proposed);
  return summaries(approved).flatMap((text, i) => (text !== undefined && text !== before[i] ? [text] : []));
}

function recordedLine(c: Compaction): string {
  const policies = [
    c.summary ? " replaced by your summary" : "",
    c.reasoning ? ", reasoning stripped" : "",
    c.tool_calls ? `, tool calls ${c.tool_calls.policy}` : "",
  ];
  return `${turnsLabel(c.from_turn, c.to_turn)}${policies.join("")}`;
}

/** The approval of a compact call: as configured, or the y/n/r/e/? conversation at a terminal. */
async function approveCompaction(
  run: RunMode,
  proposals: CompactProposals,
  call: { args: Record<string, unknown>; ctx: ToolContext; prompter: Prompter },
): Promise<Approval> {
  const { args, ctx, prompter } = call;
  const decision = decideApproval(run, prompter.interactive);
  if (decision === "run") return { run: true, args };
  if (decision === "skip") return { run: false, reason: "the user configured compact not to run" };
  if (decision === "no_terminal") {
    prompter.say(
      "jp: the compact tool needs your approval, but there is no terminal to ask on; nothing was compacted.",
    );
    return {
      run: false,
      reason: "compaction needs the user's approval and no one was there to give it; nothing was recorded",
    };
  }
  try {
    return await proposals.ask(args, ctx, prompter);
  } catch (error) {
    // Ctrl-C at the prompt: nothing is recorded, so nothing spilled is kept.
    proposals.dropSpills();
    throw error;
  }
}

export function createCompactTool(deps: CompactToolDeps): Tool {
  const proposals = new CompactProposals(deps);
  const tool: Tool = {
    name: "compact",
    description: DESCRIPTION,
    parameters: COMPACT_PARAMETERS,
    source: "builtin",
    run: deps.run ?? "ask",
    // Offered only when named: `jp q -u compact` or `-t compact`.
    enable: { state: false, allowToggle: "if_named" },
    validate(args, ctx) {
      const result = proposals.plan(ctx.events, args);
      return result.ok ? undefined : result.error;
    },
    async renderArguments(args, ctx) {
      const result = proposals.plan(ctx.events, args);
      return result.ok ? proposals.preview(ctx.events, result) : result.error;
    },
    approve: (args, ctx, prompter) => approveCompaction(tool.run, proposals, { args, ctx, prompter }),
    execute: (args, ctx) => proposals.record(args, ctx),
  };
  return tool;
}
