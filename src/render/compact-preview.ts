// Owns the compact tool's preview: a self-sufficient account of each proposed
// rule (range, replacement, tokens, boundary excerpts, note, spill file), and
// the readable text of what each rule drops.
import { visible } from "./visible.js";
import type { Fact } from "../compaction/index.js";
import type { Compaction, Event } from "../events/index.js";
import { groupTurns, turnsLabel, isKind } from "../events/index.js";
import { PLAIN } from "./palette.js";
import { renderHistory } from "./history.js";
import { atRiskLine, heldLine, policyNames, reasoningLostLine } from "./compactions.js";
import { counted } from "./words.js";
import { grouped } from "../numbers.js";

export interface PreviewRule {
  compaction: Compaction;
  tokensBefore: number;
  tokensAfter: number;
  /** Tokens the provider writes to its prompt cache again, once, when the rule takes effect. */
  cacheRewrite?: number;
  /** The bound reasoning (preserved thinking) that stops going back when the rule takes effect. */
  reasoningLost?: { turns: readonly number[]; tokens: number };
  approximate: boolean;
  spillFile?: string;
  /** The facts that leave the model's view with this rule and stay nowhere in it. */
  atRisk?: readonly Fact[];
  /** How many distinct facts the texts this rule takes from view hold (atRisk among them). */
  factsLeaving?: number;
  /** Pinned turns inside the rule's range (0-based): it leaves them as they are. */
  pinned?: readonly number[];
}

const EXCERPT = 70;

function textOf(e: Event): string | undefined {
  if (isKind(e, "chat_request")) return e.content;
  if (e.type === "chat_response" && typeof e.message === "string") return e.message;
  if (isKind(e, "tool_call_response")) return e.content;
  return undefined;
}

/** The first and last words of the range, as the assistant and the user saw them. */
export function boundaryExcerpts(
  events: readonly Event[],
  from: number,
  to: number,
): { first: string; last: string } {
  const texts = groupTurns(events)
    .filter((t) => t.index >= from && t.index <= to)
    .flatMap((t) => t.events.map(textOf).filter((x): x is string => !!x && x.trim() !== ""));
  const flat = (s: string) => visible(s.replace(/\s+/g, " ").trim());
  const first = flat(texts[0] ?? "");
  const last = flat(texts.at(-1) ?? "");
  return {
    first: first.length > EXCERPT ? `${first.slice(0, EXCERPT)}…` : first,
    last: last.length > EXCERPT ? `…${last.slice(-EXCERPT)}` : last,
  };
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Lines of at most `width` columns, breaking at spaces; paragraphs and blank lines kept. */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of text.split("\n")) {
    let line = "";
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else {
        line = line ? `${line} ${word}` : word;
      }
    }
    out.push(line);
  }
  while (out.at(-1) === "") out.pop();
  return out;
}

/** Lines of a summary shown before the rest is left to `e`. */
const SUMMARY_LINES = 12;
const SUMMARY_WIDTH = 76;

function replacement(c: Compaction): string {
  if (c.summary) return `the assistant's summary (${words(c.summary.text)} words)`;
  return policyNames(c)
    .map((p) =>
      p === "reasoning"
        ? "strip reasoning"
        : p.startsWith("tools")
          ? p.replace(/^tools(?: \((.*)\))?$/, (_, mode: string | undefined) =>
              mode === "omit" ? "omit tool calls" : `${mode ?? "strip"} tool calls`,
            )
          : p,
    )
    .join(" + ");
}

const fmt = (n: number, approximate: boolean) => `${approximate ? "≈" : ""}${grouped(n)}`;

