// print --compacted to a file or pipe: a log held in memory (up to JP_PRINT_HOLD_MB) and one
// streamed twice print the same view.
import * as path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { FIXTURES_DIR, runCli, tempWorkspace } from "../../../support/workspace.js";

const RECORDED = path.join(FIXTURES_DIR, "17758406187-missing-date-in-version-string");
let cwd: string;

const jp = async (args: string[], env: NodeJS.ProcessEnv = {}) => {
  const result = await runCli(args, { cwd, env });
  if (result.code !== 0) throw new Error(`jp ${args.join(" ")} exited ${result.code}: ${result.stderr}`);
  return result.stdout;
};

beforeAll(async () => {
  cwd = tempWorkspace().root;
  const [{ id }] = JSON.parse(await jp(["conversation", "import", "--json", RECORDED])) as [{ id: string }];
  await jp(["conversation", "use", id]);
  // One compaction strips the reasoning and tool calls of the first turn, one summarises the last.
  await jp(["conversation", "compact", "--first", "-r", "-t"]);
  await jp(["conversation", "compact", "--last", "--summary", "The build script now stamps the date."]);
});

it("prints the same compacted view whether the log is held or streamed", async () => {
  const held = await jp(["conversation", "print", "--compacted"]);
  const streamed = await jp(["conversation", "print", "--compacted"], { JP_PRINT_HOLD_MB: "0" });
  expect(held).toContain("2 active compactions");
  expect(streamed).toBe(held);
});

it("refuses a JP_PRINT_HOLD_MB that is not a number of MB", async () => {
  const result = await runCli(["conversation", "print", "--compacted"], {
    cwd,
    env: { JP_PRINT_HOLD_MB: "lots" },
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("JP_PRINT_HOLD_MB is 'lots', not a number of MB");
});
