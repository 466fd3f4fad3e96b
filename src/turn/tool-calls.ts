// Owns answering a response's tool calls: each is checked and approved
// first, so the response is committed with the arguments that will run (an
// edit at the prompt included), then the approved calls run in order and
// their results come back as one group.
import {
  EDITED_ARGUMENTS_KEY,
  type Event,
  isJsonObject,
  TOOL_IMAGES_KEY,
  type ToolCallRequest,
  turnCount,
} from "../events/index.js";
import { messageOf } from "../errors.js";
import { approveCall, decideApproval } from "../tools/approval.js";
import { holdingWhileAsked, PromptInterruptedError } from "../tools/prompter.js";
import type { Approval, Tool, ToolContext, ToolImage } from "../tools/types.js";
import type { ToolRunning } from "./output.js";
import type { TurnOptions } from "./types.js";

export const INTERRUPTED = "interrupted";

/** A call with what will happen to it: run with these arguments, or answered without running. */
export type Verdict =
  { call: ToolCallRequest; tool: Tool; run: true } | { call: ToolCallRequest; run: false; content: string };

export interface Approved {
  verdicts: Verdict[];
  /** Ctrl-C at a prompt: the calls from there on are answered as interrupted and the turn ends. */
  interrupted: boolean;
}

/** Y and N at an approval prompt hold for the rest of the turn. */
export type Remembered = Map<string, "run" | "decline">;

export function syntheticResponse(call: ToolCallRequest, content: string, at: string): Event {
  return { type: "tool_call_response", timestamp: at, id: call.id, content, is_error: true };
}

function toolContext(
  call: ToolCallRequest,
  events: readonly Event[],
  options: TurnOptions,
  remembered: Remembered,
): ToolContext {
  return {
    events,
    cwd: options.cwd,
    signal: options.signal,
    turn: turnCount(events) - 1,
    remembered,
    prompter: options.prompter,
    progress: (line) => {
      options.output.toolProgress?.(call, line);
    },
  };
}

/**
 * While a running tool asks the person something (a JP tool's question, an
 * MCP server's elicitation), its live area is held and its progress lines
 * wait, so the question stands alone on the screen until it is answered; the
 * last progress line held back is shown after.
 */
function askingAlone(ctx: ToolContext, running: ToolRunning | undefined): void {
  const { prompter, progress } = ctx;
  if (!prompter) return;
  let asking = 0;
  let heldLine: string | undefined;
  if (progress)
    ctx.progress = (line) => {
      if (asking > 0) heldLine = line;
      else progress(line);
    };
  ctx.prompter = holdingWhileAsked(prompter, () => {
    asking++;
    const release = running?.hold();
    return () => {
      release?.();
      asking--;
      if (asking > 0 || heldLine === undefined) return;
      progress?.(heldLine);
      heldLine = undefined;
    };
  });
}

/** The call as it will run: the user's edit becomes its arguments, and the model's proposal is kept beside them. */
function asRun(call: ToolCallRequest, args: Record<string, unknown>): ToolCallRequest {
  if (JSON.stringify(args) === JSON.stringify(call.arguments)) return call;
  return {
    ...call,
    arguments: args,
    metadata: {
      ...(isJsonObject(call.metadata) ? call.metadata : {}),
      [EDITED_ARGUMENTS_KEY]: { proposed: call.arguments, edited_by: "user" },
    },
  };
}

/** The tool as its source confirms it now (see `Tool.confirm`); a source that cannot answer runs nothing. */
async function confirmTool(
  tool: Tool,
  options: TurnOptions,
): Promise<{ tool: Tool } | { missing: string } | { interrupted: true }> {
  // A call that will not run (skipped, or no one to approve it) needs no word from the source.
  const decision = decideApproval(tool.run, options.prompter.interactive);
  if (!tool.confirm || decision === "skip" || decision === "no_terminal") return { tool };
  const { signal } = options;
  try {
    const answer = await tool.confirm(signal);
    return "missing" in answer ? answer : { tool: { ...tool, about: answer.about } };
  } catch (error) {
    if (signal.aborted) return { interrupted: true };
    return { missing: `${tool.name} failed: ${messageOf(error)}` };
  }
}

/**
 * Check and approve each call, showing it first. `pending` is the response
 * not yet committed, which the tools see as part of the conversation.
 */
