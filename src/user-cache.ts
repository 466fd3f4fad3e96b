// Owns where jp keeps what it caches outside a workspace: the user's cache
// folder, as the XDG base directory spec names it.
import * as os from "node:os";
import * as path from "node:path";

/** `$XDG_CACHE_HOME/jp`, else `~/.cache/jp`. */
export function userCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || path.join(env.HOME || os.homedir(), ".cache");
  return path.join(base, "jp");
}
