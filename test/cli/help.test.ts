// Golden help: `jp --help` and `jp conversation --help` list every command and
// how to use it; a change to them shows up here for review.
import { describe, expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../support/workspace.js";

describe("help", () => {
  it("jp --help", async () => {
    const result = await runCli(["--help"], { cwd: REPO_ROOT, env: { COLUMNS: "100" } });
    expect(result.code).toBe(0);
    await expect(result.stdout).toMatchFileSnapshot("golden/jp-help.txt");
  });

  it("jp conversation --help lists every subcommand", async () => {
    const result = await runCli(["conversation", "--help"], { cwd: REPO_ROOT, env: { COLUMNS: "100" } });
    expect(result.code).toBe(0);
    for (const sub of [
      "new",
      "ls",
      "use",
      "show",
      "print",
      "fork",
      "rm",
      "restore",
      "pin",
      "unpin",
      "import",
      "doctor",
      "compact",
    ])
      expect(result.stdout).toMatch(new RegExp(`^  ${sub}\\b`, "m"));
    await expect(result.stdout).toMatchFileSnapshot("golden/jp-conversation-help.txt");
  });

  it("jp q --help says how stdin is used", async () => {
    const result = await runCli(["q", "--help"], { cwd: REPO_ROOT, env: { COLUMNS: "100" } });
    expect(result.stdout).toContain("Text piped on stdin is added after");
    await expect(result.stdout).toMatchFileSnapshot("golden/jp-q-help.txt");
  });
});
