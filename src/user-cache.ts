// Owns where jp keeps what it caches outside a workspace: the user's cache
// folder, as the XDG base directory spec names it, with a folder per
// workspace by its real path.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { shortHash } from "./short-hash.js";

/**
 * An XDG base directory from the environment, when it is absolute, else
 * `fallback` under the home folder: the spec says a relative path is
 * invalid and should be ignored (a relative one would name a folder of
 * whatever repository jp runs in).
 */
export function xdgDir(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const given = env[name];
  if (given && path.isAbsolute(given)) return given;
  return path.join(env.HOME || os.homedir(), fallback);
}

/** `$XDG_CACHE_HOME/jp`, else `~/.cache/jp`. */
export function userCacheDir(env: NodeJS.ProcessEnv): string {
  return path.join(xdgDir(env, "XDG_CACHE_HOME", ".cache"), "jp");
}

/** `$XDG_DATA_HOME/jp`, else `~/.local/share/jp`: what jp keeps of the user's that is not a cache. */
export function userDataDir(env: NodeJS.ProcessEnv): string {
  return path.join(xdgDir(env, "XDG_DATA_HOME", ".local/share"), "jp");
}

/** `base`'s folder for one workspace, named by a hash of its real path; `base` itself without one. */
export function perWorkspaceDir(base: string, workspaceRoot: string | undefined): string {
  if (!workspaceRoot) return base;
  let real = workspaceRoot;
  try {
    real = fs.realpathSync(workspaceRoot);
  } catch {
    // A workspace that cannot be resolved is named as given.
  }
  return path.join(base, shortHash(real));
}
