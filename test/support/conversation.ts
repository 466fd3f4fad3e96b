// Test helpers: a workspace holding one conversation built from events.
import * as fs from "node:fs";
import * as path from "node:path";
import type { Event } from "../../src/events/index.js";
import { ConversationStore } from "../../src/store/conversations.js";
import type { Workspace } from "../../src/store/workspace.js";
import { runCli, tempWorkspace } from "./workspace.js";

export interface Fixture {
  ws: Workspace;
  id: string;
  log: string;
  run: (...args: string[]) => ReturnType<typeof runCli>;
  json: (...args: string[]) => Promise<unknown>;
}

export function workspaceWith(events: Event[], options: { config?: string; title?: string } = {}): Fixture {
  const ws = tempWorkspace();
  if (options.config !== undefined) fs.writeFileSync(path.join(ws.dir, "config.toml"), options.config);
  const store = new ConversationStore(ws);
  const ref = store.create({ title: options.title ?? "test", events });
  store.setActive(ref.id);
  const env = { HOME: ws.root, XDG_CONFIG_HOME: path.join(ws.root, ".xdg") };
  const run = (...args: string[]) => runCli(args, { cwd: ws.root, env });
  return {
    ws,
    id: ref.id,
    log: path.join(ref.dir, "events.jsonl"),
    run,
    /** jp's --json output of `args`, as the shape `T` the test expects (its assertions check it). */
    json: async <T = unknown>(...args: string[]): Promise<T> => {
      const result = await run(...args);
      if (result.code !== 0)
        throw new Error(`jp ${args.join(" ")} failed (${result.code}): ${result.stderr}`);
      return JSON.parse(result.stdout) as T;
    },
  };
}

/** What a test reads of `jp conversation show --json`: the compactions, as `show` lists them. */
export interface ShownConversation {
  compactions: {
    summary?: { text: string; source: string; author?: string; model?: string };
    tool_overrides?: Record<string, string>;
    [field: string]: unknown;
  }[];
}
