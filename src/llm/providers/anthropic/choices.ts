// Owns the Messages API fields that depend on what the model accepts:
// thinking (adaptive with an effort, a validated manual budget, or whatever
// the model takes as off), the tool choice (forced, or asked for on a model
// that refuses forcing) and which earlier thinking blocks may go back.
import type { OutputConfig, ThinkingConfigParam, ToolChoice } from "@anthropic-ai/sdk/resources/messages";
import { JpError } from "../../../errors.js";
import {
  budgetOfEffort,
  effortOfBudget,
  nearestEffort,
  type Effort,
  type ModelFacts,
} from "../../capabilities.js";
import { toolChoiceOf } from "../../tool-choice.js";
import type { AcceptedFields, ModelRequest, ReasoningRequest } from "../../types.js";
import { grouped } from "../../../numbers.js";

export interface ThinkingChoice {
  thinking?: ThinkingConfigParam;
  effort?: NonNullable<OutputConfig["effort"]>;
  /** What became of the settings, worth saying once. */
  notices: string[];
}

/** Anthropic's effort levels; jp's lower ones ask for the lowest. */
function anthropicEffort(effort: Effort, facts: ModelFacts | undefined): ThinkingChoice["effort"] {
  const accepted = facts?.efforts ?? ["low", "medium", "high", "xhigh", "max"];
  const level = nearestEffort(effort === "none" || effort === "minimal" ? "low" : effort, accepted);
  return level === "low" || level === "medium" || level === "high" || level === "xhigh" || level === "max"
    ? level
    : undefined;
}

/**
 * A manual budget, checked as the API checks it: at least 1,024 and below
 * max_tokens. Its summary is asked for only of a model known to think.
 */
function manualBudget(budget: number, request: ModelRequest): ThinkingConfigParam {
  const fmt = (n: number) => grouped(n);
  if (budget < 1024 || budget >= request.maxTokens)
    throw new JpError(
      "llm.thinking_budget",
      `the thinking budget ${fmt(budget)} does not fit ${request.model}: it must be at least 1,024 and below max_tokens (${fmt(request.maxTokens)})`,
      {
        hint: "raise assistant.request.max_tokens above the budget, or lower assistant.reasoning.budget_tokens (or set assistant.reasoning.effort instead)",
        exitCode: 2,
      },
    );
  return request.facts?.thinking
    ? { type: "enabled", budget_tokens: budget, display: "summarized" }
    : { type: "enabled", budget_tokens: budget };
}

/** Thinking off, as the model takes it: `disabled`, else `between_tools` (Sonnet 5.5), else nothing to send. */
function thinkingOff(facts: ModelFacts | undefined): ThinkingChoice {
  const modes = facts?.thinking;
  if (modes?.disabled) return { thinking: { type: "disabled" }, notices: [] };
  if (modes?.between_tools) return { thinking: { type: "between_tools" }, notices: [] };
  return { notices: [] };
}

/** Adaptive thinking with the effort asked for, or the one a budget stands for (said once). */
function adaptiveThinking(reasoning: ReasoningRequest, request: ModelRequest): ThinkingChoice {
  const notices: string[] = [];
  let wanted = reasoning.effort;
  if (wanted === undefined && reasoning.budgetTokens !== undefined) {
    wanted = effortOfBudget(reasoning.budgetTokens);
    notices.push(
      `${request.model} takes adaptive thinking only: the budget of ${grouped(reasoning.budgetTokens)} tokens is sent as effort "${wanted}" (set assistant.reasoning.effort to choose)`,
    );
  }
  // Summarized, so the text a model writes between tool calls reaches the screen.
  const choice: ThinkingChoice = { thinking: { type: "adaptive", display: "summarized" }, notices };
  const effort = wanted === undefined ? undefined : anthropicEffort(wanted, request.facts);
  if (effort) choice.effort = effort;
  return choice;
}

/**
 * The thinking of a request, from what its model accepts. A model whose
 * thinking jp knows nothing of (neither its table nor the Models API says)
 * gets the setting as configured: a manual budget when one is set, else
 * adaptive thinking with the effort. The user's explicit setting wins over
 * jp's ignorance; a refusal is asked again without it (`thinkingRefused`).
 */
export function anthropicThinking(request: ModelRequest): ThinkingChoice {
  const reasoning = request.reasoning;
  const on = reasoning && reasoning.effort !== "none" && (reasoning.effort || reasoning.budgetTokens);
  const facts = request.facts;
  if (!on) return facts ? thinkingOff(facts) : { notices: [] };
  const modes = facts?.thinking;
  if (!modes) {
    if (reasoning.budgetTokens)
      return { thinking: manualBudget(reasoning.budgetTokens, request), notices: [] };
    return adaptiveThinking(reasoning, request);
  }
  if (!Object.values(modes).some(Boolean))
    return { notices: [`${request.model} does not think: assistant.reasoning is not sent`] };
  // A budget given goes as a budget where the model takes one; an effort alone goes adaptive.
  if (modes.enabled && (reasoning.budgetTokens || !modes.adaptive)) {
    const budget = reasoning.budgetTokens || budgetOfEffort(reasoning.effort ?? "medium", request.maxTokens);
    return { thinking: manualBudget(budget, request), notices: [] };
  }
  if (modes.adaptive) return adaptiveThinking(reasoning, request);
  return {
    notices: [`${request.model} accepts no thinking jp can ask for: assistant.reasoning is not sent`],
  };
}

/** What the Messages API accepts besides its required fields. */
export const ANTHROPIC_ACCEPTS: AcceptedFields = {
  cacheKey: false,
  cacheControl: true,
  reasoning: "thinking",
  toolChoice: "named",
  thinksWhileForced: false,
  attachments: ["image", "pdf"],
  toolChanges: true,
};

/** The tool choice: a named tool where the model takes forcing (not Sonnet 5.5, nor always-thinking models). */
export function anthropicToolChoice(request: ModelRequest): ToolChoice {
  // https://platform.claude.com/docs/en/build-with-claude/preserved-thinking: "to turn tool use off
  // for a request, send `tool_choice: {"type": "none"}`. Don't remove `tools`."
  if (request.toolsOff) return { type: "none" };
  const { forced } = toolChoiceOf(request, ANTHROPIC_ACCEPTS);
  return forced ? { type: "tool", name: forced } : { type: "auto" };
}
