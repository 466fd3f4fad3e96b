// Owns saying the configuration's warnings when they change, not before every
// command: the lines said are kept in the user's cache folder, per workspace.
// `config show` lists them all every time.
import * as path from "node:path";
import { makeDirWithin, readJsonFile, writeJsonAtomic } from "../store/files.js";
import { perWorkspaceDir, userCacheDir } from "../user-cache.js";

const FILE = "config-warnings.json";

function fileFor(env: NodeJS.ProcessEnv, workspaceRoot: string | undefined): string {
  return path.join(perWorkspaceDir(path.join(userCacheDir(env), "said"), workspaceRoot), FILE);
}

/** The lines said last time, when the file holds a list of strings (it is untrusted input). */
function saidBefore(file: string): string[] | undefined {
  try {
    const kept = readJsonFile<unknown>(file);
    return Array.isArray(kept) && kept.every((l) => typeof l === "string") ? kept : undefined;
  } catch {
    return undefined;
  }
}

/** The most lines kept: a workspace's warnings are a handful; this only bounds the file. */
const MAX_KEPT = 500;

/**
 * The configuration warnings to say now: those of `lines` not said before in
 * this workspace (a command may read its configuration more than once, with
 * different lines each time, so each line is remembered on its own).
 */
export function warningsToSay(
  env: NodeJS.ProcessEnv,
  workspaceRoot: string | undefined,
  lines: readonly string[],
): string[] {
  const file = fileFor(env, workspaceRoot);
  const before = saidBefore(file) ?? [];
  const fresh = lines.filter((l) => !before.includes(l));
  if (fresh.length === 0) return [];
  try {
    makeDirWithin(userCacheDir(env), path.dirname(file));
    writeJsonAtomic(file, [...before, ...new Set(fresh)].slice(-MAX_KEPT));
  } catch {
    // A cache that cannot be written only means the lines are said again next time.
  }
  return fresh;
}
