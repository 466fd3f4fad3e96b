// Reading never writes: the read-only commands leave every file of a
// conversation folder (which git may track) exactly as it was, the bundled
// sample's included. Their caches go to .jp/cache/, which jp init ignores.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli, tempDir } from "../support/workspace.js";

const SAMPLE = path.join(REPO_ROOT, "fixtures/sample");

/** Every file under `dir` but the caches, with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, file);
    if (rel.startsWith(`.jp${path.sep}cache${path.sep}`)) continue;
    out[rel] = crypto.createHash("sha1").update(fs.readFileSync(file)).digest("hex");
  }
  return out;
}

describe("read-only commands", () => {
  it("change no file of the workspace but its caches", async () => {
    const root = tempDir();
    fs.cpSync(SAMPLE, root, { recursive: true });
    const before = snapshot(root);
    expect(Object.keys(before).some((f) => f.endsWith("metadata.json"))).toBe(true);
    const env = { HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg"), PATH: process.env.PATH ?? "" };
    for (const args of [
      ["conversation", "ls"],
      ["conversation", "show"],
      ["conversation", "show", "--json"],
      ["conversation", "show", "--context"],
      ["conversation", "show", "--context", "--json"],
      ["conversation", "print"],
      ["conversation", "print", "--compacted"],
      ["conversation", "compact", "--dry-run"],
      ["conversation", "grep", "quoted"],
      ["conversation", "grep", "--compacted", "quoted"],
      ["conversation", "doctor", "--check"],
      ["config", "show"],
      ["config", "show", "--json"],
      ["mcp", "ls"],
    ]) {
      // A copied folder is one the user did not make: read-only commands work untrusted.
      const result = await runCli(args, { cwd: root, env, untrusted: true });
      expect(result.code, args.join(" ")).toBe(0);
      expect(snapshot(root), args.join(" ")).toEqual(before);
    }
    // The counts are kept, where jp init's .gitignore leaves them out of git.
    expect(fs.readdirSync(path.join(root, ".jp/cache/stats"))).toHaveLength(1);
    expect(fs.readFileSync(path.join(root, ".jp/.gitignore"), "utf8")).toContain("cache/");
  });
});
