// The tests' worker processes run the code under test from src/, not an old
// build: each worker is bundled from its TypeScript with esbuild (as the
// benchmarks build the mock server) into the run's temp root, once per test process.
import { buildSync } from "esbuild";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./workspace.js";

const built = new Map<string, string>();

/** The path of a runnable ES module built from test/support/NAME.ts. */
export function workerScript(name: "append-worker" | "create-worker"): string {
  const known = built.get(name);
  if (known) return known;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jp-worker-"));
  const outfile = path.join(dir, `${name}.mjs`);
  buildSync({
    entryPoints: [path.join(REPO_ROOT, "test/support", `${name}.ts`)],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // CommonJS dependencies call require() for Node's built-ins.
    banner: {
      js: 'import { createRequire } from "node:module"; const require = createRequire(import.meta.url);',
    },
    logLevel: "warning",
  });
  built.set(name, outfile);
  return outfile;
}
