// Owns the user's private temp folder: where the compact tool spills what a
// compaction drops and the approval prompt edits arguments, and which doctor
// cleans of old spill files.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { errnoCode } from "../errors.js";
import { removeFile } from "../remove-file.js";

/**
 * The user's private temp folder for spill files: `jp-<uid>` in the system
 * temp dir when it is a real folder owned by this user and closed to others;
 * otherwise (someone else's, a link, open to others) a fresh `mkdtemp` folder.
 * The uid comes from the process, so a uid without a passwd entry works.
 */
export function privateTempDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = path.join(os.tmpdir(), `jp-${uid}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (errnoCode(error) !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(dir);
  if (stat.isDirectory() && stat.uid === uid && (stat.mode & 0o077) === 0) return dir;
  return fs.mkdtempSync(path.join(os.tmpdir(), "jp-"));
}

/** Spill files older than `maxAgeMs` in the private temp folder are removed (with `dryRun`, only counted); returns how many. */
export function cleanSpillFiles(now: number, maxAgeMs: number, options: { dryRun?: boolean } = {}): number {
  const dir = privateTempDir();
  let old = 0;
  for (const name of fs.readdirSync(dir)) {
    if (!/^compact-.*\.md$/.test(name)) continue;
    const file = path.join(dir, name);
    const stat = fs.lstatSync(file);
    if (stat.isFile() && now - stat.mtimeMs > maxAgeMs) {
      if (!options.dryRun) removeFile(file);
      old++;
    }
  }
  return old;
}
