// Owns the record of the work (docs/architecture.md §5.3): what turns that
// leave the view through a summary asked, set, touched, ran and left open,
// derived from their events, never from the summary. Same events, same
// bytes: it is built only from the turns a summary covers, and the projector
// (projector.ts) puts it where the compaction is in the stream, after
// everything the model saw before the compaction and before everything it
// saw since, so it changes no cached prefix and no prefix a reasoning block
// is bound to. Pure.
import { isJsonObject, isKind, type ChatRequest, type Compaction, type Event } from "../events/index.js";
import type { RecordError, RecordItem, WorkReader } from "./record-facts.js";

/** On a record's event: the id of the compaction it records the turns of. */
export const WORK_RECORD_KEY = "work_record";

/** The most a record holds, in tokens (four characters a token). */
export const RECORD_MAX_TOKENS = 2_000;
const RECORD_MAX_CHARS = RECORD_MAX_TOKENS * 4;

/** Whether an event is a record of the work (a request the projection made, not the user). */
export function isWorkRecord(e: Event): boolean {
  return (
    isKind(e, "chat_request") && isJsonObject(e.metadata) && typeof e.metadata[WORK_RECORD_KEY] === "string"
  );
}

/** "turn 3" or "turns 2-4", 1-based, for a 0-based item. */
const at = (i: RecordItem): string =>
  i.first === i.last ? `turn ${i.first + 1}` : `turns ${i.first + 1}-${i.last + 1}`;

/** Most recent first, then most named; otherwise as they came (the sort is stable): one order for the same log. */
const byWeight = (a: RecordItem, b: RecordItem): number => b.last - a.last || b.refs - a.refs;

/** An error as its line says it, with its code in front when the line does not name it. */
const errorText = (e: RecordError): string => (e.text.includes(e.code) ? e.text : `${e.code}: ${e.text}`);

interface Section {
  title: string;
  lines: string[];
}

/** The record's sections, most needed first: rules and what is open before what was done. */
function sections(reader: WorkReader): Section[] {
  const sorted = <T extends RecordItem>(m: Map<string, T>) => [...m.values()].sort(byWeight);
  const errors = sorted(reader.errors.items);
  const open = errors.filter((e) => e.resolvedAt === undefined);
  const resolved = errors.filter((e) => e.resolvedAt !== undefined);
  const line = (text: string, i: RecordItem) => `- ${text} (${at(i)})`;
  return [
    { title: "Rules the user set (verbatim)", lines: sorted(reader.rules.items).map((i) => line(i.text, i)) },
    {
      title: "Open",
      lines: [
        ...open.map((e) => line(`${errorText(e)}${e.command ? ` [from \`${e.command}\`]` : ""}`, e)),
        ...reader.openPoints.map((i) => line(i.text, i)),
      ],
    },
    { title: "Asked (verbatim)", lines: sorted(reader.asks.items).map((i) => line(`"${i.text}"`, i)) },
    { title: "Given by the user", lines: sorted(reader.given.items).map((i) => line(i.text, i)) },
    { title: "Files written", lines: sorted(reader.written.items).map((i) => line(i.text, i)) },
    {
      title: "Commands (newest run)",
      lines: sorted(reader.commands.items).map((i) => line(`\`${i.text}\` ${i.failed ? "failed" : "ok"}`, i)),
    },
    {
      title: "Errors resolved",
      lines: resolved.map((e) => line(`${errorText(e)}, resolved in turn ${(e.resolvedAt ?? 0) + 1}`, e)),
    },
    { title: "Files read", lines: sorted(reader.read.items).map((i) => line(i.text, i)) },
  ];
}

/**
 * The record's text for the turns `reader` read, or undefined when they hold
 * nothing to record. Bounded: sections are filled in order, each line whole
 * or not at all, and what does not fit is counted with how to read it back.
 */
export function renderRecord(reader: WorkReader): string | undefined {
  if (reader.last < 0) return undefined;
  const from = reader.first + 1;
  const to = reader.last + 1;
  const turns = from === to ? `${from}` : `${from}-${to}`;
  const head = `[Record of the work in turn${from === to ? "" : "s"} ${turns}, derived from the log; recall ${JSON.stringify({ turns })} reads ${from === to ? "it" : "them"} whole]`;
  // Room for the note on what was left out is kept from the start.
  let room = RECORD_MAX_CHARS - head.length - 100;
  let left = 0;
  const parts: string[] = [head];
  for (const { title, lines } of sections(reader)) {
    const kept: string[] = [];
    for (const l of lines) {
      const cost = l.length + 1 + (kept.length === 0 ? title.length + 2 : 0);
      if (cost > room) {
        left += 1;
        continue;
      }
      kept.push(l);
      room -= cost;
    }
    if (kept.length) parts.push(`${title}:`, ...kept);
  }
  if (parts.length === 1) return undefined;
  if (left > 0)
    parts.push(
      `[${left} more item${left === 1 ? "" : "s"} left out to keep this record short: recall reads them]`,
    );
  return parts.join("\n");
}

/** The record's event for compaction `c`, placed where `c` is in the stream. */
export function recordEvent(c: Compaction, text: string): ChatRequest {
  return {
    type: "chat_request",
    timestamp: c.timestamp,
    content: text,
    metadata: { [WORK_RECORD_KEY]: c.id },
  };
}

/** Whether compaction `c` carries a record of the turns its summary covers (a rule can turn it off). */
export const recordsWork = (c: Compaction): boolean => c.summary !== undefined && c.record !== false;
