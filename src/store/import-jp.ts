// Owns the import of JP conversations (all three generations of JP's storage)
// into jp's log format. JP stores tool arguments, tool results and metadata
// strings base64-encoded at rest, sometimes twice; jp stores plain text.
import * as fs from "node:fs";
import { messageOf } from "../errors.js";
import * as path from "node:path";
import { readRegularFile, UnreadableFileError } from "../regular-file.js";
import { isJsonObject, MAX_DEPTH, tooDeep, validateEvent, type Event } from "../events/index.js";
import { LOG_FILE, readLog } from "./log.js";
import { ImportError } from "./errors.js";
import { jsonArrayElements, NotAJsonArrayError } from "./json-array.js";
import { trimEndOf } from "../trim.js";

export interface ImportResult {
  id: string;
  title?: string;
  source: string;
  counts: Record<string, number>;
}

export interface ImportSkip {
  source: string;
  reason: string;
}

const STANDARD_B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const URL_SAFE_B64 = /^[A-Za-z0-9_-]*={0,2}$/;
// Text we accept as the result of a decode: no control characters but tab and newlines.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffd]/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decode one layer of base64 if `value` is canonical base64 of printable UTF-8 text. */
function decodeOnce(value: string): string | undefined {
  if (value.length < 4) return undefined;
  let bytes: Buffer;
  if (STANDARD_B64.test(value)) {
    bytes = Buffer.from(value, "base64");
    if (bytes.toString("base64") !== value) return undefined;
  } else if (URL_SAFE_B64.test(value) && value.length % 4 !== 1) {
    bytes = Buffer.from(value, "base64url");
    if (bytes.toString("base64url") !== trimEndOf(value, "=")) return undefined;
  } else {
    return undefined;
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return CONTROL.test(text) ? undefined : text;
}

/** Decode base64 repeatedly while the result is still base64 of text (JP sometimes encoded twice). */
export function decodeJpString(value: string): string {
  let current = value;
  for (let depth = 0; depth < 8; depth += 1) {
    const next = decodeOnce(current);
    if (next === undefined) break;
    current = next;
  }
  return current;
}

function decodeLeaves(value: unknown): unknown {
  if (typeof value === "string") return decodeJpString(value);
  if (Array.isArray(value)) return value.map(decodeLeaves);
  if (value !== null && typeof value === "object") {
    // fromEntries defines each key, so `__proto__` stays a key like any other.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeLeaves(v)]));
  }
  return value;
}

/** `2026-05-29 19:42:36.46732` (JP, UTC) → `2026-05-29T19:42:36.46732Z`. */
export function normalizeJpTimestamp(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(value.trim());
  if (!m) return Number.isNaN(Date.parse(value)) ? undefined : new Date(value).toISOString();
  return `${m[1]}T${m[2]}${m[3] && m[3] !== "+00:00" ? m[3] : "Z"}`;
}

type Raw = Record<string, unknown>;

const isRaw = isJsonObject;

/** Each key of `from` but the `left` ones, defined on `to` (`__proto__` stays a key like any other). */
function copyKeys(to: Raw, from: Raw, left: ReadonlySet<string>): void {
  for (const key in from) {
    if (left.has(key)) continue;
    if (key === "__proto__")
      Object.defineProperty(to, key, {
        value: from[key],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else to[key] = from[key];
  }
}

const HEAD_KEYS: ReadonlySet<string> = new Set(["type", "timestamp", "metadata"]);

function convertEvent(raw: Raw, fallbackTime: string): Raw & { timestamp: string } {
  const { type, timestamp, metadata } = raw;
  const event: Raw & { timestamp: string } = {
    type,
    timestamp: normalizeJpTimestamp(timestamp) ?? fallbackTime,
  };
  // The oldest generation flattened the config beside `type`. Copied key by key: a
  // rest and a spread made two objects of every event (a 250 MB import makes 330,000).
  if (type === "config_delta" && !("delta" in raw)) {
    const delta: Raw = {};
    copyKeys(delta, raw, HEAD_KEYS);
    event.delta = delta;
  } else copyKeys(event, raw, HEAD_KEYS);
  if (type === "tool_call_request" && event.arguments !== undefined)
    event.arguments = decodeLeaves(event.arguments);
  if (type === "tool_call_response" && typeof event.content === "string")
    event.content = decodeJpString(event.content);
  if (metadata !== undefined) event.metadata = decodeLeaves(metadata);
  return event;
}

export function isJpConversationDir(dir: string): boolean {
  return (
    fs.existsSync(path.join(dir, "events.json")) ||
    fs.existsSync(path.join(dir, LOG_FILE)) ||
    fs.existsSync(path.join(dir, "metadata.json"))
  );
}

/** Expand the given paths to JP conversation folders (a `.jp/` folder or a folder of conversations expands to all). */
export function findJpConversations(input: string): string[] {
  const dir = path.resolve(input);
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    throw new ImportError(`${input} is not a folder`, "give a JP conversation folder or a JP `.jp/` folder");
  }
  if (isJpConversationDir(dir)) return [dir];
  const container = fs.existsSync(path.join(dir, "conversations")) ? path.join(dir, "conversations") : dir;
  const found = fs
    .readdirSync(container, { withFileTypes: true })
    .filter(
      (d) => d.isDirectory() && /^\d+/.test(d.name) && isJpConversationDir(path.join(container, d.name)),
    )
    .map((d) => path.join(container, d.name))
    .sort();
  if (found.length === 0) {
    throw new ImportError(
      `${input} holds no conversation`,
      "give a JP conversation folder (events.json), a jp one (events.jsonl), or a .jp/ folder holding them",
    );
  }
  return found;
}

/** A JP conversation being read: its events come as they are converted, the first one already read. */
export interface JpConversationStream {
  originalId: string;
  title?: string;
  /** The time of the first event, as the conversation's creation time. */
  createdAt: string;
  events: Iterable<Event>;
}

/** Convert one JP conversation folder into jp events, without writing anything. */
export function convertJpConversation(
  dir: string,
  progress?: ImportProgress,
): { originalId: string; title?: string; events: Event[] } | ImportSkip {
  const streamed = streamJpConversation(dir, progress);
  if ("reason" in streamed) return streamed;
  const events = [...streamed.events];
  return streamed.title === undefined
    ? { originalId: streamed.originalId, events }
    : { originalId: streamed.originalId, title: streamed.title, events };
}

/**
 * One JP conversation folder as jp events, read and converted as they are
 * consumed: JP's events.json element by element, so a conversation of any
 * size is imported holding one event at a time.
 */
export function streamJpConversation(
  dir: string,
  progress?: ImportProgress,
): JpConversationStream | ImportSkip {
  // JP names a folder by its id, then a slug; any other name is the id itself (jp gives it one it can list).
  const name = path.basename(dir);
  const originalId = /^(\d{8,})(?:-|$)/.exec(name)?.[1] ?? name;
  const storedMetadata = readJson(path.join(dir, "metadata.json"));
  const metadata = isRaw(storedMetadata) ? storedMetadata : undefined;
  const title = typeof metadata?.title === "string" ? metadata.title : undefined;
  const named = title === undefined ? { originalId } : { originalId, title };
  // A conversation folder of another jp workspace: its log is already in jp's format.
  const log = path.join(dir, LOG_FILE);
  if (fs.existsSync(log)) {
    const events = readLog(log).events;
    if (events.length === 0) return { source: dir, reason: `${LOG_FILE} holds no events` };
    const createdAt =
      events.find((e) => typeof e.timestamp === "string")?.timestamp ?? new Date(0).toISOString();
    return { ...named, createdAt, events };
  }
  const eventsFile = path.join(dir, "events.json");
  if (!fs.existsSync(eventsFile)) return { source: dir, reason: "no events.json (nothing to import)" };
  const entries = jpEntries(eventsFile, progress)[Symbol.iterator]();
  // Entries before the first with a time take that time: read ahead to it (JP wrote times on all but the oldest).
  const ahead: Raw[] = [];
  let firstTime: string | undefined;
  for (let next = entries.next(); !next.done; next = entries.next()) {
    ahead.push(next.value);
    firstTime = normalizeJpTimestamp(next.value.timestamp);
    if (firstTime !== undefined) break;
  }
  if (ahead.length === 0) return { source: dir, reason: "events.json holds no events" };
  firstTime ??= normalizeJpTimestamp(metadata?.last_activated_at) ?? new Date(0).toISOString();
  const baseConfig = readJson(path.join(dir, "base_config.json"));
  const start: Event[] =
    baseConfig === undefined
      ? []
      : [{ type: "config_delta", timestamp: firstTime, delta: isRaw(baseConfig) ? baseConfig : {} }];
  return {
    ...named,
    createdAt: firstTime,
    events: convertedEvents(eventsFile, start, ahead, entries, firstTime),
  };
}

/** JP's entries, parsed one at a time; each must be an event object of no unreasonable depth. */
function* jpEntries(eventsFile: string, progress?: ImportProgress): Generator<Raw> {
  let index = 0;
  try {
    for (const text of jsonArrayElements(
      eventsFile,
      progress &&
        ((done, total) => {
          progress("reading", done, total);
        }),
    )) {
      index += 1;
      let entry: unknown;
      try {
        entry = JSON.parse(text);
      } catch (error) {
        throw new ImportError(`${eventsFile}: not valid JSON in entry ${index} (${messageOf(error)})`);
      }
      // Converting and storing a deeper value would overflow the stack.
      if (tooDeep([entry]))
        throw new ImportError(
          `${eventsFile}: a value is nested more than ${MAX_DEPTH} levels deep`,
          "this is not a conversation JP wrote; nothing was imported from it",
        );
      if (!isRaw(entry) || typeof entry.type !== "string")
        throw new ImportError(`${eventsFile}: entry ${index} is not an event object`);
      yield entry;
    }
  } catch (error) {
    if (error instanceof NotAJsonArrayError)
      throw new ImportError(`${eventsFile}: expected a JSON array of events (${error.message})`);
    throw error;
  }
}

/** The events of a JP conversation: `start`, then the entries read ahead, then the rest as they are read. */
function* convertedEvents(
  eventsFile: string,
  start: readonly Event[],
  ahead: readonly Raw[],
  rest: Iterator<Raw>,
  firstTime: string,
): Generator<Event> {
  yield* start;
  let lastTime = firstTime;
  let index = 0;
  const convert = (entry: Raw): Event => {
    index += 1;
    const converted = convertEvent(entry, lastTime);
    lastTime = converted.timestamp;
    const result = validateEvent(converted);
    if (!result.ok) throw new ImportError(`${eventsFile}: entry ${index}: ${result.reason}`);
    return result.event;
  };
  for (const entry of ahead) yield convert(entry);
  for (let next = rest.next(); !next.done; next = rest.next()) yield convert(next.value);
}

/** How far a long import has got: the bytes of events.json read, of its size. */
export type ImportProgress = (phase: "reading", done: number, total: number) => void;

/** JP's metadata and base config are a few kilobytes; a larger one is not JP's. */
const MAX_JP_JSON_BYTES = 16 * 1024 * 1024;

function readJson(file: string): unknown {
  let text: string;
  try {
    const read = readRegularFile(file, MAX_JP_JSON_BYTES);
    if (read === undefined) return undefined;
    text = read;
  } catch (error) {
    if (error instanceof UnreadableFileError)
      throw new ImportError(`${error.message}, not a file JP wrote`, "nothing was imported from it");
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ImportError(`${file}: not valid JSON (${messageOf(error)})`);
  }
  // Converting and storing a deeper value would overflow the stack.
  if (tooDeep(value))
    throw new ImportError(
      `${file}: a value is nested more than ${MAX_DEPTH} levels deep`,
      "this is not a conversation JP wrote; nothing was imported from it",
    );
  return value;
}
