// Owns one connection to one MCP server, on the official SDK (loaded here,
// only when a server is needed): starting it within its start-up time, listing
// its tools, calling one with cancellation and progress, and ending it.
import * as path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../config/schema.js";
import { JpError } from "../errors.js";
import { redactSecrets } from "../llm/redact.js";
import { proxyFor } from "../net/proxy.js";
import { toolEnvironment } from "../tools/local.js";
import type { McpToolInfo } from "./cache.js";
import type { ElicitAnswer, ElicitForm } from "./elicit.js";

export const DEFAULT_STARTUP_TIMEOUT_SECS = 30;

export interface ServerEnvironment {
  /** jp's own environment. */
  env: NodeJS.ProcessEnv;
  /** The workspace root: a stdio server's default working directory. */
  workspace: string;
  /** Variable names never passed on (provider keys). */
  secrets: ReadonlySet<string>;
  version: string;
  /** Where a tool the server lists but jp cannot offer (a malformed one) is said. */
  warn?: (line: string) => void;
}

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress?: (line: string) => void;
  /** Answers a form the server asks the person to fill in during this call (an elicitation). */
  elicit?: (form: ElicitForm) => Promise<ElicitAnswer>;
}

export interface McpConnection {
  listTools(): Promise<McpToolInfo[]>;
  callTool(name: string, args: Record<string, unknown>, options: CallOptions): Promise<unknown>;
  close(): Promise<void>;
  /** The server process, for a stdio server. */
  pid: number | undefined;
}

/** A server that could not be started or reached: names it, and what it said on stderr. */
export class McpServerError extends JpError {
  /** The failure in one line: what failed and the last line the server said. */
  readonly brief: string;
  constructor(server: string, what: string, stderr = "") {
    const tail = stderr.split("\n").slice(-5).join("\n  ");
    super("mcp.server", `MCP server ${server} ${what}${tail ? `; it said:\n  ${tail}` : ""}`, {
      hint: `check [providers.mcp.${server}] in your config (\`jp mcp ls\` shows every server's state), or set optional = true to go on without it`,
    });
    const last = stderr.trim().split("\n").at(-1)?.trim();
    this.brief = `MCP server ${server} ${what.replace(/: MCP error -32000: Connection closed$/, "")}${last ? ` (${last})` : ""}`;
  }
}

/**
 * `${NAME}` in a header value or a URL is the environment variable NAME. An
 * unset (or empty) one is an error before any connection, never an empty
 * value sent; a provider key is never sent to a server, as in `variables`.
 */
export function expandVariables(
  value: string,
  env: NodeJS.ProcessEnv,
  where: { server: string; field: string; secrets: ReadonlySet<string> },
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    if (where.secrets.has(name))
      throw new McpServerError(
        where.server,
        `has ${where.field} naming \${${name}}, a provider key, which jp never sends to an MCP server`,
      );
    const set = env[name];
    if (set === undefined || set === "")
      throw new McpServerError(where.server, `has ${where.field} naming \${${name}}, which is not set`);
    return set;
  });
}

/** `promise`, unless `ms` pass or `signal` aborts first. */
function withinLimits<T>(
  promise: Promise<T>,
  ms: number,
  signal: AbortSignal,
  onTimeout: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort = () => {};
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(onTimeout());
    }, ms);
    onAbort = () => {
      reject(new Error("jp stopped before it had started"));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
  return Promise.race([promise, limit]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener("abort", onAbort);
  });
}

/** How jp reaches one server, and what it can say of it when it fails. */
interface ServerLink {
  transport: Transport;
  /** The end of a stdio server's stderr, for errors. */
  stderr: () => string;
  pid: () => number | undefined;
  /** End it at once (a start-up that failed or was cut short). */
  terminate?: () => Promise<void>;
  /** Why jp ended the server, when it did: the reason its calls failed. */
  fault?: () => string | undefined;
  /** What the server was sent that must not be shown or recorded if it echoes it (its headers' values). */
  secrets?: string[];
}

