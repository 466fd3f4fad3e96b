// Owns reading what `jp q -a` attaches: files, globs and http(s) URLs, each
// kept whole with the question. Text goes in as text; images and PDFs as their
// bytes (base64), for the provider to send as its own block types.
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "../errors.js";
import { type Attachment, escapeXml } from "../events/index.js";
import { globFiles, isGlob } from "../glob.js";
import { tokensOfChars } from "../compaction/estimate.js";
import { grouped } from "../numbers.js";
import { counted } from "../render/words.js";

/** The most one attachment may hold: what providers take in one request is of this order. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** How long a URL may take to answer in full. */
const URL_TIMEOUT_MS = 30_000;

const BINARY_TYPES: Readonly<Record<string, string>> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".pdf": "application/pdf",
};

/** Media types jp sends as their own blocks; anything else must be text. */
export const isBinaryType = (mediaType: string): boolean => Object.values(BINARY_TYPES).includes(mediaType);

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes as text, when they are UTF-8 without NUL; undefined otherwise. */
function asText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function tooLarge(source: string, bytes: number): UsageError {
  return new UsageError(
    `${source} is ${(bytes / 1024 / 1024).toFixed(1)} MB, more than jp attaches (${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB)`,
    "attach a smaller file, or the part of it the question is about",
  );
}

/** One attachment from its bytes and media type (by extension or Content-Type). */
function attachment(source: string, bytes: Uint8Array, mediaType: string | undefined): Attachment {
  if (mediaType !== undefined && isBinaryType(mediaType))
    return { source, media_type: mediaType, data: Buffer.from(bytes).toString("base64") };
  const text = asText(bytes);
  if (text === undefined)
    throw new UsageError(
      `${source} is neither text nor an image or PDF jp can attach (${mediaType ?? "unknown type"})`,
      "attach text files, PNG, JPEG, GIF or WebP images, or PDFs",
    );
  return { source, media_type: mediaType?.startsWith("text/") ? mediaType : "text/plain", text };
}

function fileAttachment(file: string, source: string): Attachment {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new UsageError(`${source}: no such file to attach`, "give a file, a glob, or an http(s) URL");
  }
  if (!stat.isFile())
    throw new UsageError(`${source} is not a file`, "give a file, a glob, or an http(s) URL");
  if (stat.size > MAX_ATTACHMENT_BYTES) throw tooLarge(source, stat.size);
  return attachment(source, fs.readFileSync(file), BINARY_TYPES[path.extname(file).toLowerCase()]);
}

/** How a URL is fetched (through a proxy, when one applies). */
export type Fetcher = (url: string, init: RequestInit) => Promise<Response>;

async function urlAttachment(url: string, fetcher: Fetcher): Promise<Attachment> {
  let response: Response;
  try {
    response = await fetcher(url, { signal: AbortSignal.timeout(URL_TIMEOUT_MS), redirect: "follow" });
  } catch (error) {
    throw new UsageError(
      `${url} could not be fetched (${error instanceof Error ? error.message : String(error)})`,
      "check the address, or save the page and attach the file",
    );
  }
  if (!response.ok)
    throw new UsageError(
      `${url} answered ${response.status} ${response.statusText}`.trim(),
      "check the address",
    );
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MAX_ATTACHMENT_BYTES) throw tooLarge(url, declared);
  const bytes = new Uint8Array(await response.arrayBuffer());
  if (bytes.length > MAX_ATTACHMENT_BYTES) throw tooLarge(url, bytes.length);
  const mediaType = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  return attachment(url, bytes, mediaType);
}

/**
 * What `-a` names, read: each file (paths shown as given, relative to `cwd`),
 * each file a glob matches (one that matches none is an error), each file of
 * a folder (as JP takes one: every file below it, hidden ones left out), each
 * URL, and a command's output (JP's `cmd://date`, `cmd:git log -3`). A file
 * named twice is attached once.
 */
