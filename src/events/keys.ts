// Owns the keys no data may carry. `__proto__`, `constructor` and `prototype`
// as object keys are how parsed input reaches Object.prototype once it is
// merged or spread; jp rejects them wherever data enters (log lines, TOML).

export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

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

export type ValueProblem = { kind: "too_deep" } | { kind: "forbidden_key"; path: string };

/**
 * What a parsed value may not hold: nesting deeper than `MAX_DEPTH`, or a
 * forbidden key (with its path). One iterative walk whose cost follows the
 * number of values, not the length of their text: a log line that is one
 * long tool result costs a few steps, not a scan of every character.
 */
export function valueProblem(value: unknown): ValueProblem | undefined {
  // Two plain stacks and indexed loops: this runs once per log line, mostly before the
  // engine has optimised it, where destructuring and iterators cost several times more.
  const nodes: object[] = [];
  const depths: number[] = [];
  if (typeof value === "object" && value !== null) {
    nodes.push(value);
    depths.push(0);
  }
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth >= MAX_DEPTH) return { kind: "too_deep" };
    if (Array.isArray(node)) {
      const items: readonly unknown[] = node;
      for (let i = 0; i < items.length; i++) {
        const child = items[i];
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    const keys = Object.keys(node);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!;
      // The path is worked out only for the refusal, by a walk that keeps one.
      if (FORBIDDEN_KEYS.has(key)) return { kind: "forbidden_key", path: forbiddenKeyPath(value) ?? key };
      const child: unknown = Reflect.get(node, key);
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return undefined;
}
