// Owns JP's tool protocol as a local command speaks it (jp_tool's Outcome):
// what the command prints on stdout may be `{"type":"success","content":…}`,
// `{"type":"error","message":…,"trace":[…],"transient":…}` or
// `{"type":"needs_input","question":{id,text,answer_type,default}}`, after
// which JP asks the person and runs the tool again with `tool.answers`. Any
// other output is a plain result, as jp's own tools write.
import { isJsonObject } from "../events/index.js";
import type { Prompter } from "./prompter.js";

export interface JpQuestion {
  id: string;
  text: string;
  /** Boolean (yes/no), one of `options`, or free text. */
  answer: { kind: "boolean" } | { kind: "select"; options: string[] } | { kind: "text" };
  default?: unknown;
}

export type JpOutcome =
  | { type: "success"; content: string }
  | { type: "error"; message: string; trace: string[]; transient: boolean }
  | { type: "needs_input"; question: JpQuestion };

/** The answer type as serde writes JP's AnswerType: "Boolean", "Text", or { "Select": { "options": […] } }. */
function answerOf(v: unknown): JpQuestion["answer"] | undefined {
  if (v === "Boolean") return { kind: "boolean" };
  if (v === "Text") return { kind: "text" };
  const select = isJsonObject(v) && isJsonObject(v.Select) ? v.Select.options : undefined;
  if (Array.isArray(select) && select.every((o) => typeof o === "string"))
    return { kind: "select", options: select };
  return undefined;
}

/** The Outcome a command printed, or undefined for output that is not one (a plain result). */
export function parseJpOutcome(stdout: string): JpOutcome | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value)) return undefined;
  if (value.type === "success" && typeof value.content === "string")
    return { type: "success", content: value.content };
  if (value.type === "error" && typeof value.message === "string")
    return {
      type: "error",
      message: value.message,
      trace: Array.isArray(value.trace) ? value.trace.filter((t): t is string => typeof t === "string") : [],
      transient: value.transient === true,
    };
  const q = value.type === "needs_input" && isJsonObject(value.question) ? value.question : undefined;
  const answer = q ? answerOf(q.answer_type) : undefined;
  if (q && answer && typeof q.id === "string" && typeof q.text === "string")
    return {
      type: "needs_input",
      question: {
        id: q.id,
        text: q.text,
        answer,
        ...(q.default !== undefined && q.default !== null ? { default: q.default } : {}),
      },
    };
  return undefined;
}

/** An error Outcome as the model reads it: the message, then its trace, and whether trying again may help. */
export function describeJpError(outcome: Extract<JpOutcome, { type: "error" }>): string {
  return [
    outcome.message,
    ...outcome.trace.map((t) => `  caused by: ${t}`),
    ...(outcome.transient ? ["(transient: trying again may succeed)"] : []),
  ].join("\n");
}

/**
 * The person's answer to a tool's question, as the tool reads it back (a
 * boolean, one of the options, or text); the default where no one can answer;
 * undefined when there is neither.
 */
export async function answerJpQuestion(
  question: JpQuestion,
  prompter: Prompter | undefined,
): Promise<unknown> {
  if (!prompter?.interactive) return question.default;
  const { answer } = question;
  if (answer.kind === "boolean") {
    // As JP asks it: the default capitalised in the choices, and Enter takes it.
    const fallback = typeof question.default === "boolean" ? (question.default ? "y" : "n") : undefined;
    const choices = fallback === "y" ? "Y/n" : fallback === "n" ? "y/N" : "y/n";
    const key = await prompter.choose(`${question.text} [${choices}] `, ["y", "n"], {
      help: `y: yes, n: no${fallback ? `, Enter: ${fallback === "y" ? "yes" : "no"}` : ""}`,
      ...(fallback ? { onEnter: fallback } : {}),
    });
    return key === "y";
  }
  const fallback =
    question.default === undefined
      ? ""
      : ` (Enter: ${JSON.stringify(question.default).replace(/^"|"$/g, "")})`;
  if (answer.kind === "select") {
    const listed = answer.options
      .map((o, i) => `  ${i + 1}. ${o}${o === question.default ? " (default)" : ""}`)
      .join("\n");
    for (;;) {
      const given = (
        await prompter.ask(`${question.text}\n${listed}\nanswer (1-${answer.options.length})${fallback}: `)
      ).trim();
      const chosen = answer.options[Number(given) - 1] ?? answer.options.find((o) => o === given);
      if (chosen !== undefined) return chosen;
      if (given === "" && question.default !== undefined) return question.default;
      prompter.say(`give a number from 1 to ${answer.options.length}, or one of the options`);
    }
  }
  const text = await prompter.ask(`${question.text}${fallback} `);
  return text === "" && question.default !== undefined ? question.default : text;
}
