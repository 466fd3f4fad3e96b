// Test helpers: temporary workspaces and an in-process CLI runner.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { main } from "../../src/cli/main.js";
import { initWorkspace, type Workspace } from "../../src/store/workspace.js";
import type { Clock } from "../../src/store/clock.js";
import { collectLayers } from "../../src/config/load.js";
import { trustEntry, trustWorkspace } from "../../src/trusted-workspaces.js";

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
/** Where the user's state (the workspaces they trust) is kept for a test that names no HOME of its own. */
let testState: string | undefined;

/** The workspace a command line is run in: -w/--workspace DIR, JP_WORKSPACE, else the nearest .jp/ above `cwd`. */
function workspaceRootOf(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const flag = args.findIndex((a) => a === "-w" || a === "--workspace");
  const given = (flag >= 0 ? args[flag + 1] : undefined) ?? env.JP_WORKSPACE;
  if (given) return path.resolve(cwd, given);
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, ".jp"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * Run the CLI in-process against a workspace, capturing its output. The
 * workspace is one the user made (`jp init`), trusted with what its
 * configuration does when the command runs, unless `untrusted`.
 */
export async function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; stdin?: string; clock?: Clock; untrusted?: boolean },
): Promise<CliResult> {
  testState ??= tempDir();
  const env: NodeJS.ProcessEnv = { NO_COLOR: "1", PAGER: "cat", JP_PRICE_DATA_URL: "off", ...options.env };
  if (env.HOME === undefined && env.XDG_STATE_HOME === undefined) env.XDG_STATE_HOME = testState;
  const root = options.untrusted ? undefined : workspaceRootOf(args, options.cwd, env);
  if (root !== undefined && fs.existsSync(path.join(root, ".jp"))) {
    try {
      trustAsItIs(root, env);
    } catch {
      // A workspace whose configuration cannot be read is the test's to see fail.
    }
  }
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  stderr.on("data", (d: Buffer) => (err += d.toString()));
  const code = await main(args, {
    cwd: options.cwd,
    env,
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

/** Trust the workspace at `root` with what its configuration does now, as `jp workspace trust` records it. */
export function trustAsItIs(root: string, env: NodeJS.ProcessEnv): void {
  const { trust } = collectLayers({ cwd: root, env, workspaceDir: path.join(root, ".jp") });
  // What the user trusted it with before (its personas, by `jp workspace trust`) stays trusted.
  const before = trustEntry(root, env)?.powers ?? [];
  trustWorkspace(root, [...new Set([...before, ...trust.powers])], env, new Date());
}
