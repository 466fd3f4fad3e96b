// Owns the list of a conversation's compactions as `show` presents it.
import { visible } from "./visible.js";
import { turnsLabel } from "../events/index.js";
import type { CompactionEntry } from "../compaction/index.js";
import { describeToolPolicy } from "../compaction/index.js";
import { policyNames, stateLabel } from "./compactions.js";
import { grouped } from "../numbers.js";

export interface CompactionItem {
  index: number;
  id: string;
  from: number;
  to: number;
  policies: string[];
  tool_overrides: Record<string, string>;
  source: string;
  note: string | null;
  state: string;
  summary: {
    text: string;
    source: string;
    author: string | null;
    edited_by: string | null;
    model: string | null;
  } | null;
  to_call: string | null;
  tokens_saved: number | null;
  recorded_at: string;
}

/** Compactions in stream order, numbered as `--reset=N` takes them; turns 1-based. */
export function compactionItems(entries: readonly CompactionEntry[]): CompactionItem[] {
  return entries.map((entry) => {
    const c = entry.event;
    const stats = c.stats;
    return {
      index: entry.number,
      id: c.id,
      from: c.from_turn + 1,
      to: c.to_turn + 1,
      policies: policyNames(c).filter((p) => !p.includes("hint")),
      tool_overrides: Object.fromEntries(
        Object.entries(c.tool_overrides ?? {}).map(([name, p]) => [name, describeToolPolicy(p)]),
      ),
      source: c.source,
      note: c.note ?? null,
      state: stateLabel(entry),
      summary: c.summary
        ? {
            text: c.summary.text,
            source: c.summary.source,
            author: c.summary.author ?? null,
            edited_by: c.summary.edited_by ?? null,
            model: c.summary.model ?? null,
          }
        : null,
      to_call: c.to_call ?? null,
      tokens_saved:
        typeof stats?.tokens_before === "number" && typeof stats.tokens_after === "number"
          ? stats.tokens_before - stats.tokens_after
          : null,
      recorded_at: c.timestamp,
    };
  });
}

/** What a compaction saves, in the tense of its state: a reset one saves nothing now, a deferred one not yet. */
function savedLabel(item: CompactionItem): string {
  if (item.tokens_saved === null) return "";
  const tokens = `${grouped(item.tokens_saved)} tokens`;
  if (item.state === "active") return `, saves ${tokens}`;
  if (item.state === "reset") return `: it saved ${tokens} while in force, and saves none now`;
  return `, to save ${tokens} from then`;
}

export function renderCompactionItems(items: readonly CompactionItem[]): string[] {
  if (items.length === 0) return ["  compactions: none"];
  const lines = [`  compactions: ${items.length}`];
  for (const item of items) {
    const range = turnsLabel(item.from - 1, item.to - 1);
    const overrides = Object.entries(item.tool_overrides).map(([n, p]) => `${n}=${p}`);
    const policy = [...item.policies, ...(overrides.length ? [`hints: ${overrides.join(", ")}`] : [])].join(
      " + ",
    );
    lines.push(
      `    #${item.index} ${item.id}  ${range}  ${policy}  [${item.source}, ${item.state}${savedLabel(item)}]`,
    );
    if (item.summary) {
      const author =
        item.summary.source === "supplied"
          ? `written by ${item.summary.author ?? "user"}${item.summary.edited_by ? `, edited by ${item.summary.edited_by}` : ""}`
          : `generated${item.summary.model ? ` by ${item.summary.model}` : ""}`;
      lines.push(
        `       summary (${author}): ${item.summary.text.length > 100 ? item.summary.text.slice(0, 99) + "…" : item.summary.text}`,
      );
    }
    if (item.note) lines.push(`       note: ${visible(item.note)}`);
  }
  return lines;
}