async function linkTo(
  name: string,
  config: McpServerConfig,
  environment: ServerEnvironment,
): Promise<ServerLink> {
  if (config.type === "stdio") {
    const env = toolEnvironment(environment, config.variables);
    const cwd = path.resolve(environment.workspace, config.cwd ?? ".");
    if (config.checksum) {
      const { checksumProblem } = await import("./checksum.js");
      const problem = await checksumProblem(config.command, config.checksum, {
        searchPath: env.PATH ?? "",
        cwd,
      });
      if (problem) throw new McpServerError(name, problem);
    }
    const { DetachedStdioTransport } = await import("./stdio-transport.js");
    const stdio = new DetachedStdioTransport({
      command: config.command,
      args: config.arguments ?? [],
      env,
      cwd,
    });
    return {
      transport: stdio,
      stderr: () => stdio.stderrTail(),
      pid: () => stdio.pid,
      terminate: () => stdio.terminate(),
      fault: () => stdio.fault,
    };
  }
  const expand = (value: string, field: string) =>
    expandVariables(value, environment.env, { server: name, field, secrets: environment.secrets });
  const url = expand(config.url, "a url");
  if (!URL.canParse(url)) throw new McpServerError(name, `has a url jp cannot read: ${config.url}`);
  const headers = Object.fromEntries(
    Object.entries(config.headers ?? {}).map(([k, v]) => [k, expand(v, `a header ${k}`)]),
  );
  const { StreamableHTTPClientTransport } =
    await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
  // Through the proxy the environment names for this url, trusting what they trust, as provider requests go.
  const proxy = proxyFor(url, environment.env);
  const fetch = (await import("../net/fetch-through.js")).fetchFor(proxy);
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers },
    ...(fetch ? { fetch } : {}),
  });
  return { transport, stderr: () => "", pid: () => undefined, secrets: Object.values(headers) };
}

/** A call whose failure, when jp ended the server, says why (not the SDK's "Connection closed"). */
async function callWithFault<T>(link: ServerLink, call: () => Promise<T>): Promise<T> {
  const secrets = link.secrets ?? [];
  try {
    return await call();
  } catch (error) {
    const fault = link.fault?.();
    if (fault) throw new Error(`the server ${fault}`, { cause: error });
    // A server's error may echo a header it was sent (a token): it is recorded as the call's result.
    if (error instanceof Error && secrets.length) throw new Error(redactSecrets(error.message, secrets));
    throw error;
  }
}

/** `value` with each of `secrets` replaced by `***` in every string it holds (a server's result may echo a header). */
function withoutSecrets(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string")
    return secrets.reduce(
      (text, secret) => (secret.length >= 4 ? text.split(secret).join("***") : text),
      value,
    );
  if (Array.isArray(value)) return value.map((item) => withoutSecrets(item, secrets));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutSecrets(v, secrets)]));
}

/** Whether `value` is a JSON object. */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A message with the tools of a `tools/list` answer that MCP says no client
 * can call (no name, or an input schema that is not an object schema) left
 * out, each said through `warn`: one malformed tool does not fail the server.
 */
function withoutMalformedTools(server: string, message: unknown, warn: (line: string) => void): unknown {
  if (!isObject(message) || !isObject(message.result) || !Array.isArray(message.result.tools)) return message;
  const tools: unknown[] = message.result.tools;
  const kept = tools.filter((tool) => {
    const schema = isObject(tool) ? tool.inputSchema : undefined;
    if (isObject(tool) && typeof tool.name === "string" && isObject(schema) && schema.type === "object")
      return true;
    const name = isObject(tool) && typeof tool.name === "string" ? tool.name : "a tool without a name";
    const type = isObject(schema) ? JSON.stringify(schema.type) : "none";
    warn(`MCP server ${server} lists ${name} with an input schema of type ${type}, not "object"; left out`);
    return false;
  });
  return kept.length === tools.length ? message : { ...message, result: { ...message.result, tools: kept } };
}

/** `transport` with each message it hands the client passed through `edit` first. */
function editingMessages(transport: Transport, edit: (message: unknown) => unknown): Transport {
  return new Proxy(transport, {
    set(target, prop, value: unknown) {
      if (prop !== "onmessage" || typeof value !== "function") return Reflect.set(target, prop, value);
      target.onmessage = (message, extra) => {
        Reflect.apply(value, target, [edit(message), extra]);
      };
      return true;
    },
  });
}