export async function approveCalls(
  calls: readonly ToolCallRequest[],
  pending: readonly Event[],
  options: TurnOptions,
  remembered: Remembered,
): Promise<Approved> {
  const verdicts: Verdict[] = [];
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const events = [...options.log.events(), ...pending];
  // Ctrl-C at a prompt stops the turn: nothing approved runs, and the calls declined keep their answer.
  const rest = (from: number): Approved => ({
    verdicts: calls.map((call, j) => {
      const verdict = verdicts[j];
      return j < from && verdict && !verdict.run
        ? verdict
        : { call, run: false as const, content: INTERRUPTED };
    }),
    interrupted: true,
  });
  for (const [i, call] of calls.entries()) {
    if (options.signal.aborted) return rest(i);
    const offered = byName.get(call.name);
    options.output.toolCall(call, offered?.renderArguments !== undefined);
    if (!offered) {
      const available = [...byName.keys()].join(", ") || "none";
      verdicts.push({
        call,
        run: false,
        content: `there is no tool named '${call.name}'; available: ${available}`,
      });
      continue;
    }
    const confirmed = await confirmTool(offered, options);
    if ("interrupted" in confirmed) return rest(i);
    if ("missing" in confirmed) {
      verdicts.push({ call, run: false, content: confirmed.missing });
      continue;
    }
    const tool = confirmed.tool;
    const ctx = toolContext(call, events, options, remembered);
    const invalid = tool.validate?.(call.arguments, ctx);
    if (invalid) {
      verdicts.push({
        call,
        run: false,
        content: `invalid arguments for ${tool.name}: ${invalid}. Fix the call and try again.`,
      });
      continue;
    }
    let approval: Approval;
    try {
      approval = tool.approve
        ? await tool.approve(call.arguments, ctx, options.prompter)
        : await approveCall(tool, call.arguments, ctx, options.prompter);
    } catch (error) {
      if (error instanceof PromptInterruptedError) return rest(i);
      throw error;
    }
    verdicts.push(
      approval.run
        ? { call: asRun(call, approval.args), tool, run: true }
        : { call, run: false, content: approval.reason },
    );
  }
  return { verdicts, interrupted: false };
}

/** The response as committed: each call with the arguments it will run with. */
export function withApprovedArguments(responses: readonly Event[], approved: Approved): Event[] {
  const edited = new Map(
    approved.verdicts.filter((v) => v.call.metadata?.[EDITED_ARGUMENTS_KEY]).map((v) => [v.call.id, v.call]),
  );
  return responses.map((e) => (e.type === "tool_call_request" && edited.get(e.id)) || e);
}

/** Run the approved calls in order; results (and host effects) come back as one group. */
export async function runApproved(
  approved: Approved,
  options: TurnOptions,
  remembered: Remembered,
): Promise<{ group: Event[]; interrupted: boolean }> {
  const group: Event[] = [];
  const effects: Event[] = [];
  // With several calls shown one after another at approval, each result goes under its own call line again.
  const many = approved.verdicts.length > 1;
  for (const [i, verdict] of approved.verdicts.entries()) {
    const { call } = verdict;
    const at = () => options.now().toISOString();
    if (options.signal.aborted) {
      for (const later of approved.verdicts.slice(i))
        group.push(syntheticResponse(later.call, INTERRUPTED, at()));
      return { group: [...group, ...effects], interrupted: true };
    }
    const respond = (content: string, isError: boolean, images?: readonly ToolImage[]) => {
      group.push({
        type: "tool_call_response",
        timestamp: at(),
        id: call.id,
        content,
        is_error: isError,
        ...(images?.length ? { metadata: { [TOOL_IMAGES_KEY]: images.map((im) => ({ ...im })) } } : {}),
      });
      options.output.toolResult(call, content, isError);
    };
    if (many) options.output.toolCall(call, verdict.run && verdict.tool.renderArguments !== undefined);
    if (!verdict.run) {
      respond(verdict.content, true);
      continue;
    }
    const { tool } = verdict;
    const ctx = toolContext(call, [...options.log.events(), ...group, ...effects], options, remembered);
    // MCP tools report progress their own way; a local command's output is shown as it comes.
    const running = tool.source === "local" ? options.output.toolRunning?.(call, ctx.signal) : undefined;
    if (running)
      ctx.output = (chunk) => {
        running.output(chunk);
      };
    askingAlone(ctx, running);
    const outcome = await tool
      .execute(call.arguments, ctx)
      .catch((error: unknown) => ({
        content: `${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`,
        isError: true,
        effects: undefined,
      }))
      .finally(() => running?.end());
    respond(outcome.content, outcome.isError, "images" in outcome ? outcome.images : undefined);
    if (outcome.effects) effects.push(...outcome.effects);
  }
  return { group: [...group, ...effects], interrupted: approved.interrupted || options.signal.aborted };
}
