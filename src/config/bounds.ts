// Owns the ranges jp holds settings to, whichever layer set them (a
// conversation's recorded config included): a timeout past what a timer can
// hold fires at once, a million retries stall for hours. A value outside its
// range is clamped, and said so in one line.
import type { Config } from "./schema.js";

const DAY_SECS = 24 * 60 * 60;

interface Bound {
  /** The dotted key, `*` standing for each tool. */
  key: string;
  max: number;
}

const BOUNDS: readonly Bound[] = [
  { key: "assistant.request.timeout_secs", max: DAY_SECS },
  { key: "assistant.request.idle_timeout_secs", max: DAY_SECS },
  { key: "assistant.request.max_retries", max: 10 },
  { key: "assistant.request.backoff_ms", max: 60_000 },
  { key: "assistant.request.max_tokens", max: 1_000_000 },
  { key: "assistant.reasoning.budget_tokens", max: 1_000_000 },
  { key: "conversation.tools.*.timeout_secs", max: DAY_SECS },
  { key: "conversation.tools.*.max_output_bytes", max: 100 * 1024 * 1024 },
  { key: "providers.mcp.*.startup_timeout_secs", max: DAY_SECS },
];

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === "object" && v !== null && !Array.isArray(v);

/** Every table and key path `parts` names below `node`, `*` matching each key. */
function* places(
  node: unknown,
  parts: readonly string[],
  at: string[] = [],
): Generator<[Table, string, string]> {
  const [head, ...rest] = parts;
  if (!isTable(node) || head === undefined) return;
  const keys = head === "*" ? Object.keys(node) : [head];
  for (const key of keys) {
    if (!Object.hasOwn(node, key)) continue;
    if (rest.length === 0) yield [node, key, [...at, key].join(".")];
    else yield* places(node[key], rest, [...at, key]);
  }
}

/** `config` with each bounded value held to its range (in place), and a line for each one clamped. */
export function clampSettings(config: Config): string[] {
  const said: string[] = [];
  for (const bound of BOUNDS) {
    for (const [table, key, path] of places(config, bound.key.split("."))) {
      const value = table[key];
      if (typeof value !== "number" || value <= bound.max) continue;
      table[key] = bound.max;
      said.push(`${path} = ${value} is more than jp allows; using ${bound.max}`);
    }
  }
  return said;
}
