// Runs the benchmarks (or the ones named on the command line) and prints each ratio against its limit.
const ALL = {
  append: async () => (await import("./append.js")).appendBench(),
  read: async () => (await import("./read.js")).readBench(),
  project: async () => (await import("./project.js")).projectBench(),
  tokens: async () => (await import("./tokens.js")).tokensBench(),
  cli: async () => (await import("./cli.js")).cliBench(),
  auto: async () => (await import("./auto.js")).autoBench(),
  record: async () => (await import("./record.js")).recordBench(),
  cost: async () => (await import("./cost.js")).costBench(),
  print: async () => (await import("./print.js")).printBench(),
  import: async () => (await import("./import.js")).importBench(),
  sse: async () => (await import("./sse.js")).sseBench(),
  linear: async () => (await import("./linear.js")).linearBench(),
};

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(ALL);
let failed = false;
for (const name of names) {
  const run = ALL[name];
  if (!run) {
    console.error(`unknown benchmark '${name}'; known: ${Object.keys(ALL).join(", ")}`);
    process.exit(2);
  }
  // A benchmark gives one result or several (bench/cli measures several commands).
  for (const result of [await run()].flat()) {
    const ok = result.ratio <= result.limit;
    failed ||= !ok;
    console.log(
      `${result.name.padEnd(10)} ratio ${result.ratio.toFixed(2)} (limit ${result.limit}) ${ok ? "ok" : "OVER"}  ${result.detail}`,
    );
  }
}
process.exitCode = failed ? 1 : 0;
