// Owns talking to a stdio MCP server: the SDK's own framing (ReadBuffer,
// serializeMessage) over a child jp starts in a process group of its own. The
// SDK's StdioClientTransport starts the server in jp's group, where the
// terminal's Ctrl-C would kill it mid-call before jp could cancel the call;
// here jp cancels, and ends the server itself when it is done or exits.
import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { endedWithJp, endGroup } from "../tools/process-group.js";

export interface StdioServerParams {
  command: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

/** How much of a server's stderr is kept, for the error that names it. */
const STDERR_TAIL_BYTES = 4096;
/**
 * The largest message jp reads from a server: room for the 10 MiB of output
 * the log keeps, and its JSON. A server that sends more is ended, and the
 * call answered as an error: never a crash.
 */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** How long a server has to exit once its stdin is closed, before it is ended. */
const CLOSE_GRACE_MS = 2000;

export class DetachedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | undefined;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  /** Why jp ended the server, when it did (a message past what jp reads). */
  fault: string | undefined;
  private stderr = "";
  private tie: { dispose(): void } | undefined;
  private exited: Promise<void> = Promise.resolve();

  constructor(private readonly params: StdioServerParams) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.stderr.trim();
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.params.command, [...this.params.args], {
        env: this.params.env,
        cwd: this.params.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      this.child = child;
      this.exited = new Promise((done) =>
        child.once("close", () => {
          done();
        }),
      );
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        this.tie = endedWithJp(child.pid, undefined, spawn);
        resolve();
      });
      child.once("close", () => {
        this.tie?.dispose();
        this.child = undefined;
        this.onclose?.();
      });
      child.stdin.on("error", (error) => this.onerror?.(error));
      child.stdout.on("data", (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
        } catch {
          // The SDK's buffer refuses more than it holds: the server is ended, its calls fail.
          this.fault = `sent a message over ${MAX_MESSAGE_BYTES / 1024 / 1024} MiB, more than jp reads; jp ended it`;
          this.onerror?.(new Error(this.fault));
          void this.close();
          return;
        }
        this.drain();
      });
      child.stderr.on("data", (chunk: Buffer) => {
        this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_TAIL_BYTES);
      });
    });
  }

  private drain(): void {
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
        continue;
      }
      if (message === null) return;
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin) {
        reject(new Error("the server is not running"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** End the server at once (one that never finished starting owes jp no goodbye). */
  async terminate(): Promise<void> {
    const pid = this.child?.pid;
    if (pid === undefined) return;
    endGroup(pid);
    const timer = setTimeout(() => {
      endGroup(pid, "SIGKILL");
    }, CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
  }

  /** Close stdin, as the protocol says; a server that does not exit is ended, its whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child?.pid) return;
    const pid = child.pid;
    child.stdin?.end();
    const timer = setTimeout(() => {
      endGroup(pid);
      setTimeout(() => {
        endGroup(pid, "SIGKILL");
      }, CLOSE_GRACE_MS).unref();
    }, CLOSE_GRACE_MS);
    await this.exited;
    clearTimeout(timer);
    // Whatever the server started in its group goes with it.
    endGroup(pid);
  }
}
