// The unit tier's setup: no test of it starts a process. Every way Node has
// of starting one (child_process, and so execa) throws here, with the name of
// the call, so a test that needs a process belongs to the end-to-end tier
// (vitest.config.ts) and says so by failing in this one.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import { afterAll, expect } from "vitest";

const STARTERS = ["spawn", "spawnSync", "exec", "execSync", "execFile", "execFileSync", "fork"] as const;

/** The starts a test of this file tried, even one whose error the code under test caught. */
const tried: string[] = [];

for (const name of STARTERS) {
  // The default export is the module object itself, which every import of it shares.
  Reflect.set(childProcess, name, () => {
    tried.push(name);
    throw new Error(
      `the unit tier starts no process: ${name}() was called; list its file in vitest.config.ts (STARTS_PROCESSES), the end-to-end tier`,
    );
  });
}
// ESM's named imports of a built-in follow its CommonJS exports only once synced.
syncBuiltinESMExports();

afterAll(() => {
  expect(tried, "processes this file tried to start").toEqual([]);
});
