// Owns `show --context`: what the next request holds, part by part, with
// tokens and each part's share of the model's window, so the user sees what
// to compact. The parts sum to the total by construction.
import { CONTEXT_PARTS, type ContextItem, type ContextPart } from "../tokens/request.js";
import { grouped } from "../numbers.js";

export interface ContextSummary {
  total: number;
  window?: number;
  parts: { part: ContextPart; tokens: number; items: number }[];
  largest: ContextItem[];
}

/** The items added up by part, with the largest items. */
export function summarizeContext(items: readonly ContextItem[], window?: number, top = 5): ContextSummary {
  const parts = CONTEXT_PARTS.map((part) => {
    const of = items.filter((i) => i.part === part);
    return { part, tokens: of.reduce((n, i) => n + i.tokens, 0), items: of.length };
  });
  const largest = [...items].sort((a, b) => b.tokens - a.tokens).slice(0, top);
  return {
    total: parts.reduce((n, p) => n + p.tokens, 0),
    ...(window ? { window } : {}),
    parts,
    largest,
  };
}

const BAR_WIDTH = 30;
const BLOCKS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];

/** A bar of `share` (0..1) of the full width, in eighths of a character; anything above none shows. */
export function bar(share: number): string {
  const clamped = Math.min(1, Math.max(0, share));
  const eighths = clamped > 0 ? Math.max(1, Math.round(clamped * BAR_WIDTH * 8)) : 0;
  return "█".repeat(Math.floor(eighths / 8)) + BLOCKS[eighths % 8]!;
}

/** The context, part by part; with `bars`, each part's share drawn (on a terminal). */
export function renderContext(
  summary: ContextSummary,
  options: { modelId: string; approximate: boolean; bars: boolean },
): string[] {
  const fmt = (n: number) => `${options.approximate ? "≈" : ""}${grouped(n)}`;
  const base = summary.window ?? summary.total;
  const pct = (n: number) => {
    const share = base > 0 ? (n / base) * 100 : 0;
    return share > 0 && share < 0.05 ? "<0.1%" : `${share.toFixed(1)}%`;
  };
  const of = summary.window
    ? `${pct(summary.total)} of the ${grouped(summary.window)}-token window of ${options.modelId}`
    : `the window of ${options.modelId} is unknown: shares are of the total`;
  const width = Math.max(...summary.parts.map((p) => fmt(p.tokens).length));
  const lines = [`The next request holds ${fmt(summary.total)} tokens, ${of}.`, ""];
  for (const p of summary.parts) {
    const figures = `  ${p.part.padEnd(16)} ${fmt(p.tokens).padStart(width)}  ${pct(p.tokens).padStart(6)}`;
    lines.push(options.bars ? `${figures}  ${bar(base > 0 ? p.tokens / base : 0)}` : figures);
  }
  lines.push(
    `  ${"total".padEnd(16)} ${fmt(summary.total).padStart(width)}  ${pct(summary.total).padStart(6)}`,
  );
  const largest = summary.largest.filter((i) => i.tokens > 0);
  if (largest.length) {
    lines.push("", "Largest:");
    for (const i of largest) {
      const name = [i.where, i.part, i.what].filter(Boolean).join("  ");
      lines.push(`  ${fmt(i.tokens).padStart(width)}  ${pct(i.tokens).padStart(6)}  ${name}`);
    }
  }
  return lines;
}
