// bin/jp starts Node from the CLI's start-up snapshot when the snapshot was
// built for the node that runs it, wherever the package has moved since; else
// without it. Either way a command does the same. Which start a process made
// is read from its command line in /proc while it waits for its question.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_PROC, nodeStartedBy } from "../support/node-start.js";
import { REPO_ROOT, tempDir } from "../support/workspace.js";

const temps: string[] = [];
const env = { NO_COLOR: "1", XDG_CACHE_HOME: "", XDG_STATE_HOME: "" };

/** The command line Node was started with by `jp` (its own path) for `jp q`. */
async function startedWith(jp: string, cwd: string): Promise<string[]> {
  return (await nodeStartedBy(jp, cwd, { ...process.env, ...env })).argv;
}

/** A copy of the built package (launcher, bundle, snapshot, data) at another path. */
function movedPackage(): string {
  const root = tempDir("jp-moved-");
  temps.push(root);
  for (const part of ["bin", "config", "dist/cli.bundle", "dist/price-data", "package.json"])
    fs.cpSync(path.join(REPO_ROOT, part), path.join(root, part), { recursive: true });
  return root;
}

describe.skipIf(!HAS_PROC)("bin/jp and the start-up snapshot (the start read from /proc)", () => {
  let workspace: string;
  beforeAll(async () => {
    workspace = tempDir();
    temps.push(workspace);
    env.XDG_CACHE_HOME = path.join(workspace, "cache");
    env.XDG_STATE_HOME = path.join(workspace, "state");
    await execa(path.join(REPO_ROOT, "bin/jp"), ["init"], { cwd: workspace, env });
  });
  afterAll(() => {
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("starts from the snapshot built for this node, and says what it says without it", async () => {
    const jp = path.join(REPO_ROOT, "bin/jp");
    expect(await startedWith(jp, workspace)).toContain("--snapshot-blob");
    const help = await execa(jp, ["--help"], { cwd: workspace, env });
    const without = await execa(jp, ["--help"], { cwd: workspace, env: { ...env, JP_NO_SNAPSHOT: "1" } });
    expect(help.stdout).toContain("Usage: jp");
    expect(help.stdout).toBe(without.stdout);
  });

  it("from a package moved since the build, starts from its snapshot and runs the moved bundle", async () => {
    const moved = movedPackage();
    const jp = path.join(moved, "bin/jp");
    const argv = await startedWith(jp, workspace);
    expect(argv).toContain(`${moved}/bin/../dist/cli.bundle/snapshot.blob`);
    // The moved bundle's code runs, not the build's copy in the heap: it reads the moved package's version.
    const manifest = path.join(moved, "package.json");
    fs.writeFileSync(
      manifest,
      fs.readFileSync(manifest, "utf8").replace(/"version": "[^"]*"/, '"version": "9.9.9-moved"'),
    );
    expect((await execa(jp, ["--version"], { cwd: workspace, env })).stdout).toBe("9.9.9-moved");
    // And it works on the user's files: a conversation made through it is listed through the original.
    await execa(jp, ["conversation", "new", "--title", "made by the moved copy"], { cwd: workspace, env });
    const listed = await execa(path.join(REPO_ROOT, "bin/jp"), ["conversation", "ls"], {
      cwd: workspace,
      env,
    });
    expect(listed.stdout).toContain("made by the moved copy");
  });

  it("starts without the snapshot when it was built for another node, with the same result", async () => {
    const moved = movedPackage();
    const jp = path.join(moved, "bin/jp");
    fs.writeFileSync(path.join(moved, "dist/cli.bundle/snapshot.key"), `${process.execPath} 1\n`);
    const argv = await startedWith(jp, workspace);
    expect(argv).not.toContain("--snapshot-blob");
    expect(argv).toContain(jp);
    const listed = await execa(jp, ["conversation", "ls"], { cwd: workspace, env });
    expect(listed.stdout).toContain("made by the moved copy");
  });
});
