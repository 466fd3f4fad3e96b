// Every test run gets its own temp root (TMPDIR, inherited by the workers and
// every jp they start), removed at the end; then the system temp folder is
// checked for anything a test left outside it, which fails the run.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export default function setup(): () => void {
  const system = os.tmpdir();
  const before = new Set(fs.readdirSync(system));
  const root = fs.mkdtempSync(path.join(system, "jp-test-run-"));
  process.env.TMPDIR = root;
  return () => {
    process.env.TMPDIR = system;
    fs.rmSync(root, { recursive: true, force: true });
    // Another test run's root (a second `npm test` on the machine) is that run's to remove.
    const left = fs
      .readdirSync(system)
      .filter(
        (name) => !before.has(name) && /^(jp-|compact-)/.test(name) && !name.startsWith("jp-test-run-"),
      );
    if (left.length > 0) {
      // A teardown error is only logged by vitest; the exit code makes it fail the run.
      console.error(`the tests left ${left.length} temp entries in ${system}: ${left.join(", ")}`);
      process.exitCode = 1;
    }
  };
}
