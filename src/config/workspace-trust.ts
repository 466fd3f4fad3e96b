// Owns what a workspace's own configuration may do before the user trusts
// the workspace: the list of what it would run and where it would send the
// user's keys (shown when trust is asked, and recorded with it), and the
// configuration as data, without any of that. A cloned repository's
// `.jp/config.toml` is the repository's, not the user's.
import * as path from "node:path";
import type { Layer } from "./layers.js";
import { isPlain, type Plain } from "./trust.js";

/** What the workspace's own configuration would do, and whether it was let. */
export interface WorkspaceTrust {
  /** What the workspace's files would run and where they would send keys, a line each. */
  powers: string[];
  /** Whether the workspace is trusted: its files were read whole, and the conversation's recorded config applied. */
  trusted: boolean;
  /** How many config deltas the conversation recorded that were not applied (the workspace is not trusted). */
  withheldDeltas: number;
}

/** Whether an untrusted workspace's files or conversation were held back. */
export function heldBack(trust: WorkspaceTrust): boolean {
  return !trust.trusted && (trust.powers.length > 0 || trust.withheldDeltas > 0);
}

const q = (text: string) => JSON.stringify(text);

/** A command as one line: the program and its arguments, each quoted where it must be. */
function commandLine(words: readonly unknown[]): string {
  return words
    .map((w) => String(w))
    .map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : q(w)))
    .join(" ");
}

/** The tables of a table, by name. */
function tablesOf(value: unknown): [string, Plain][] {
  const out: [string, Plain][] = [];
  if (isPlain(value))
    for (const [key, table] of Object.entries(value)) if (isPlain(table)) out.push([key, table]);
  return out;
}

/** Where a model provider's requests would go, with which key. */
function providerPowers(name: string, table: Plain): string[] {
  const out: string[] = [];
  const key = typeof table.api_key_env === "string" ? `$${table.api_key_env}` : "its key";
  if (typeof table.base_url === "string") out.push(`sends ${key} to ${table.base_url} (provider ${name})`);
  else if (typeof table.api_key_env === "string") out.push(`sends ${key} as provider ${name}'s key`);
  if (typeof table.base_url_env === "string")
    out.push(`sends ${key} to the address in $${table.base_url_env} (provider ${name})`);
  if (typeof table.proxy === "string" && table.proxy !== "")
    out.push(`sends provider ${name}'s requests through ${table.proxy}`);
  return out;
}

/** What an MCP server would run, or where it would send headers. */
function serverPowers(name: string, server: Plain): string[] {
  if (server.type === "http") {
    // Names, and the variables a value is filled from: a header's own value is not shown.
    const headers = isPlain(server.headers)
      ? Object.entries(server.headers).map(([h, v]) => {
          const vars = [...String(v).matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => `$${m[1]}`);
          return vars.length ? `${h} (from ${vars.join(", ")})` : h;
        })
      : [];
    const sent = headers.length ? ` with headers ${headers.join(", ")}` : "";
    return [`connects to MCP server ${name} at ${String(server.url)}${sent}`];
  }
  const args: unknown[] = Array.isArray(server.arguments) ? server.arguments : [];
  const vars =
    Array.isArray(server.variables) && server.variables.length
      ? ` (given $${server.variables.join(", $")})`
      : "";
  return [`runs MCP server ${name}: ${commandLine([server.command, ...args])}${vars}`];
}

/** What a tool would run, or how it loosens asking. */
function toolPowers(name: string, tool: Plain): string[] {
  const out: string[] = [];
  if (tool.command !== undefined) {
    const words: unknown[] = Array.isArray(tool.command) ? tool.command : [tool.command];
    const env = Array.isArray(tool.env) && tool.env.length ? ` (given $${tool.env.join(", $")})` : "";
    out.push(`runs tool ${name}: ${commandLine(words)}${env}`);
  }
  if (tool.run === "unattended") out.push(`runs tool ${name} without asking`);
  return out;
}

/** An attachment entry as JP writes it: a URL or path, or `{ type, path }`. */
function attachmentUrl(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (isPlain(entry) && typeof entry.type === "string" && typeof entry.path === "string")
    return `${entry.type}://${entry.path}`;
  return undefined;
}

/** Whether an attachment would run a command or read outside the workspace at `root`. */
function attachmentPower(url: string, root: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === "cmd") return `runs attachment ${url}`;
  if (
    scheme === "http" ||
    scheme === "https" ||
    (scheme !== undefined && scheme !== "file" && scheme.length > 1)
  )
    return undefined;
  const file = url.replace(/^file:(\/\/)?/i, "").replace(/^~(?=\/|$)/, "/~");
  const relative = path.relative(root, path.resolve(root, file));
  if (relative.startsWith("..") || path.isAbsolute(relative) || url.startsWith("~"))
    return `attaches ${url}, outside the workspace`;
  return undefined;
}

