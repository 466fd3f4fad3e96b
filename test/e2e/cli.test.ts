// Drives the real bin/jp as a user would.
import { execa } from "execa";
import * as fs from "node:fs";
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

  it("doctor --clean-spills removes spill files older than 7 days, and with --check only counts them", async () => {
    const cwd = tempDir();
    await execa(JP, ["init"], { cwd });
    const tmp = tempDir();
    const spills = path.join(tmp, `jp-${process.getuid?.() ?? 0}`);
    fs.mkdirSync(spills, { mode: 0o700 });
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    for (const name of ["compact-old-1.md", "compact-old-2.md", "compact-new.md", "notes-old.md"]) {
      fs.writeFileSync(path.join(spills, name), "dropped");
      if (name.includes("old")) fs.utimesSync(path.join(spills, name), eightDaysAgo, eightDaysAgo);
    }
    const env = { NO_COLOR: "1", TMPDIR: tmp };
    const check = await execa(JP, ["c", "doctor", "--check", "--clean-spills"], { cwd, env });
    expect(check.stdout).toBe(
      "2 spill files older than 7 days (--check leaves them; without it they are removed)",
    );
    expect(fs.readdirSync(spills)).toHaveLength(4);
    const clean = await execa(JP, ["c", "doctor", "--clean-spills"], { cwd, env });
    expect(clean.stdout).toBe("removed 2 spill files older than 7 days");
    expect(fs.readdirSync(spills).sort()).toEqual(["compact-new.md", "notes-old.md"]);
  });
});
