// Owns finding and creating a workspace: the nearest ancestor holding `.jp/`.
import * as fs from "node:fs";
import * as path from "node:path";
import { WorkspaceNotFoundError } from "./errors.js";

export const WORKSPACE_DIR = ".jp";

export interface Workspace {
  /** The folder holding `.jp/`. */
  root: string;
  /** The `.jp/` folder itself. */
  dir: string;
  conversationsDir: string;
  trashDir: string;
}

export function workspaceAt(root: string): Workspace {
  const dir = path.join(root, WORKSPACE_DIR);
  const conversationsDir = path.join(dir, "conversations");
  return { root, dir, conversationsDir, trashDir: path.join(conversationsDir, ".trash") };
}

/** `--workspace DIR`, then `JP_WORKSPACE`, then the nearest ancestor of `cwd` holding `.jp/`. */
export function findWorkspace(options: {
  explicit?: string;
  env?: NodeJS.ProcessEnv;
  cwd: string;
}): Workspace {
  const given = options.explicit ?? options.env?.JP_WORKSPACE;
  if (given) {
    const root = path.resolve(options.cwd, given);
    const ws = workspaceAt(root);
    if (!fs.existsSync(ws.dir)) throw new WorkspaceNotFoundError(root);
    return ws;
  }
  let current = path.resolve(options.cwd);
  for (;;) {
    if (fs.existsSync(path.join(current, WORKSPACE_DIR))) return workspaceAt(current);
    const parent = path.dirname(current);
    if (parent === current) throw new WorkspaceNotFoundError(options.cwd);
    current = parent;
  }
}

/** Create `.jp/` at `root` if missing; returns whether it was created. */
export function initWorkspace(root: string): { workspace: Workspace; created: boolean } {
  const ws = workspaceAt(path.resolve(root));
  const created = !fs.existsSync(ws.dir);
  fs.mkdirSync(ws.conversationsDir, { recursive: true });
  const gitignore = path.join(ws.dir, ".gitignore");
  if (!fs.existsSync(gitignore))
    fs.writeFileSync(
      gitignore,
      "# jp: per-machine state, and caches rebuilt when missing\nstate.json\ncache/\n**/*.lock\n**/*.lock.*\n**/events.pending\n",
    );
  return { workspace: ws, created };
}
