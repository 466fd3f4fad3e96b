// Owns what the checkers derived from the zod schemas (*.check.ts, written by
// scripts/schema-checks.mjs) share: the issue they report, zod's wording of
// it, and zod's rules for combining the issues of a value's parts.
export interface SchemaIssue {
  /** Keys and indices from the checked value to the offending one. */
  path: (string | number)[];
  /** zod's issue code. */
  code: string;
  /** zod's message. */
  message: string;
  /** For unrecognized_keys: the keys. */
  keys?: string[];
  /** Whether zod stops checking this value here (a wrong type does; a bound or unknown keys do not). */
  abort?: boolean;
}

export type Issues = SchemaIssue[] | undefined;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** zod's test for a record: an object whose prototype is Object's (or none). */
export function isPlainRecord(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const ctor: unknown = v.constructor;
  if (ctor === undefined) return true;
  if (typeof ctor !== "function") return false;
  const proto: unknown = ctor.prototype;
  return isObject(proto) && Object.hasOwn(proto, "isPrototypeOf");
}

export function received(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isNaN(v) ? "NaN" : Number.isFinite(v) ? "number" : "Infinity";
  return typeof v;
}

export function invalidType(expected: string, v: unknown): SchemaIssue {
  return {
    path: [],
    code: "invalid_type",
    message: `Invalid input: expected ${expected}, received ${received(v)}`,
    abort: true,
  };
}

export function custom(message: string): SchemaIssue {
  return { path: [], code: "custom", message };
}

export function unrecognized(keys: string[]): SchemaIssue {
  const list = keys.map((k) => `"${k}"`).join(", ");
  return {
    path: [],
    code: "unrecognized_keys",
    keys,
    message: `Unrecognized key${keys.length > 1 ? "s" : ""}: ${list}`,
  };
}

/** A checker of an optional value: undefined passes. */
export function optional(check: (v: unknown) => Issues, v: unknown): Issues {
  return v === undefined ? undefined : check(v);
}

/** What a root checker reports: zod's first issue, or undefined for a valid value. */
export function firstIssue(check: (v: unknown) => Issues): (value: unknown) => SchemaIssue | undefined {
  return (value) => check(value)?.[0];
}

/** An integer outside the range doubles hold exactly: zod's safeint bounds (they do not abort). */
export function safeIntRange(out: Issues, v: number): Issues {
  if (v > Number.MAX_SAFE_INTEGER)
    return add(out, {
      path: [],
      code: "too_big",
      message: `Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`,
    });
  if (v < Number.MIN_SAFE_INTEGER)
    return add(out, {
      path: [],
      code: "too_small",
      message: `Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`,
    });
  return out;
}

export function add(out: Issues, issue: SchemaIssue): SchemaIssue[] {
  if (!out) return [issue];
  out.push(issue);
  return out;
}

/** The issues of a part of the value, under its key. */
export function merge(out: Issues, key: string | number, issues: Issues): Issues {
  if (!issues) return out;
  for (const issue of issues) issue.path.unshift(key);
  return out ? out.concat(issues) : issues;
}

export function aborted(out: Issues): boolean {
  return out !== undefined && out.some((issue) => issue.abort === true);
}

/** A union: the first branch without issues wins; else the one branch that did not abort; else invalid_union. */
export function pickBranch([first, ...rest]: [Issues, ...(() => Issues)[]]): Issues {
  if (!first) return undefined;
  const failed = [first];
  for (const branch of rest) {
    const issues = branch();
    if (!issues) return undefined;
    failed.push(issues);
  }
  const live = failed.filter((issues) => !aborted(issues));
  if (live.length === 1) return live[0];
  return [{ path: [], code: "invalid_union", message: "Invalid input", abort: true }];
}
