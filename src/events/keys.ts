// Owns the keys no data may carry. `__proto__`, `constructor` and `prototype`
// as object keys are how parsed input reaches Object.prototype once it is
// merged or spread; jp rejects them wherever data enters (log lines, TOML).

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

const QUOTED = [...FORBIDDEN_KEYS].map((k) => `"${k}"`);

/** Whether JSON text could hold a forbidden key: a cheap test before walking the parsed value. */
export function mayHoldForbiddenKey(json: string): boolean {
  return QUOTED.some((q) => json.includes(q));
}

/**
 * The dotted path of the first forbidden own key in a JSON-like value, or
 * undefined. Iterative, so a deeply nested value cannot overflow the stack.
 */
export function forbiddenKeyPath(value: unknown): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: "" }];
  while (stack.length > 0) {
    const { value: node, path } = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (Array.isArray(node)) {
      node.forEach((item, i) => stack.push({ value: item, path: `${path}[${i}]` }));
      continue;
    }
    for (const key of Object.keys(node)) {
      const at = path ? `${path}.${key}` : key;
      if (FORBIDDEN_KEYS.has(key)) return at;
      stack.push({ value: Reflect.get(node, key), path: at });
    }
  }
  return undefined;
}

/** Deeper values are refused: serialising or cloning them overflows the stack. */
export const MAX_DEPTH = 1000;

/**
 * Whether a parsed value nests deeper than `MAX_DEPTH`. Iterative, and its
 * cost follows the number of values, not the length of their text.
 */
export function nestsTooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== "object" || node === null) continue;
    if (depth >= MAX_DEPTH) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
