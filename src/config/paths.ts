// Owns naming places in a configuration: key paths as users write them
// (\`assistant.model.id\`, \`rules[2]\`), and the value found at one.
import { isPlain } from "./trust.js";

/** A path as written in messages: \`conversation.compaction.rules[0].keep_last\`. */
export function keyPath(p: readonly PropertyKey[]): string {
  return p
    .map((k) => (typeof k === "number" ? `[${k}]` : String(k)))
    .join(".")
    .replace(/\.\[/g, "[");
}

/** Put `value` at a path of keys in `root`, making the tables on the way (a value in the way is replaced). */
export function setValueAt(root: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    node = isPlain(next) ? next : (node[key] = {});
  }
  const last = keys.at(-1);
  if (last !== undefined) node[last] = value;
}

/** The value at a path of keys and indices, if there is one. */
export function valueAt(root: unknown, keys: readonly (string | number)[]): unknown {
  let node = root;
  for (const key of keys) {
    if (Array.isArray(node) && typeof key === "number") node = node[key];
    else if (isPlain(node)) node = node[String(key)];
    else return undefined;
  }
  return node;
}
