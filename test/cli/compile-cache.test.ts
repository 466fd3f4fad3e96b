// The compiled-code cache of the CLI bundle, through the real bin/jp: made on
// the first run, used (not made again) on the next, and never read from a
// folder someone else could have written.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const BUNDLE = path.join(REPO_ROOT, "dist/cli.bundle");
const temps: string[] = [];
// The workspaces these runs trust are recorded in a state folder of their own, not the user's.
process.env.XDG_STATE_HOME = tempDir("jp-state-");
temps.push(process.env.XDG_STATE_HOME);

function cacheHome(): string {
  const dir = tempDir("jp-cache-");
  temps.push(dir);
  return dir;
}

/** This build's folder under a cache home. */
function buildFolder(home: string): string {
  const { jpBuild } = JSON.parse(fs.readFileSync(path.join(BUNDLE, "package.json"), "utf8")) as {
    jpBuild: string;
  };
  return path.join(home, "jp/compile-cache", `${process.version}-${process.arch}-${jpBuild}`);
}

/** Each cache file's name with its inode and modification time: a file made again shows as changed. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs.readdirSync(dir).map((name) => {
      const stat = fs.statSync(path.join(dir, name));
      return [name, `${stat.ino}:${stat.mtimeMs}`];
    }),
  );
}

let workspace: string;
// Without the start-up snapshot, whose heap holds the start-up chunks already compiled: the cache
// serves every chunk of such a start, and the chunks loaded later in either kind.
const ls = (home: string, env: Record<string, string> = {}) =>
  execa(JP, ["conversation", "ls"], {
    cwd: workspace,
    env: { NO_COLOR: "1", XDG_CACHE_HOME: home, JP_NO_SNAPSHOT: "1", ...env },
  });

describe("the compiled-code cache of bin/jp", () => {
  beforeAll(async () => {
    workspace = tempDir();
    temps.push(workspace);
    await execa(JP, ["init"], { cwd: workspace });
    await execa(JP, ["c", "new", "--title", "cached"], { cwd: workspace });
  });
  afterAll(() => {
    for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("is made by the first run in a folder only the user may open, and used as it is by the next", async () => {
    const home = cacheHome();
    const first = await ls(home);
    const dir = buildFolder(home);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const made = snapshot(dir);
    expect(Object.keys(made)).toEqual(expect.arrayContaining(["main.js.v8cache"]));
    expect(Object.keys(made).length, "main and the chunks ls loads").toBeGreaterThan(5);
    const second = await ls(home);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stdout).toContain("cached");
    expect(snapshot(dir), "a cache V8 accepted is not made again").toEqual(made);
  });

  it("serves a command started from the start-up snapshot for the chunks it loads from disk only", async () => {
    const home = cacheHome();
    const env = { NO_COLOR: "1", XDG_CACHE_HOME: home };
    await execa(JP, ["conversation", "ls"], { cwd: workspace, env });
    expect(fs.existsSync(buildFolder(home)), "ls loads nothing from disk: no cache is made").toBe(false);
    // Counting the context loads the tokenizer, which is in no start-up chunk.
    await execa(JP, ["conversation", "show", "--context"], { cwd: workspace, env });
    const made = Object.keys(snapshot(buildFolder(home)));
    expect(made.length).toBeGreaterThan(0);
    expect(made, "the snapshot holds main.js").not.toContain("main.js.v8cache");
  });

  it("is made again when V8 rejects what is cached, and jp works all the same", async () => {
    const home = cacheHome();
    await ls(home);
    const file = path.join(buildFolder(home), "main.js.v8cache");
    fs.writeFileSync(file, "not V8's code cache");
    const result = await ls(home);
    expect(result.stdout).toContain("cached");
    expect(fs.readFileSync(file).toString()).not.toBe("not V8's code cache");
  });

  it("is neither read nor written in a folder others may write to", async () => {
    const home = cacheHome();
    await ls(home);
    const dir = buildFolder(home);
    for (const name of fs.readdirSync(dir)) fs.writeFileSync(path.join(dir, name), "planted");
    fs.chmodSync(dir, 0o777);
    const result = await ls(home);
    expect(result.stdout).toContain("cached");
    expect(new Set(fs.readdirSync(dir).map((n) => fs.readFileSync(path.join(dir, n), "utf8")))).toEqual(
      new Set(["planted"]),
    );
  });

  it("costs one rebuild, never a crash, when a bit of a cached file flips or it holds another source's code", async () => {
    const home = cacheHome();
    const first = await ls(home);
    const file = path.join(buildFolder(home), "main.js.v8cache");
    const bytes = fs.readFileSync(file);
    for (const at of [bytes.length - 100, 20, Math.floor(bytes.length / 2)]) {
      const flipped = Buffer.from(bytes);
      flipped[at] = flipped[at]! ^ 0x10;
      fs.writeFileSync(file, flipped, { mode: 0o600 });
      const result = await ls(home);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toBe(first.stdout);
      expect(fs.readFileSync(file).equals(flipped), "made again").toBe(false);
    }
  });

  it("starts clean after a process died while V8 read cached code (its marker left behind)", async () => {
    const home = cacheHome();
    await ls(home);
    const dir = buildFolder(home);
    const before = snapshot(dir);
    // A pid no process has: the one that left the marker is gone.
    fs.writeFileSync(path.join(dir, "loading-4194304"), "");
    const result = await ls(home);
    expect(result.stdout).toContain("cached");
    const after = snapshot(dir);
    expect(Object.keys(after)).not.toContain("loading-4194304");
    expect(after["main.js.v8cache"], "made again").not.toBe(before["main.js.v8cache"]);
  });

  it("is not used under a cache root others may write to (a shared folder another user made first)", async () => {
    const home = cacheHome();
    fs.chmodSync(home, 0o777);
    const result = await ls(home);
    expect(result.stdout).toContain("cached");
    const dir = buildFolder(home);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith(".v8cache")) : []).toEqual([]);
  });

  it("is not used below a folder others may write to without the sticky bit, however private the cache itself", async () => {
    const shared = path.join(cacheHome(), "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    const home = path.join(shared, "mine");
    fs.mkdirSync(home, { mode: 0o700 });
    const result = await ls(home);
    expect(result.stdout).toContain("cached");
    const dir = buildFolder(home);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => n.endsWith(".v8cache")) : []).toEqual([]);
  });

  it("ignores a relative XDG_CACHE_HOME, as the XDG spec says: a repository's folder is never the cache", async () => {
    const home = cacheHome();
    const result = await ls("planted-cache", { HOME: home });
    expect(result.stdout).toContain("cached");
    expect(fs.existsSync(path.join(workspace, "planted-cache"))).toBe(false);
    expect(fs.existsSync(path.join(home, ".cache/jp/compile-cache"))).toBe(true);
  });

  it("is left alone with NODE_DISABLE_COMPILE_CACHE=1, Node's own switch, and with JP_DEBUG=1", async () => {
    const switches: Record<string, string>[] = [{ NODE_DISABLE_COMPILE_CACHE: "1" }, { JP_DEBUG: "1" }];
    for (const env of switches) {
      const home = cacheHome();
      const result = await ls(home, env);
      expect(result.stdout).toContain("cached");
      expect(fs.existsSync(path.join(home, "jp")), JSON.stringify(env)).toBe(false);
    }
  });

  it("removes the folders of builds unused for 30 days when a new build's folder is made", async () => {
    const home = cacheHome();
    const root = path.join(home, "jp/compile-cache");
    fs.mkdirSync(path.join(root, "old-build"), { recursive: true, mode: 0o700 });
    fs.mkdirSync(path.join(root, "recent-build"), { mode: 0o700 });
    fs.chmodSync(root, 0o700);
    const old = new Date(Date.now() - 31 * 24 * 3600 * 1000);
    fs.utimesSync(path.join(root, "old-build"), old, old);
    await ls(home);
    expect(fs.readdirSync(root).sort()).toEqual(["recent-build", path.basename(buildFolder(home))].sort());
  });
});
