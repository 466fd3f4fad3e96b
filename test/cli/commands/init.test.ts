import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir } from "../../support/workspace.js";

describe("jp init", () => {
  it("creates the workspace in DIR, in --workspace's folder, else in the current folder", async () => {
    const cwd = tempDir();
    const named = path.join(tempDir(), "named");
    const viaOption = tempDir();
    expect((await runCli(["init", named], { cwd })).stdout).toBe(
      `Initialized jp workspace in ${path.join(named, ".jp")}\n`,
    );
    expect((await runCli(["-w", viaOption, "init"], { cwd })).code).toBe(0);
    expect(fs.existsSync(path.join(viaOption, ".jp/conversations"))).toBe(true);
    // Neither touched the folder the command was typed in.
    expect(fs.existsSync(path.join(cwd, ".jp"))).toBe(false);
    expect((await runCli(["init"], { cwd })).code).toBe(0);
    expect(fs.existsSync(path.join(cwd, ".jp/conversations"))).toBe(true);
    expect((await runCli(["init"], { cwd })).stdout).toBe(
      `Workspace already exists in ${path.join(cwd, ".jp")}\n`,
    );
  });
});
