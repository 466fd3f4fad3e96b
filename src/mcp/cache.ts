// Owns the cached tool list of each MCP server, kept in the workspace
// (`.jp/cache/mcp/SERVER.json`) and keyed by the server's config: a `jp q`
// offers the tools a server had last time without waiting for it to start,
// and a changed config (another command, other arguments) is a miss.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { McpServerConfig } from "../config/schema.js";
import { isJsonObject } from "../events/json.js";
import { makeDirWithin, readJsonFile, writeJsonAtomic } from "../store/files.js";

export interface McpToolInfo {
  name: string;
  title?: string;
  description: string;
  input_schema: Record<string, unknown>;
  /** The server's hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint. */
  annotations?: Record<string, unknown>;
}

interface CacheFile {
  key: string;
  saved_at: string;
  tools: McpToolInfo[];
}

/** The key of a server's config: the same config, the same key, whatever the order of its keys. */
export function configKey(config: McpServerConfig): string {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : isJsonObject(value)
        ? Object.fromEntries(
            Object.keys(value)
              .sort()
              .map((k) => [k, canonical(value[k])]),
          )
        : value;
  return createHash("sha256")
    .update(JSON.stringify(canonical(config)))
    .digest("hex")
    .slice(0, 16);
}

const isToolInfo = (value: unknown): value is McpToolInfo =>
  isJsonObject(value) &&
  typeof value.name === "string" &&
  typeof value.description === "string" &&
  isJsonObject(value.input_schema);

export class McpToolCache {
  constructor(private readonly dir: string) {}

  private file(server: string): string {
    return path.join(this.dir, `${encodeURIComponent(server)}.json`);
  }

  /** The tools `server` had when last listed with this config; undefined on a miss or an unreadable file. */
  read(server: string, config: McpServerConfig): { tools: McpToolInfo[]; savedAt: string } | undefined {
    let cached: Partial<CacheFile> | undefined;
    try {
      cached = readJsonFile<Partial<CacheFile>>(this.file(server));
    } catch {
      return undefined;
    }
    if (!cached || cached.key !== configKey(config) || !Array.isArray(cached.tools)) return undefined;
    if (!cached.tools.every(isToolInfo)) return undefined;
    return { tools: cached.tools, savedAt: cached.saved_at ?? "" };
  }

  /** Keep `tools` for next time; a cache that cannot be written only costs the next start its wait. */
  write(server: string, config: McpServerConfig, tools: McpToolInfo[], now: Date): void {
    try {
      // Never through a link in the workspace's .jp/ (or the user's cache): the folder holding cache/ is where that starts.
      makeDirWithin(path.dirname(path.dirname(this.dir)), this.dir);
      const value: CacheFile = { key: configKey(config), saved_at: now.toISOString(), tools };
      writeJsonAtomic(this.file(server), value);
    } catch {
      // Read-only workspace: nothing is lost but time.
    }
  }

  private failedFile(server: string): string {
    return path.join(this.dir, `${encodeURIComponent(server)}.failed.json`);
  }

  /** When `server`, with this config, last failed to start, and what it said; undefined when it has not. */
  failed(server: string, config: McpServerConfig): { at: Date; error: string } | undefined {
    let kept: { key?: unknown; at?: unknown; error?: unknown } | undefined;
    try {
      kept = readJsonFile(this.failedFile(server));
    } catch {
      return undefined;
    }
    if (!kept || kept.key !== configKey(config) || typeof kept.at !== "string") return undefined;
    const at = new Date(kept.at);
    if (Number.isNaN(at.getTime())) return undefined;
    return { at, error: typeof kept.error === "string" ? kept.error : "" };
  }

  /** Remember that `server` failed to start (or, with `error` undefined, forget it: it started). */
  markFailed(server: string, config: McpServerConfig, error: string | undefined, now: Date): void {
    try {
      if (error === undefined) {
        fs.rmSync(this.failedFile(server), { force: true });
        return;
      }
      makeDirWithin(path.dirname(path.dirname(this.dir)), this.dir);
      writeJsonAtomic(this.failedFile(server), { key: configKey(config), at: now.toISOString(), error });
    } catch {
      // Read-only cache: the server is only tried again sooner.
    }
  }
}
