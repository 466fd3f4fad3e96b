// Owns the user's record of the workspaces they trust: kept in the user's own
// state folder (never in a workspace, where a repository could plant it),
// keyed by the workspace's real path, each with what the workspace would run
// and where it would send keys when it was trusted, so that a change to
// either is asked about again (as direnv asks again when `.envrc` changes).
import * as fs from "node:fs";
import * as path from "node:path";
import { readRegularFile } from "./regular-file.js";
import { xdgDir } from "./user-cache.js";

/** `$XDG_STATE_HOME/jp`, else `~/.local/state/jp`. */
export function userStateDir(env: NodeJS.ProcessEnv): string {
  return path.join(xdgDir(env, "XDG_STATE_HOME", ".local/state"), "jp");
}

const TRUST_FILE = "trusted-workspaces.json";
/** The record is a few lines per workspace: anything larger is not one jp wrote. */
const MAX_TRUST_FILE_BYTES = 4 * 1024 * 1024;

export interface TrustEntry {
  /** When the user trusted it (ISO 8601). */
  trusted_at: string;
  /** What it would run and where it would send keys, as the user was shown it. */
  powers: string[];
}

type TrustFile = Record<string, TrustEntry>;

/** The workspace root's real path (links resolved), the key of its entry. */
export function realRoot(root: string): string {
  try {
    return fs.realpathSync(root);
  } catch {
    return path.resolve(root);
  }
}

function entryOf(value: unknown): TrustEntry | undefined {
  if (typeof value !== "object" || value === null || !("trusted_at" in value) || !("powers" in value))
    return undefined;
  const { trusted_at: at, powers } = value;
  if (typeof at !== "string" || !Array.isArray(powers)) return undefined;
  const strings = powers.filter((p): p is string => typeof p === "string");
  return strings.length === powers.length ? { trusted_at: at, powers: strings } : undefined;
}

function readTrustFile(env: NodeJS.ProcessEnv): TrustFile {
  const file: TrustFile = {};
  try {
    const text = readRegularFile(path.join(userStateDir(env), TRUST_FILE), MAX_TRUST_FILE_BYTES);
    const parsed: unknown = text === undefined ? {} : JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return file;
    for (const [root, value] of Object.entries(parsed)) {
      const entry = entryOf(value);
      if (entry) file[root] = entry;
    }
  } catch {
    // An unreadable record trusts nothing: the user is asked again.
  }
  return file;
}

function writeTrustFile(env: NodeJS.ProcessEnv, file: TrustFile): void {
  const dir = userStateDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = path.join(dir, TRUST_FILE);
  const temp = `${target}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, target);
}

/** The user's entry for the workspace at `root`, if they trusted it. */
export function trustEntry(root: string, env: NodeJS.ProcessEnv): TrustEntry | undefined {
  return readTrustFile(env)[realRoot(root)];
}

/** What of `powers` the user has not trusted at `root` (all of them when they never trusted it). */
export function untrustedPowers(
  entry: TrustEntry | undefined,
  powers: readonly string[],
): string[] | undefined {
  if (!entry) return undefined;
  const known = new Set(entry.powers);
  return powers.filter((power) => !known.has(power));
}

/** Whether the workspace's current powers are all ones the user trusted it with. */
export function isTrusted(root: string, powers: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return untrustedPowers(trustEntry(root, env), powers)?.length === 0;
}

/** Record that the user trusts the workspace at `root` with `powers`. */
export function trustWorkspace(
  root: string,
  powers: readonly string[],
  env: NodeJS.ProcessEnv,
  now: Date,
): void {
  const file = readTrustFile(env);
  file[realRoot(root)] = { trusted_at: now.toISOString(), powers: [...powers] };
  writeTrustFile(env, file);
}

/** Forget the user's trust in the workspace at `root`; whether there was any. */
export function untrustWorkspace(root: string, env: NodeJS.ProcessEnv): boolean {
  const file = readTrustFile(env);
  const key = realRoot(root);
  if (!Object.hasOwn(file, key)) return false;
  // The key is the workspace's own path: computed by design.
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete
  delete file[key];
  writeTrustFile(env, file);
  return true;
}

/** The uid that owns `dir` (not following a link), when it is not the user running jp. */
export function foreignOwner(dir: string): number | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  try {
    const owner = fs.lstatSync(dir).uid;
    return owner === uid ? undefined : owner;
  } catch {
    return undefined;
  }
}
