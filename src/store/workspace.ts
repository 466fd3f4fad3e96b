// Owns finding and creating a workspace: the nearest ancestor holding `.jp/`,
// and where jp keeps what is this machine's own in it (state and caches).
import * as fs from "node:fs";
import * as path from "node:path";
import { perWorkspaceDir, userCacheDir, userDataDir } from "../user-cache.js";
import { ForeignWorkspaceError, WorkspaceNotFoundError } from "./errors.js";
import { foreignOwner, trustEntry } from "../trusted-workspaces.js";
import { readRegularFile } from "../regular-file.js";

export const WORKSPACE_DIR = ".jp";

export interface Workspace {
  /** The folder holding `.jp/`. */
  root: string;
  /** The `.jp/` folder itself. */
  dir: string;
  conversationsDir: string;
  trashDir: string;
  /**
   * Where jp keeps this machine's state (`state.json`, the active
   * conversation) and its caches (`cache/`): `.jp/` itself, where jp's own
   * `.gitignore` keeps them out of the repository; in a JP workspace, a folder
   * of the user's cache, so that JP's repository never sees files of jp's.
   */
  localDir: string;
  /** The folder `localDir`'s folders are made within, never through a link below it. */
  localRoot: string;
  /**
   * Where jp makes its conversations (and its trash): `conversationsDir`; in
   * a JP workspace, a folder of the user's data, since JP's repository must
   * never see a file of jp's and JP's loader trashes a folder not in its format.
   */
  ownConversationsDir: string;
  /**
   * In a JP workspace, where jp keeps its own files of a conversation JP
   * wrote (its log when it continues one, its metadata, its locks): a folder
   * of the same name here. Undefined elsewhere: they sit in the folder itself.
   */
  jpFoldersDir?: string;
  /** The folder `ownConversationsDir` and `jpFoldersDir` are made within. */
  ownRoot: string;
}

/** The most `.jp/.id` may hold: JP's warning line and an id. */
const MAX_ID_BYTES = 4096;

/** JP writes `.jp/.id` into each workspace it makes; jp never does. */
export function isJpWorkspace(workspaceDir: string): boolean {
  return fs.existsSync(path.join(workspaceDir, ".id"));
}

/**
 * The workspace's id as a JP tool is told it: JP's own in `.jp/.id` (its last
 * line, under JP's warning not to edit it), else one of jp's from the real
 * path, stable across runs.
 */
export function workspaceId(ws: Workspace): string {
  try {
    // JP writes a line or two; a link to /dev/zero or /dev/tty, a FIFO or a huge file is not JP's.
    const lines = (readRegularFile(path.join(ws.dir, ".id"), MAX_ID_BYTES) ?? "")
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
    const id = lines.at(-1);
    if (id !== undefined) return id;
  } catch {
    // Not a JP workspace: an id of jp's.
  }
  return path.basename(perWorkspaceDir("", ws.root));
}

/** The workspace at `root`; `env` says where the user's cache folder is (for a JP workspace's state). */
export function workspaceAt(root: string, env: NodeJS.ProcessEnv = {}): Workspace {
  const dir = path.join(root, WORKSPACE_DIR);
  const conversationsDir = path.join(dir, "conversations");
  if (!isJpWorkspace(dir))
    return {
      root,
      dir,
      conversationsDir,
      trashDir: path.join(conversationsDir, ".trash"),
      localDir: dir,
      localRoot: dir,
      ownConversationsDir: conversationsDir,
      ownRoot: dir,
    };
  const cache = userCacheDir(env);
  const data = userDataDir(env);
  const own = perWorkspaceDir(path.join(data, "workspaces"), root);
  return {
    root,
    dir,
    conversationsDir,
    trashDir: path.join(own, "conversations", ".trash"),
    localDir: perWorkspaceDir(path.join(cache, "workspaces"), root),
    localRoot: cache,
    ownConversationsDir: path.join(own, "conversations"),
    jpFoldersDir: path.join(own, "jp-conversations"),
    ownRoot: data,
  };
}

/** The workspace at `root`, unless its `.jp/` is another user's that this user has not trusted. */
function adopted(root: string, env: NodeJS.ProcessEnv = {}, foreign = false): Workspace {
  const ws = workspaceAt(root, env);
  const owner = foreignOwner(ws.dir);
  if (owner !== undefined && !foreign && !trustEntry(root, env)) throw new ForeignWorkspaceError(root, owner);
  return ws;
}

/**
 * `--workspace DIR`, then `JP_WORKSPACE`, then the nearest ancestor of `cwd`
 * holding `.jp/`. One another user owns is refused unless this user trusts
 * it (`foreign` finds it anyway, for `jp workspace trust`).
 */
export function findWorkspace(options: {
  explicit?: string;
  env?: NodeJS.ProcessEnv;
  cwd: string;
  foreign?: boolean;
}): Workspace {
  const given = options.explicit ?? options.env?.JP_WORKSPACE;
  if (given) {
    const root = path.resolve(options.cwd, given);
    if (!fs.existsSync(path.join(root, WORKSPACE_DIR))) throw new WorkspaceNotFoundError(root);
    return adopted(root, options.env, options.foreign);
  }
  let current = path.resolve(options.cwd);
  for (;;) {
    if (fs.existsSync(path.join(current, WORKSPACE_DIR)))
      return adopted(current, options.env, options.foreign);
    const parent = path.dirname(current);
    if (parent === current) throw new WorkspaceNotFoundError(options.cwd);
    current = parent;
  }
}

/** Create `.jp/` at `root` if missing; returns whether it was created. */
export function initWorkspace(
  root: string,
  env: NodeJS.ProcessEnv = {},
): { workspace: Workspace; created: boolean } {
  const ws = workspaceAt(path.resolve(root), env);
  const created = !fs.existsSync(ws.dir);
  // A JP workspace is JP's: jp writes nothing into it (its own files live outside, see workspaceAt).
  if (!created && ws.jpFoldersDir) return { workspace: ws, created };
  fs.mkdirSync(ws.conversationsDir, { recursive: true });
  const gitignore = path.join(ws.dir, ".gitignore");
  if (!fs.existsSync(gitignore))
    fs.writeFileSync(
      gitignore,
      "# jp: per-machine state, and caches rebuilt when missing\nstate.json\ncache/\n**/*.lock\n**/*.lock.*\n**/events.pending\n",
    );
  return { workspace: ws, created };
}