export async function readAttachments(
  sources: readonly string[],
  cwd: string,
  fetcher: Fetcher = fetch,
  env: Record<string, string> = {},
): Promise<Attachment[]> {
  const out: Attachment[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      if (!seen.has(source)) out.push(await urlAttachment(source, fetcher));
      seen.add(source);
      continue;
    }
    if (/^cmd:/i.test(source)) {
      out.push(await commandSource(source, cwd, env));
      continue;
    }
    const files = filesOf(source, cwd);
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      out.push(fileAttachment(file, isGlob(source) || files.length > 1 ? path.relative(cwd, file) : source));
    }
  }
  return out;
}

/** The files one `-a` path names: a glob's, a folder's (all below it, hidden ones left out), or the file. */
function filesOf(source: string, cwd: string): string[] {
  if (isGlob(source)) {
    const files = globFiles(source, cwd);
    if (files.length === 0)
      throw new UsageError(`-a ${source} matches no file`, "check the glob (relative to the current folder)");
    return files;
  }
  const file = path.resolve(cwd, source);
  if (!fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) return [file];
  const files = globFiles(`${path.relative(cwd, file) || "."}/**`, cwd).filter(
    (f) =>
      !path
        .relative(file, f)
        .split(path.sep)
        .some((part) => part.startsWith(".")),
  );
  if (files.length === 0) throw new UsageError(`-a ${source} is a folder holding no file`, "attach a file");
  return files;
}

/** `-a cmd://PROGRAM?arg=…` or `-a 'cmd:PROGRAM ARG…'`: its output, or an error when it cannot run. */
async function commandSource(source: string, cwd: string, env: Record<string, string>): Promise<Attachment> {
  const command = commandOf(source);
  if (!command)
    throw new UsageError(`-a ${source} names no command`, "write cmd://PROGRAM?arg=A or 'cmd:PROGRAM A'");
  let problem: string | undefined;
  const attached = await commandAttachment(command, cwd, env, (line) => {
    problem = line;
  });
  if (!attached)
    throw new UsageError(
      `-a ${source}: ${command.program} could not be run`,
      problem?.includes("ENOENT") ? `is ${command.program} installed and on your PATH?` : (problem ?? ""),
    );
  return attached;
}

/**
 * One line saying what `-a` attached, when it is worth saying: a folder, a
 * glob or a command (the person did not name each file), or much text.
 */
export function attachedSummary(
  sources: readonly string[],
  attached: readonly Attachment[],
  cwd: string,
): string | undefined {
  const chars = attached.reduce((sum, a) => sum + ("text" in a ? a.text.length : a.data.length), 0);
  const tokens = tokensOfChars(chars);
  const named = sources.some(
    (s) =>
      /^cmd:/i.test(s) ||
      isGlob(s) ||
      fs.statSync(path.resolve(cwd, s), { throwIfNoEntry: false })?.isDirectory(),
  );
  if (!named && tokens < LARGE_ATTACHMENT_TOKENS) return undefined;
  const noun = sources.some((s) => /^(cmd|https?):/i.test(s)) ? "attachment" : "file";
  return `attached ${counted(attached.length, noun)} (≈${grouped(tokens)} tokens)`;
}

/** Attachments past this many tokens are said, however they were named. */
const LARGE_ATTACHMENT_TOKENS = 20_000;

/** An entry of `conversation.attachments`: a URL or path, or JP's `{ type, path, params }`. */
export type ConfigAttachment =
  string | { type: string; path: string; params?: Record<string, string | string[]> };

/** A command whose output is attached (JP's `cmd` attachments). */
interface AttachedCommand {
  program: string;
  args: string[];
}

/** `%XX` escapes decoded where they are valid, the rest kept (Rust's percent_decode_str is as lenient). */
const lenientDecode = (text: string): string =>
  text.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });

/** Shell words as shlex splits them: quotes group, a backslash escapes outside single quotes. */
function shellWords(text: string): string[] | undefined {
  const words: string[] = [];
  let word: string | undefined;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === "\\" && quote === '"' && /["\\$`]/.test(text[i + 1] ?? ""))
        word = (word ?? "") + text.charAt(++i);
      else word = (word ?? "") + c;
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < text.length) word = (word ?? "") + text.charAt(++i);
    else word = (word ?? "") + c;
  }
  if (quote) return undefined;
  if (word !== undefined) words.push(word);
  return words;
}

