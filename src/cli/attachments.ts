// Owns reading what `jp q -a` attaches: files, globs and http(s) URLs, each
// kept whole with the question. Text goes in as text; images and PDFs as their
// bytes (base64), for the provider to send as its own block types.
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "../errors.js";
import type { Attachment } from "../events/index.js";
import { globFiles, isGlob } from "../glob.js";

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
 * each file a glob matches (one that matches none is an error), each URL.
 * A file named twice is attached once.
 */
export async function readAttachments(
  sources: readonly string[],
  cwd: string,
  fetcher: Fetcher = fetch,
): Promise<Attachment[]> {
  const out: Attachment[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      if (!seen.has(source)) out.push(await urlAttachment(source, fetcher));
      seen.add(source);
      continue;
    }
    const files = isGlob(source) ? globFiles(source, cwd) : [path.resolve(cwd, source)];
    if (files.length === 0)
      throw new UsageError(`-a ${source} matches no file`, "check the glob (relative to the current folder)");
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      out.push(fileAttachment(file, isGlob(source) ? path.relative(cwd, file) : source));
    }
  }
  return out;
}
