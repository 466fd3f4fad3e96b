// Owns reading the config schema's structure: the keys an object accepts and
// the type of a leaf, for "did you mean" hints, environment variables and
// pruning foreign config.
import type { z } from "zod";

type Def = {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  valueType?: z.ZodType;
  options?: z.ZodType[];
};

function def(schema: z.ZodType): Def {
  // Cast: every zod schema carries `_zod.def`; the public types do not expose it.
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The schema without optional/default/nullable wrappers. */
export function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (
    let d = def(s);
    d.innerType && ["optional", "default", "nullable", "prefault"].includes(d.type);
    d = def(s)
  )
    s = d.innerType;
  return s;
}

export function schemaType(schema: z.ZodType): string {
  return def(unwrap(schema)).type;
}

/** The schema found by following `path` (object keys, record values, array items; unions by their object member). */
export function schemaAt(root: z.ZodType, path: readonly (string | number)[]): z.ZodType | undefined {
  let s: z.ZodType | undefined = unwrap(root);
  for (const key of path) {
    if (!s) return undefined;
    const d = def(s);
    if (d.type === "object") s = d.shape?.[String(key)];
    else if (d.type === "record") s = d.valueType;
    // Cast: an array definition holds its `element`, absent from the shared Def type.
    else if (d.type === "array") s = (d as unknown as { element: z.ZodType }).element;
    else if (d.type === "union") {
      const member: z.ZodType | undefined = d.options
        ?.map(unwrap)
        .find((o) => ["object", "array", "record"].includes(def(o).type));
      s = member ? schemaAt(member, [key]) : undefined;
      continue;
    } else return undefined;
    s = s ? unwrap(s) : undefined;
  }
  return s;
}

/** The keys the object schema at `path` accepts. */
export function keysAt(root: z.ZodType, path: readonly (string | number)[]): string[] {
  const s = schemaAt(root, path);
  if (!s) return [];
  const d = def(s);
  if (d.type === "object") return Object.keys(d.shape ?? {});
  if (d.type === "union")
    return (d.options ?? []).flatMap((o) =>
      def(unwrap(o)).type === "object" ? Object.keys(def(unwrap(o)).shape ?? {}) : [],
    );
  return [];
}

/** Every scalar key path reachable through objects only (not records or arrays), with its leaf type. */
export function scalarPaths(root: z.ZodType, prefix: string[] = []): { path: string[]; type: string }[] {
  const s = unwrap(root);
  const d = def(s);
  if (d.type !== "object") return [{ path: prefix, type: d.type === "union" ? "union" : d.type }];
  return Object.entries(d.shape ?? {}).flatMap(([key, child]) => {
    const childType = def(unwrap(child)).type;
    if (childType === "record" || childType === "array") return [];
    return scalarPaths(child, [...prefix, key]);
  });
}

export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}

export function closest(word: string, candidates: readonly string[]): string | undefined {
  const wanted = word.toLowerCase();
  const within = Math.max(2, Math.floor(word.length / 3));
  let best: string | undefined;
  let bestScore = within + 1;
  for (const c of candidates) {
    // Two strings are at least as far apart as their lengths: such a candidate cannot be nearer.
    const lowered = c.toLowerCase();
    if (Math.abs(lowered.length - wanted.length) >= bestScore) continue;
    const d = editDistance(wanted, lowered);
    if (d < bestScore) {
      best = c;
      bestScore = d;
    }
  }
  return best;
}
