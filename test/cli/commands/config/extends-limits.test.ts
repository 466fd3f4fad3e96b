// `extends` reads only regular files, bounded in size, depth and settings: a device, a pipe, a long chain
// or a huge file is one config error naming it, never a hang, unbounded memory or an internal error.
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "../../../support/workspace.js";

/** A workspace whose config extends `entries`, and `jp config show` run in it. */
async function showWith(entries: string[], prepare: (dir: string) => void = () => {}) {
  const ws = tempWorkspace();
  prepare(ws.dir);
  fs.writeFileSync(path.join(ws.dir, "config.toml"), `extends = ${JSON.stringify(entries)}\n`);
  return runCli(["config", "show"], { cwd: ws.root });
}

describe("extends", () => {
  it("refuses a device such as /dev/zero before reading it", async () => {
    const result = await showWith(["/dev/zero"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/config file \S*dev\/zero is not a regular file/);
  });

  it("refuses a FIFO without waiting for a writer", async () => {
    const result = await showWith(["pipe.toml"], (dir) => {
      expect(spawnSync("mkfifo", [path.join(dir, "pipe.toml")]).status).toBe(0);
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/config file \S*pipe\.toml is not a regular file/);
  });

  it("stops a chain of 3,000 files at a depth it names", async () => {
    const result = await showWith(["c0.toml"], (dir) => {
      for (let i = 0; i < 3000; i++)
        fs.writeFileSync(path.join(dir, `c${i}.toml`), `extends = ["c${i + 1}.toml"]\n`);
      fs.writeFileSync(path.join(dir, "c3000.toml"), "");
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("extends goes 32 files deep, more than jp follows");
  });

  it("refuses a file over 4 MiB, and 40,000 settings", async () => {
    const big = await showWith(["big.toml"], (dir) => {
      fs.writeFileSync(path.join(dir, "big.toml"), `# ${"x".repeat(5 * 1024 * 1024)}\n`);
    });
    expect(big.code).toBe(2);
    expect(big.stderr).toMatch(/config file \S*big\.toml is 5,242,883 bytes, more than jp reads \(4 MiB\)/);
    const many = await showWith(["many.toml"], (dir) => {
      const keys = Array.from({ length: 40_000 }, (_, i) => `k${i} = "anthropic/m${i}"`).join("\n");
      fs.writeFileSync(path.join(dir, "many.toml"), `[providers.llm.aliases]\n${keys}\n`);
    });
    expect(many.code).toBe(2);
    expect(many.stderr).toContain("the configuration holds more than 20,000 settings");
  });
});
