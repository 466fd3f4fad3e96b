// Owns the MCP servers of one jp process: each started at most once, in
// parallel, when first needed; tool lists served from the cache when it has
// them (the server then starts when one of its tools is first called); every
// server ended when jp is done with them.
import type { McpServerConfig } from "../config/schema.js";
import { type McpToolCache, type McpToolInfo } from "./cache.js";
import {
  connectServer,
  McpServerError,
  type CallOptions,
  type McpConnection,
  type ServerEnvironment,
} from "./client.js";

/** How long an optional server that failed to start is left alone before jp tries it again. */
export const RETRY_FAILED_MS = 60 * 60 * 1000;

/** `work`, or a rejection as soon as `signal` aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error("interrupted"));
  return new Promise((resolve, reject) => {
    const abort = () => {
      reject(new Error("interrupted"));
    };
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => {
      signal.removeEventListener("abort", abort);
    });
  });
}

export interface McpServersOptions {
  servers: Readonly<Record<string, McpServerConfig>>;
  environment: ServerEnvironment;
  cache: McpToolCache;
  now: () => Date;
  /** Told when a server in the background fails, or an optional one is left out. */
  warn: (line: string) => void;
}

export class McpServers {
  private readonly connections = new Map<string, Promise<McpConnection>>();
  private readonly listed = new Map<string, Promise<McpToolInfo[]>>();
  /** Aborts the start-ups still under way when jp is done. */
  private readonly stopping = new AbortController();

  constructor(private readonly options: McpServersOptions) {}

  config(name: string): McpServerConfig | undefined {
    return Object.hasOwn(this.options.servers, name) ? this.options.servers[name] : undefined;
  }

  private connect(name: string): Promise<McpConnection> {
    let connection = this.connections.get(name);
    if (!connection) {
      const config = this.config(name);
      if (!config) return Promise.reject(new McpServerError(name, "is not configured"));
      connection = connectServer(name, config, this.options.environment, this.stopping.signal);
      // A failure is reported where the connection is used; this only keeps it from going unhandled.
      connection.catch(() => undefined);
      this.connections.set(name, connection);
    }
    return connection;
  }

  /** The tools of a running server, listed once and cached for the next jp. */
  private listLive(name: string): Promise<McpToolInfo[]> {
    let tools = this.listed.get(name);
    if (!tools) {
      tools = this.connect(name).then(async (connection) => {
        const list = await connection.listTools();
        const config = this.config(name);
        if (config) {
          this.options.cache.write(name, config, list, this.options.now());
          this.options.cache.markFailed(name, config, undefined, this.options.now());
        }
        return list;
      });
      tools.catch(() => undefined);
      this.listed.set(name, tools);
    }
    return tools;
  }

  /**
   * A server's tools: the cached list when its config is unchanged (unless
   * `fresh`), else the live one. An optional server that cannot start gives
   * none, with a warning.
   */
  async tools(name: string, options: { fresh?: boolean } = {}): Promise<McpToolInfo[]> {
    const config = this.config(name);
    if (!config) throw new McpServerError(name, "is not configured");
    // An optional server that failed lately is not tried again for a while: said when it failed, not each turn.
    if (config.optional && this.failedLately(name, config)) return [];
    const cached = options.fresh ? undefined : this.options.cache.read(name, config);
    if (cached) return cached.tools;
    try {
      return await this.listLive(name);
    } catch (error) {
      if (!config.optional) throw error;
      const brief = error instanceof McpServerError ? error.brief : String(error);
      this.options.cache.markFailed(name, config, brief, this.options.now());
      this.options.warn(
        `${brief}; optional, so its tools are left out, and jp tries it again in an hour or when its config changes (\`jp mcp ls\` shows it)`,
      );
      return [];
    }
  }

  /** Whether `name` failed to start within the last RETRY_FAILED_MS, with the config it has now. */
  private failedLately(name: string, config: McpServerConfig): boolean {
    const failed = this.options.cache.failed(name, config);
    return failed !== undefined && this.options.now().getTime() - failed.at.getTime() < RETRY_FAILED_MS;
  }

  /** The live tool list, starting the server if needed (for `jp mcp`). */
  liveTools(name: string): Promise<McpToolInfo[]> {
    return this.listLive(name);
  }

  /**
   * The running server's own word on `tool` (starting it if needed): its
   * description and hints, or undefined when it has no such tool. Ctrl-C ends
   * the wait; the start-up goes on and is ended with the others.
   */
  async liveTool(name: string, tool: string, signal: AbortSignal): Promise<McpToolInfo | undefined> {
    const list = await untilAborted(this.listLive(name), signal);
    return list.find((t) => t.name === tool);
  }

  /**
   * Call `tool` on the server, once its live list has it: a tool offered
   * from a cached list alone is never run. Listing also refreshes the cache
   * for the next jp.
   */
  async call(
    server: string,
    tool: string,
    args: Record<string, unknown>,
    options: CallOptions,
  ): Promise<unknown> {
    const connection = await this.connect(server);
    if (!(await this.liveTool(server, tool, options.signal)))
      throw new McpServerError(server, `has no tool ${tool}`);
    return connection.callTool(tool, args, options);
  }

  /** Pids of the stdio servers started, for checks that none outlives jp. */
  async pids(): Promise<number[]> {
    const settled = await Promise.allSettled(this.connections.values());
    return settled.flatMap((s) =>
      s.status === "fulfilled" && s.value.pid !== undefined ? [s.value.pid] : [],
    );
  }

  /** End every server started. */
  async closeAll(): Promise<void> {
    this.stopping.abort();
    const settled = await Promise.allSettled(this.connections.values());
    await Promise.all(
      settled.map((s) =>
        s.status === "fulfilled" ? s.value.close().catch(() => undefined) : Promise.resolve(),
      ),
    );
    this.connections.clear();
    this.listed.clear();
  }
}
