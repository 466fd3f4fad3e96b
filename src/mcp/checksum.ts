// Owns checking a stdio MCP server's program against the checksum its
// config gives (JP's `checksum = { algorithm, value }`), before it is started:
// a program that changed since the checksum was written is not run.
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

export interface Checksum {
  algorithm: "sha256" | "sha1";
  value: string;
}

/** The file `command` runs: a path as given (from `cwd`), else the first executable of that name on PATH. */
export function programPath(command: string, searchPath: string, cwd: string): string | undefined {
  const executable = (file: string) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes("/") || command.includes(path.sep)) {
    const file = path.resolve(cwd, command);
    return executable(file) ? file : undefined;
  }
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    const file = path.resolve(cwd, dir, command);
    if (executable(file)) return file;
  }
  return undefined;
}

/**
 * Why a server's program is not the one its checksum was written for (as
 * jp_mcp's verify_file_checksum finds it), or undefined when it is.
 */
export async function checksumProblem(
  command: string,
  checksum: Checksum,
  where: { searchPath: string; cwd: string },
): Promise<string | undefined> {
  const file = programPath(command, where.searchPath, where.cwd);
  if (file === undefined) return `was not started: no program ${command} was found to check its checksum`;
  const digest = createHash(checksum.algorithm)
    .update(await fs.promises.readFile(file))
    .digest("hex");
  if (digest.toLowerCase() === checksum.value.toLowerCase()) return undefined;
  return `was not started: ${file} does not match its ${checksum.algorithm} checksum (expected ${checksum.value}, got ${digest}); if the program was updated on purpose, put its new checksum in the config`;
}
