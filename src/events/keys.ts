// Owns the limits parsed data is held to. Configuration may not carry the
// keys `__proto__`, `constructor` and `prototype`: its layers are merged key
// by key, which is how such a key reaches Object.prototype. Stored
// conversation data (model output, tool arguments and results) takes any
// JSON: it is never merged, only read, copied by spread and serialised.

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

/**
 * A copy of a JSON-like value without its forbidden keys, and their dotted
 * paths: recorded data read as configuration, where such a key is only data.
 */
export function withoutForbiddenKeys(value: unknown, path = ""): { value: unknown; dropped: string[] } {
  if (typeof value !== "object" || value === null) return { value, dropped: [] };
  const dropped: string[] = [];
  if (Array.isArray(value)) {
    const items = value.map((item, i) => {
      const inner = withoutForbiddenKeys(item, `${path}[${i}]`);
      dropped.push(...inner.dropped);
      return inner.value;
    });
    return { value: items, dropped };
  }
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const at = path ? `${path}.${key}` : key;
    if (FORBIDDEN_KEYS.has(key)) {
      dropped.push(at);
      continue;
    }
    const inner = withoutForbiddenKeys(Reflect.get(value, key), at);
    dropped.push(...inner.dropped);
    copy[key] = inner.value;
  }
  return { value: copy, dropped };
}

/** Deeper values are refused: serialising or cloning them overflows the stack. */
export const MAX_DEPTH = 1000;

/**
 * Whether a parsed value nests deeper than `MAX_DEPTH`. One iterative walk
 * whose cost follows the number of values, not the length of their text: a
 * log line that is one long tool result costs a few steps, not a scan of
 * every character. Keys are not looked at: stored data takes any JSON, and
 * `__proto__` parsed by JSON.parse is an own key like any other.
 */
export function tooDeep(value: unknown): boolean {
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
    if (depth >= MAX_DEPTH) return true;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
