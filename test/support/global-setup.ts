// Every test run gets its own temp root (TMPDIR, inherited by the workers and
// every process they start), removed at the end. What the run's processes made
// is therefore in that root, and only there is it looked at: another jp or
// another test run on the machine writes to the system temp folder, which
// this run cannot tell from its own and so leaves alone.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** What may be in the root at the end: the test helpers' folders and jp's private folder (spill files are kept there by design). */
function expected(name: string): boolean {
  const uid = process.getuid?.() ?? 0;
  return /^jp-(test|worker)-/.test(name) || name === `jp-${uid}`;
}

/** The run's root, shared by the tiers (vitest sets each project up on its own, in one process). */
interface RunRoot {
  root: string;
  system: string;
  users: number;
}
const RUN_ROOT = Symbol.for("jp.test-run-root");
type WithRunRoot = typeof globalThis & { [RUN_ROOT]?: RunRoot };

export default function setup(): () => void {
  const scope: WithRunRoot = globalThis;
  if (scope[RUN_ROOT] === undefined) {
    const system = os.tmpdir();
    const root = fs.mkdtempSync(path.join(system, "jp-test-run-"));
    process.env.TMPDIR = root;
    scope[RUN_ROOT] = { root, system, users: 0 };
  }
  const run = scope[RUN_ROOT];
  run.users += 1;
  return () => {
    run.users -= 1;
    if (run.users > 0) return;
    scope[RUN_ROOT] = undefined;
    process.env.TMPDIR = run.system;
    const left = fs.readdirSync(run.root).filter((name) => !expected(name));
    fs.rmSync(run.root, { recursive: true, force: true });
    if (left.length > 0) {
      // A teardown error is only logged by vitest; the exit code makes it fail the run.
      console.error(`the tests left ${left.length} unexpected temp entries: ${left.join(", ")}`);
      process.exitCode = 1;
    }
  };
}
