// Owns explaining an invalid configuration, in words, with zod: which key of
// which file is wrong, what it accepts, and "did you mean". Loaded only when
// the derived checker (schema.check.ts) has found a problem.
import type { z } from "zod";
import { forbiddenKeyPath } from "../events/keys.js";
import type { Layer } from "./layers.js";
import { keyPath, valueAt } from "./paths.js";
import { Config } from "./schema.js";
import { closest, keysAt, schemaAt, schemaType } from "./zod-walk.js";

function describeAccepted(schema: z.ZodType | undefined): string {
  const description = schema?.description;
  // Cast: zod types an enum's `options` only on ZodEnum; any schema may be one here.
  const values = (schema as unknown as { options?: unknown[] } | undefined)?.options;
  if (Array.isArray(values) && values.every((v) => typeof v === "string")) return values.join(", ");
  return description ?? (schema ? schemaType(schema) : "a known key");
}

type Issue = z.core.$ZodIssue;

/** The most specific issue: inside a union, the branch that got furthest. */
function deepestIssue(issues: readonly Issue[]): Issue {
  let best = issues[0]!;
  for (const issue of issues) {
    // Issues inside a union branch carry paths relative to the union.
    const candidates =
      issue.code === "invalid_union"
        ? issue.errors.map((branch) => {
            const inner = deepestIssue(branch);
            return { ...inner, path: [...issue.path, ...inner.path] };
          })
        : [issue];
    for (const c of candidates)
      if (c.path.length > best.path.length || best.code === "invalid_union") best = c;
  }
  return best;
}

/** Every problem of one layer, each one line naming the file (or layer), the key path and what is accepted. */
export function layerProblems(layer: Layer): string[] {
  const forbidden = forbiddenKeyPath(layer.value);
  const where = layer.file ?? layer.name;
  if (forbidden !== undefined) return [`${where}: key ${forbidden} is not allowed`];
  const result = Config.safeParse(layer.value);
  if (result.success) return [];
  return result.error.issues.map((top) => {
    const issue = deepestIssue([top]);
    if (issue.code === "unrecognized_keys") {
      const key = issue.keys[0]!;
      const known = keysAt(Config, keysOf(issue.path));
      const suggestion = closest(key, known);
      return `${where}: unknown key ${keyPath([...issue.path, key])}${
        suggestion
          ? `; did you mean ${keyPath([...issue.path, suggestion])}?`
          : known.length
            ? ` (keys accepted here: ${known.join(", ")})`
            : ""
      }`;
    }
    const value = valueAt(layer.value, keysOf(issue.path));
    const got = value === undefined ? "nothing" : JSON.stringify(value);
    if (issue.code === "custom") return `${where}: ${keyPath(issue.path)}: ${issue.message}`;
    const target = schemaAt(Config, keysOf(issue.path));
    return `${where}: ${keyPath(issue.path)} must be ${expectation(issue, target)}; got ${got}`;
  });
}

/** An issue's path as object keys and array indices (zod allows symbols, which config never has). */
function keysOf(path: readonly PropertyKey[]): (string | number)[] {
  return path.filter((k): k is string | number => typeof k !== "symbol");
}

/** What an issue says the value must be, in words: `a whole number above 0`, `one of 5m, 1h`. */
function expectation(issue: Issue, target: z.ZodType | undefined): string {
  const whole = target !== undefined && isWholeNumber(target);
  const number = whole ? "a whole number" : "a number";
  // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- zod's other issue codes are said in zod's own words by the default
  switch (issue.code) {
    case "too_small":
      return issue.origin === "number"
        ? `${number} ${issue.inclusive ? "of at least" : "above"} ${String(issue.minimum)}`
        : `at least ${String(issue.minimum)} long`;
    case "too_big":
      return issue.origin === "number"
        ? `${number} ${issue.inclusive ? "of at most" : "below"} ${String(issue.maximum)}`
        : `at most ${String(issue.maximum)} long`;
    case "invalid_value":
      return `one of ${issue.values.map((v) => String(v)).join(", ")}`;
    case "invalid_type":
      if (issue.expected === "int" || (issue.expected === "number" && whole)) return "a whole number";
      if (issue.expected === "number") return "a number";
      if (issue.expected === "boolean") return "true or false";
      if (issue.expected === "string") return "text (a quoted string)";
      return describeAccepted(target);
    default:
      return describeAccepted(target);
  }
}

function isWholeNumber(schema: z.ZodType): boolean {
  // Cast: zod keeps a number's checks in its internal definition, which it does not type.
  const checks = (schema as unknown as { def?: { checks?: { _zod?: { def?: { format?: string } } }[] } }).def
    ?.checks;
  return checks?.some((c) => c._zod?.def?.format === "safeint") ?? false;
}