/** A server's tools, every page of them, as jp keeps them. */
async function allTools(client: Client): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    for (const t of page.tools)
      tools.push({
        name: t.name,
        ...(t.title !== undefined ? { title: t.title } : {}),
        description: t.description ?? "",
        input_schema: t.inputSchema,
        ...(t.annotations ? { annotations: t.annotations } : {}),
      });
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** The SDK's progress callback, each notification said as one line: `3/10 compiling`. */
function progressOption(onProgress: CallOptions["onProgress"]) {
  if (!onProgress) return {};
  return {
    onprogress: (p: { progress: number; total?: number; message?: string }) => {
      const total = p.total ? `/${p.total}` : "";
      onProgress(`${p.progress}${total}${p.message ? ` ${p.message}` : ""}`);
    },
  };
}

/**
 * Answer the server's elicitations through whoever the running call names
 * (`CallOptions.elicit`); with no call running, or in a mode jp did not offer,
 * the form is cancelled.
 */
async function askPerson(client: Client): Promise<{ set(elicit: CallOptions["elicit"]): void }> {
  let elicit: CallOptions["elicit"];
  const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const { params } = request;
    if (params.mode === "url" || !elicit) return { action: "cancel" };
    return elicit({ message: params.message, requestedSchema: params.requestedSchema });
  });
  return {
    set(next) {
      elicit = next;
    },
  };
}

/**
 * Connect `client` through `link` and list the server's tools, within the
 * server's start-up time; the list. A tool MCP says no client can call is
 * left out (with a warning). A failure ends the server and names it, without
 * a header value the server echoed.
 */
async function startWithin(
  name: string,
  config: McpServerConfig,
  environment: ServerEnvironment,
  { client, link }: { client: Client; link: ServerLink },
  signal: AbortSignal,
): Promise<McpToolInfo[]> {
  const seconds = config.startup_timeout_secs ?? DEFAULT_STARTUP_TIMEOUT_SECS;
  const warn = environment.warn ?? (() => undefined);
  const transport = editingMessages(link.transport, (message) => withoutMalformedTools(name, message, warn));
  try {
    return await withinLimits(
      (async () => {
        await client.connect(transport);
        return allTools(client);
      })(),
      seconds * 1000,
      signal,
      () =>
        new McpServerError(
          name,
          `did not finish starting within ${seconds}s (startup_timeout_secs)`,
          link.stderr(),
        ),
    );
  } catch (error) {
    await (link.terminate ?? (() => client.close()))().catch(() => undefined);
    if (error instanceof McpServerError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    // A server that exits at once leaves its reason on stderr; give it a moment to arrive.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const secrets = link.secrets ?? [];
    throw new McpServerError(
      name,
      `could not be started: ${redactSecrets(message, secrets)}`,
      redactSecrets(link.stderr(), secrets),
    );
  }
}

/** Start (or reach) `server` and complete the MCP handshake, within its start-up time. */
export async function connectServer(
  name: string,
  config: McpServerConfig,
  environment: ServerEnvironment,
  signal: AbortSignal,
): Promise<McpConnection> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  // jp may be done (a short turn) before the SDK has loaded: then nothing is started.
  if (signal.aborted) throw new McpServerError(name, "was not started: jp stopped before it was needed");
  // Form elicitation is offered: a server may ask the person something while a call of its runs.
  const client = new Client(
    { name: "jp", version: environment.version },
    { capabilities: { elicitation: { form: {} } } },
  );
  const asker = await askPerson(client);
  const link = await linkTo(name, config, environment);
  // The start-up time covers the first tool list too: a server that never answers tools/list has not started.
  let firstList: McpToolInfo[] | undefined = await startWithin(
    name,
    config,
    environment,
    { client, link },
    signal,
  );
  return {
    get pid() {
      return link.pid();
    },
    listTools: async () => {
      const listed = firstList;
      firstList = undefined;
      return listed ?? allTools(client);
    },
    callTool: async (tool, args, options) =>
      withoutSecrets(
        await callWithFault(link, async () => {
          asker.set(options.elicit);
          try {
            return await client.callTool({ name: tool, arguments: args }, undefined, {
              signal: options.signal,
              timeout: options.timeoutMs,
              resetTimeoutOnProgress: true,
              ...progressOption(options.onProgress),
            });
          } finally {
            asker.set(undefined);
          }
        }),
        link.secrets ?? [],
      ),
    close: () => client.close(),
  };
}
