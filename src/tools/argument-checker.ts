// Owns checking a local tool's arguments against the JSON Schema its config
// declares, with zod's JSON Schema support; loaded only when a config
// defines a local tool.
import * as z from "zod";

/** The JSON type of a value, as messages name it. */
function jsonType(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

/**
 * A checker of arguments against the tool's declared JSON Schema, compiled
 * once by zod from the schema itself; the first problem comes back in words.
 */
export function argumentChecker(
  schema: Record<string, unknown>,
): (args: Record<string, unknown>) => string | undefined {
  const validator = z.fromJSONSchema(schema);
  const names = Object.keys(schema.properties ?? {});
  return (args) => {
    const result = validator.safeParse(args);
    if (result.success) return undefined;
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? "");
    // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- zod's other issue codes are said in zod's own words by the default
    switch (issue.code) {
      case "unrecognized_keys":
        return `unknown argument '${issue.keys[0] ?? ""}'; expected ${names.join(", ") || "no arguments"}`;
      case "invalid_type":
        if (args[name] === undefined) return `missing required argument '${name}'`;
        return `argument '${name}' must be ${issue.expected === "int" ? "integer" : issue.expected}, got ${jsonType(args[name])}`;
      case "invalid_value":
        return `argument '${name}' must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      default:
        return `argument '${name}': ${issue.message}`;
    }
  };
}
