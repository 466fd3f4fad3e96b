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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The value at `path` inside the arguments (an argument's name, then keys and indexes); undefined where there is none. */
function valueAt(args: Record<string, unknown>, path: readonly PropertyKey[]): unknown {
  let at: unknown = args;
  for (const key of path) {
    if (Array.isArray(at) && typeof key === "number") {
      const list: unknown[] = at;
      at = list[key];
    } else if (isRecord(at) && typeof key === "string") at = at[key];
    else return undefined;
  }
  return at;
}

/**
 * The schema without the `enum`s of its properties that hold arrays or
 * objects (valid JSON Schema that zod's conversion refuses every value of),
 * and those enums, checked apart by their JSON.
 */
function withoutStructuredEnums(schema: Record<string, unknown>): {
  zodSchema: Record<string, unknown>;
  enums: [string, unknown[]][];
} {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const enums: [string, unknown[]][] = [];
  const kept: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const structured = (v: unknown) => typeof v === "object" && v !== null;
    if (isRecord(property) && Array.isArray(property.enum) && property.enum.some(structured)) {
      const values: unknown[] = property.enum;
      const { enum: _checkedApart, ...rest } = property;
      enums.push([name, values]);
      kept[name] = rest;
    } else kept[name] = property;
  }
  return enums.length ? { zodSchema: { ...schema, properties: kept }, enums } : { zodSchema: schema, enums };
}

/**
 * A checker of arguments against the tool's declared JSON Schema, compiled
 * once by zod from the schema itself; the first problem comes back in words.
 */
export function argumentChecker(
  schema: Record<string, unknown>,
): (args: Record<string, unknown>) => string | undefined {
  const { zodSchema, enums } = withoutStructuredEnums(schema);
  const validator = z.fromJSONSchema(zodSchema);
  const names = Object.keys(isRecord(schema.properties) ? schema.properties : {});
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === "string") : [];
  return (args) => {
    // Said before anything else, whatever the missing argument's schema (zod says "Invalid input" for a union's).
    const missing = required.find((name) => args[name] === undefined);
    if (missing !== undefined) return `missing required argument '${missing}'`;
    for (const [name, values] of enums) {
      const value = args[name];
      if (value !== undefined && !values.some((v) => JSON.stringify(v) === JSON.stringify(value)))
        return `argument '${name}' must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
    }
    const result = validator.safeParse(args);
    if (result.success) return undefined;
    const issue = result.error.issues[0]!;
    // An argument, or a value inside one: `patterns[0].old`.
    const name = issue.path
      .map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? String(key) : `.${String(key)}`))
      .join("");
    const value = valueAt(args, issue.path);
    // eslint-disable-next-line @typescript-eslint/switch-exhaustiveness-check -- zod's other issue codes are said in zod's own words by the default
    switch (issue.code) {
      case "unrecognized_keys":
        return issue.path.length
          ? `unknown key '${issue.keys[0] ?? ""}' in argument '${name}'`
          : `unknown argument '${issue.keys[0] ?? ""}'; expected ${names.join(", ") || "no arguments"}`;
      case "invalid_type":
        if (value === undefined) return `missing required argument '${name}'`;
        return `argument '${name}' must be ${issue.expected === "int" ? "integer" : issue.expected}, got ${jsonType(value)}`;
      case "invalid_value":
        return `argument '${name}' must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
      default:
        return `argument '${name}': ${issue.message}`;
    }
  };
}