/** JP's `cmd://PROGRAM?arg=…&arg=…` or `cmd:PROGRAM ARG…` (jp_attachment_cmd_output's uri_to_command). */
function commandOf(url: string): AttachedCommand | undefined {
  const [head = "", query = ""] = url.replace(/^cmd:/i, "").split(/\?(.*)/s);
  const params = new URLSearchParams(query);
  if (head.startsWith("//")) {
    const program = lenientDecode(head.slice(2).replace(/\/$/, ""));
    const args = [...params].filter(([k]) => /^args?(\[\])?$/.test(k)).map(([, v]) => lenientDecode(v));
    return program ? { program, args } : undefined;
  }
  const [program, ...args] = shellWords(head) ?? [];
  return program ? { program, args } : undefined;
}

/** JP's `{ type, path, params }` as the URL JP makes of it (jp_config's AttachmentObjectConfig::to_url). */
function urlOfObject(entry: Exclude<ConfigAttachment, string>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(entry.params ?? {}))
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, item);
  const search = query.toString();
  return `${entry.type}://${entry.path}${search ? `?${search}` : ""}`;
}

/**
 * A command's output as JP attaches it: its command line as the source,
 * `<Output>` with stdout, stderr and code. A program that cannot be started
 * is said through `warn` and left out (JP stops the question; one missing
 * tool on this machine should not stop every question).
 */
async function commandAttachment(
  command: AttachedCommand,
  root: string,
  env: Record<string, string>,
  warn: (line: string) => void,
): Promise<Attachment | undefined> {
  const { execa } = await import("execa");
  const line = [command.program, ...command.args].join(" ");
  const ran = await execa(command.program, command.args, {
    cwd: root,
    // A tool's environment, not jp's: no provider key reaches the command.
    env,
    extendEnv: false,
    reject: false,
    stdin: "ignore",
    maxBuffer: MAX_ATTACHMENT_BYTES,
    timeout: URL_TIMEOUT_MS,
  });
  if (ran.failed && ran.exitCode === undefined) {
    warn(
      `conversation.attachments: \`${line}\` could not be run (${ran.code ?? ran.shortMessage}); left out (install ${command.program}, or take it out of the configuration)`,
    );
    return undefined;
  }
  const parts = [
    ...(ran.stdout ? [`  <stdout>${escapeXml(ran.stdout)}</stdout>`] : []),
    ...(ran.stderr ? [`  <stderr>${escapeXml(ran.stderr)}</stderr>`] : []),
    `  <code>${ran.exitCode ?? 0}</code>`,
  ];
  return { source: line, media_type: "text/plain", text: `<Output>\n${parts.join("\n")}\n</Output>` };
}

/**
 * What `conversation.attachments` names, read now, as JP reads it for each
 * question: files (relative to the workspace), http(s) URLs, and commands'
 * output (run with `env` alone, which holds no provider key). Kinds of JP's
 * that jp has no reader for (its notes apps, MCP resources) are named once
 * through `warn` and left out.
 */
export async function readConfigAttachments(
  entries: readonly ConfigAttachment[],
  root: string,
  fetcher: Fetcher,
  warn: (line: string) => void,
  env: Record<string, string> = {},
): Promise<Attachment[]> {
  const out: Attachment[] = [];
  for (const entry of entries) {
    const url = typeof entry === "string" ? entry : urlOfObject(entry);
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
    if (scheme === undefined || scheme.length === 1) {
      // A plain path (or a Windows drive letter).
      out.push(fileAttachment(path.resolve(root, url), url));
    } else if (scheme === "file") {
      const file = lenientDecode(url.replace(/^file:(\/\/)?/i, "").split(/[?#]/, 1)[0]!);
      out.push(fileAttachment(path.resolve(root, file), file));
    } else if (scheme === "http" || scheme === "https") {
      out.push(await urlAttachment(url, fetcher));
    } else if (scheme === "cmd") {
      const command = commandOf(url);
      if (!command) warn(`conversation.attachments: ${url} names no command; left out`);
      else {
        const attached = await commandAttachment(command, root, env, warn);
        if (attached) out.push(attached);
      }
    } else {
      warn(`conversation.attachments: jp has no reader for JP's ${scheme} attachments (${url}); left out`);
    }
  }
  return out;
}
