// Test helpers: temporary workspaces and an in-process CLI runner.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { main } from "../../src/cli/main.js";
import { initWorkspace, type Workspace } from "../../src/store/workspace.js";
import type { Clock } from "../../src/store/clock.js";

export function tempDir(prefix = "jp-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function tempWorkspace(): Workspace {
  return initWorkspace(tempDir()).workspace;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the CLI in-process against a workspace, capturing its output. */
export async function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string; clock?: Clock },
): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = await main(args, {
    cwd: options.cwd,
    env: { NO_COLOR: "1", PAGER: "cat", JP_PRICE_DATA_URL: "off", ...options.env },
    stdout,
    stderr,
    stdin: Object.assign(new PassThrough().end(options.stdin ?? ""), { isTTY: false }),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  return { code, stdout: out, stderr: err };
}

/**
 * The recorded JP conversations of the corpus tests: the whole recorded set
 * when it sits beside the clone, else the subset kept in fixtures/ (with its
 * licence), so the corpus tests run in any clone.
 */
const SHARED_CORPUS = path.resolve(import.meta.dirname, "../../../shared/fixtures/jp-conversations");
export const FIXTURES_DIR = fs.existsSync(SHARED_CORPUS)
  ? SHARED_CORPUS
  : path.resolve(import.meta.dirname, "../../fixtures/jp-conversations");
export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