export function renderCompactPreview(
  events: readonly Event[],
  rules: readonly PreviewRule[],
  pins: readonly number[] = [],
): string {
  const proposed = [
    pins.length ? counted(pins.length, "pin") : "",
    rules.length || !pins.length ? counted(rules.length, "rule") : "",
  ];
  const lines = [`compact — ${proposed.filter(Boolean).join(" and ")} proposed`, ""];
  for (const turn of pins) {
    const { first } = boundaryExcerpts(events, turn, turn);
    lines.push(`  pin turn ${turn + 1}: no compaction changes it${first ? ` ("${first}")` : ""}`);
  }
  if (pins.length) lines.push("");
  rules.forEach((r, i) => {
    const c = r.compaction;
    const range = turnsLabel(c.from_turn, c.to_turn);
    const { first, last } = boundaryExcerpts(events, c.from_turn, c.to_turn);
    lines.push(`  ${i + 1}. ${range} → ${replacement(c)}`);
    if (c.summary) {
      const text = wrapText(c.summary.text, SUMMARY_WIDTH);
      lines.push(...text.slice(0, SUMMARY_LINES).map((l) => (l ? `     │ ${l}` : "     │")));
      if (text.length > SUMMARY_LINES)
        lines.push(`     │ … ${text.length - SUMMARY_LINES} more lines: press e to read or edit all`);
    }
    lines.push(
      `     tokens   ${fmt(r.tokensBefore, r.approximate)} → ${fmt(r.tokensAfter, r.approximate)} for the next request`,
      ...(r.cacheRewrite
        ? [
            `     cache    ${fmt(r.cacheRewrite, r.approximate)} tokens written to the prompt cache again, once`,
          ]
        : []),
      ...(r.reasoningLost?.turns.length
        ? [`     thinking of ${reasoningLostLine(r.reasoningLost, (n) => fmt(n, r.approximate))}`]
        : []),
    );
    if (first) lines.push(`     from     "${first}"`);
    if (last) lines.push(`     to       "${last}"`);
    if (r.pinned?.length)
      lines.push(
        `     pinned   ${r.pinned.map((t) => `turn ${t + 1}`).join(", ")}: left as ${r.pinned.length > 1 ? "they are" : "it is"}`,
      );
    if (r.factsLeaving) lines.push(`     facts    ${heldLine(r.factsLeaving, r.atRisk?.length ?? 0)}`);
    if (r.atRisk?.length) lines.push(`     at risk  ${atRiskLine(r.atRisk)}`);
    if (c.note) lines.push(`     why      ${visible(c.note)}`);
    if (r.spillFile) lines.push(`     dropped  ${r.spillFile}`);
    lines.push("");
  });
  lines.push("Approved (y), these are recorded and take effect when the next turn starts.");
  return lines.join("\n");
}

/** What a compaction drops from the raw events, rendered readably (no colour). */
export function droppedText(events: readonly Event[], c: Compaction): string {
  const inRange = groupTurns(events).filter((t) => t.index >= c.from_turn && t.index <= c.to_turn);
  const header = `# Dropped by compaction ${c.id}: ${turnsLabel(c.from_turn, c.to_turn)}${c.note ? `\n# why: ${c.note}` : ""}\n\n`;
  if (c.summary) {
    return `${header}# Replaced by this summary:\n\n${c.summary.text}\n\n# The turns it replaces:\n\n${renderHistory(
      inRange.flatMap((t) => t.events),
      { color: PLAIN },
      c.from_turn,
    )}\n`;
  }
  const names = new Map<string, string>();
  const dropped = inRange.map((t) => ({
    ...t,
    events: t.events.filter((e) => {
      if (e.type === "turn_start" || e.type === "chat_request") return true;
      if (e.type === "chat_response") return c.reasoning === "strip" && typeof e.reasoning === "string";
      if (e.type === "tool_call_request") names.set(e.id, e.name);
      const id = e.type === "tool_call_request" || e.type === "tool_call_response" ? e.id : "";
      const policy = c.tool_overrides?.[names.get(id) ?? "unknown"] ?? c.tool_calls;
      if (!policy) return false;
      if (policy.policy === "omit") return true;
      return e.type === "tool_call_request"
        ? policy.request
        : e.type === "tool_call_response"
          ? policy.response
          : false;
    }),
  }));
  return `${header}# Each turn's request is shown for orientation; everything else below is what the model will no longer see.\n\n${renderHistory(
    dropped.flatMap((t) => t.events),
    // A stripped result is shown without its request: its tool is named from the request it had.
    { color: PLAIN, toolNames: names },
    c.from_turn,
  )}\n`;
}
