// Metadata changes from processes running at once: each read-modify-write of
// metadata.json happens under the conversation's metadata lock, so none is lost.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";
import { REPO_ROOT } from "../../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("four `label` processes at once, twelve labels each, and an archive among them: nothing is lost", async () => {
  w = await qWorkspace();
  expect((await w.jp("conversation", "new", "--json")).code).toBe(0);
  const [listed] = JSON.parse((await w.jp("conversation", "ls", "--json")).stdout) as { id: string }[];
  const id = listed!.id;
  const run = (...args: string[]) =>
    execa(JP, args, { cwd: w!.root, env: w!.env, reject: false, stdin: "ignore" });
  const labeller = async (who: number) => {
    for (let n = 0; n < 12; n++) {
      const out = await run("conversation", "label", id, `p${who}-${n}`);
      expect(out.exitCode, out.stderr).toBe(0);
    }
  };
  const archive = (async () => {
    const out = await run("conversation", "archive", id);
    expect(out.exitCode, out.stderr).toBe(0);
  })();
  await Promise.all([labeller(0), labeller(1), labeller(2), labeller(3), archive]);
  const shown = await w.jp("conversation", "label", id, "--json");
  const labels = (JSON.parse(shown.stdout) as { labels: string[] }).labels;
  expect(labels.sort()).toEqual(
    [0, 1, 2, 3].flatMap((who) => Array.from({ length: 12 }, (_, n) => `p${who}-${n}`)).sort(),
  );
  const stored = JSON.parse(fs.readFileSync(path.join(w.folder(), "metadata.json"), "utf8")) as {
    archived_at?: string;
  };
  expect(stored.archived_at).toEqual(expect.any(String));
});
