// Runs each step of `npm test` in turn and prints how long it took, with the
// machine's cores and load, and each test tier's count: the figures the README
// states. `node scripts/suite-figures.mjs` (after `npm install`, as a fresh clone
// has it). Exits non-zero when a step fails, after printing every figure.
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";

const STEPS = [
  ["build", "npm", ["run", "build"]],
  ["typecheck", "npm", ["run", "typecheck"]],
  ["lint", "npm", ["run", "lint"]],
  ["graph", "npm", ["run", "graph"]],
  ["unit tier", "npx", ["vitest", "run", "--project", "unit"]],
  ["end-to-end tier", "npx", ["vitest", "run", "--project", "e2e"]],
];

/** Runs `command`, keeping its output; resolves with its exit code and output. */
function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
console.log(`${availableParallelism()} cores, load ${load()} (1, 5, 15 min)`);
let total = 0;
let failed = false;
for (const [name, command, args] of STEPS) {
  const start = performance.now();
  const { code, output } = await run(command, args);
  const seconds = (performance.now() - start) / 1000;
  total += seconds;
  // Vitest's summary line: "Tests  822 passed | 5 skipped (827)".
  const tests = /^\s*Tests\s+(.*)$/m.exec(output)?.[1]?.trim();
  console.log(
    `${name.padEnd(16)} ${seconds.toFixed(0).padStart(5)} s${tests ? `  ${tests}` : ""}${code === 0 ? "" : `  FAILED (exit ${code})`}  load ${load()}`,
  );
  if (code !== 0) {
    failed = true;
    process.stderr.write(output.slice(-4000));
  }
}
console.log(`${"npm test".padEnd(16)} ${total.toFixed(0).padStart(5)} s`);
process.exitCode = failed ? 1 : 0;