function attachmentsOf(value: Plain): unknown[] {
  const conversation = isPlain(value.conversation) ? value.conversation : {};
  return Array.isArray(conversation.attachments) ? conversation.attachments : [];
}

/**
 * What a layer of the workspace's configuration would run and where it would
 * send the user's keys, a line each, in a stable order. `root` is the
 * workspace's folder (attachments outside it count).
 */
export function workspacePowers(value: Plain, root: string): string[] {
  const providers = isPlain(value.providers) ? value.providers : {};
  const conversation = isPlain(value.conversation) ? value.conversation : {};
  return [
    ...tablesOf(providers).flatMap(([name, table]) =>
      name === "mcp" || name === "llm" ? [] : providerPowers(name, table),
    ),
    ...tablesOf(providers.mcp).flatMap(([name, server]) => serverPowers(name, server)),
    ...tablesOf(conversation.tools).flatMap(([name, tool]) => toolPowers(name, tool)),
    ...attachmentsOf(value).flatMap((entry) => {
      const url = attachmentUrl(entry);
      const power = url === undefined ? undefined : attachmentPower(url, root);
      return power === undefined ? [] : [power];
    }),
  ];
}

/** Tool keys that only describe a tool (to the model, to compaction) and grant nothing. */
const DESCRIPTIVE_TOOL_KEYS = new Set(["compaction", "summary", "description", "parameters"]);

/**
 * A layer of an untrusted workspace, read as data: no provider tables (the
 * user's own say where keys go), no MCP servers, no tool that runs a command
 * or comes from a server, nothing that loosens asking, and no attachment that
 * runs or reads outside the workspace. Model aliases and the rest stay.
 */
export function asData(value: Plain, root: string): Plain {
  const copy = structuredClone(value);
  if (isPlain(copy.providers)) {
    const llm = copy.providers.llm;
    copy.providers = isPlain(llm) ? { llm } : {};
  }
  const conversation = isPlain(copy.conversation) ? copy.conversation : undefined;
  if (!conversation) return copy;
  if (isPlain(conversation.tools)) {
    const kept: Plain = {};
    for (const [name, tool] of tablesOf(conversation.tools)) {
      if (tool.command !== undefined || tool.source !== undefined) continue;
      kept[name] = Object.fromEntries(Object.entries(tool).filter(([key]) => DESCRIPTIVE_TOOL_KEYS.has(key)));
    }
    conversation.tools = kept;
  }
  if (Array.isArray(conversation.attachments))
    conversation.attachments = conversation.attachments.filter((entry) => {
      const url = attachmentUrl(entry);
      return url !== undefined && attachmentPower(url, root) === undefined;
    });
  return copy;
}

/** Whether `file` lies in the folder `root`. */
function isWithin(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * The workspace's own layers (its files, and -c files found in it) read as
 * the user trusts them (`trusted`, asked with what they would do): whole, or
 * as data. Without `trusted`, the caller trusts them. Returns the trust found.
 */
export function applyWorkspaceTrust(
  layers: Layer[],
  cfgLayers: Layer[],
  workspaceDir: string | undefined,
  trusted: ((powers: readonly string[]) => boolean) | undefined,
  deltas: number,
): WorkspaceTrust {
  if (!workspaceDir) return { powers: [], trusted: true, withheldDeltas: 0 };
  const root = path.dirname(workspaceDir);
  const own = [
    ...layers.filter(
      (layer) => layer.name.startsWith("workspace (") || layer.name.startsWith("JP workspace ("),
    ),
    // A -c file the workspace holds (a persona in .jp/config.d/) is the repository's too.
    ...cfgLayers.filter((layer) => layer.path !== undefined && isWithin(root, layer.path)),
  ];
  const powers = [...new Set(own.flatMap((layer) => workspacePowers(layer.value, root)))];
  if (!trusted || trusted(powers)) return { powers, trusted: true, withheldDeltas: 0 };
  const withheld = new Set(own.flatMap((layer) => tablesOf(mcpOf(layer.value)).map(([name]) => name)));
  for (const layer of own) layer.value = asData(layer.value, root);
  for (const layer of [...layers, ...cfgLayers]) if (!own.includes(layer)) dropTuning(layer.value, withheld);
  return { powers, trusted: false, withheldDeltas: deltas };
}

function mcpOf(value: Plain): unknown {
  return isPlain(value.providers) ? value.providers.mcp : undefined;
}

/**
 * A user's settings for servers only the withheld workspace defined (JP users
 * write `optional = true` for a repository's server): with the definition
 * left out they tune nothing, and are dropped rather than read as a server
 * with no command.
 */
function dropTuning(value: Plain, servers: ReadonlySet<string>): void {
  const mcp = mcpOf(value);
  if (!isPlain(mcp)) return;
  for (const name of servers) {
    const server = mcp[name];
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- a server's name is the key by design
    if (isPlain(server) && server.command === undefined && server.url === undefined) delete mcp[name];
  }
}
