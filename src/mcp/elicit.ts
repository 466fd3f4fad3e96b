// Owns answering an MCP server's elicitation (`elicitation/create`, form
// mode) at the terminal: the server's message, then each field it asks for,
// with its default; the person may also decline or cancel. The form and
// actions are the protocol's:
// https://modelcontextprotocol.io/specification/2025-06-18/client/elicitation
import type { Prompter } from "../tools/prompter.js";

/** A field of the form: the primitive schemas the protocol allows (a flat object). */
export interface ElicitField {
  type: string;
  title?: string;
  description?: string;
  enum?: string[];
  oneOf?: { const: string; title: string }[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
}

export interface ElicitForm {
  message: string;
  requestedSchema: { properties: Record<string, ElicitField>; required?: string[] };
}

export type ElicitAnswer =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" | "cancel" };

/** The choices of a field that takes one of a list: its values and how each is shown. */
function choicesOf(field: ElicitField): { value: string; label: string }[] | undefined {
  if (field.oneOf) return field.oneOf.map((o) => ({ value: o.const, label: o.title }));
  return field.enum?.map((value) => ({ value, label: value }));
}

/** One field asked until it has an answer the schema takes; undefined when an optional field is left empty. */
async function askField(
  name: string,
  field: ElicitField,
  required: boolean,
  prompter: Prompter,
): Promise<string | number | boolean | undefined> {
  const label = `${field.title ?? name}${field.description ? ` (${field.description})` : ""}`;
  const fallback = field.default;
  if (field.type === "boolean") {
    const onEnter = typeof fallback === "boolean" ? (fallback ? "y" : "n") : undefined;
    const choices = onEnter === "y" ? "Y/n" : onEnter === "n" ? "y/N" : "y/n";
    const key = await prompter.choose(`${label} [${choices}] `, ["y", "n"], {
      help: "y: yes, n: no",
      ...(onEnter ? { onEnter } : {}),
    });
    return key === "y";
  }
  const choices = choicesOf(field);
  const shownDefault =
    fallback === undefined ? "" : ` (Enter: ${JSON.stringify(fallback).replace(/^"|"$/g, "")})`;
  const question = choices
    ? `${label}\n${choices.map((c, i) => `  ${i + 1}. ${c.label}`).join("\n")}\nanswer${shownDefault}: `
    : `${label}${shownDefault}: `;
  for (;;) {
    const given = (await prompter.ask(question)).trim();
    if (given === "") {
      if (typeof fallback === "string" || typeof fallback === "number") return fallback;
      if (!required) return undefined;
      prompter.say(`${field.title ?? name} is required`);
      continue;
    }
    if (choices) {
      const chosen =
        choices[Number(given) - 1] ?? choices.find((c) => c.value === given || c.label === given);
      if (chosen) return chosen.value;
      prompter.say(`give a number from 1 to ${choices.length}`);
      continue;
    }
    if (field.type === "number" || field.type === "integer") {
      const n = Number(given);
      const whole = field.type === "integer" ? Number.isInteger(n) : Number.isFinite(n);
      const inRange = (field.minimum ?? -Infinity) <= n && n <= (field.maximum ?? Infinity);
      if (whole && inRange) return n;
      prompter.say(`give ${field.type === "integer" ? "a whole number" : "a number"}${rangeOf(field)}`);
      continue;
    }
    return given;
  }
}

function rangeOf(field: ElicitField): string {
  if (field.minimum !== undefined && field.maximum !== undefined)
    return ` from ${field.minimum} to ${field.maximum}`;
  if (field.minimum !== undefined) return ` of at least ${field.minimum}`;
  if (field.maximum !== undefined) return ` of at most ${field.maximum}`;
  return "";
}

/**
 * The person's answer to a server's form: `a` fills it in field by field, `d`
 * declines, `c` cancels. With no one at the terminal it is cancelled: nobody
 * chose either way.
 */
export async function answerElicitation(
  server: string,
  form: ElicitForm,
  prompter: Prompter | undefined,
): Promise<ElicitAnswer> {
  if (!prompter?.interactive) return { action: "cancel" };
  const fields = Object.entries(form.requestedSchema.properties);
  const required = new Set(form.requestedSchema.required ?? []);
  const key = await prompter.choose(
    `MCP server ${server} asks: ${form.message}\n${fields.length ? "answer" : "accept"} (a), decline (d) or cancel (c)? `,
    ["a", "d", "c"],
    { help: "a: answer the server, d: say no, c: dismiss without choosing" },
  );
  if (key === "d") return { action: "decline" };
  if (key === "c") return { action: "cancel" };
  const content: Record<string, string | number | boolean> = {};
  for (const [name, field] of fields) {
    const value = await askField(name, field, required.has(name), prompter);
    if (value !== undefined) content[name] = value;
  }
  return { action: "accept", content };
}
