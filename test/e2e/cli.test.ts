// Drives the real bin/jp as a user would.
import { execa } from "execa";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

describe("bin/jp", () => {
  it("prints its version", async () => {
    const result = await execa(JP, ["--version"]);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("runs the README's sample command", async () => {
    const result = await execa(JP, ["--workspace", "fixtures/sample", "conversation", "print"], {
      cwd: REPO_ROOT,
      env: { NO_COLOR: "1" },
    });
    expect(result.stdout).toContain("── turn 4");
  });

  it("exits 2 with a usage error in jp's one error style for an unknown option", async () => {
    const result = await execa(JP, ["conversation", "ls", "--bogus"], { reject: false, cwd: tempDir() });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toBe(
      "jp: error: unknown option '--bogus'\n  hint: run `jp conversation ls --help` for usage",
    );
  });

  it("init, new and ls work end to end, and a closed pipe is not an error", async () => {
    const cwd = tempDir();
    await execa(JP, ["init"], { cwd });
    await execa(JP, ["c", "new", "--title", "one"], { cwd });
    const ls = await execa(JP, ["c", "ls", "--json"], { cwd });
    expect(JSON.parse(ls.stdout)).toHaveLength(1);
    const piped = await execa("sh", [
      "-c",
      `"${JP}" --workspace "${REPO_ROOT}/fixtures/sample" c print | head -1`,
    ]);
    expect(piped.stderr).toBe("");
  });
});
