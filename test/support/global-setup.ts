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

export default function setup(): () => void {
  const system = os.tmpdir();
  const root = fs.mkdtempSync(path.join(system, "jp-test-run-"));
  process.env.TMPDIR = root;
  return () => {
    process.env.TMPDIR = system;
    const left = fs.readdirSync(root).filter((name) => !expected(name));
    fs.rmSync(root, { recursive: true, force: true });
    if (left.length > 0) {
      // A teardown error is only logged by vitest; the exit code makes it fail the run.
      console.error(`the tests left ${left.length} unexpected temp entries: ${left.join(", ")}`);
      process.exitCode = 1;
    }
  };
}
