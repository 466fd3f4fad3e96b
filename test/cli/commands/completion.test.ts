// `jp completion SHELL`: the bash script, run by bash itself, completes commands, subcommands and options.
import { execa } from "execa";
import * as path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT, runCli } from "../../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");

/** What bash offers after `words` (the last one being completed), with jp's script loaded. */
async function offered(...words: string[]): Promise<string[]> {
  const script = [
    `eval "$('${JP}' completion bash)"`,
    `COMP_WORDS=(jp ${words.map((w) => `'${w}'`).join(" ")})`,
    `COMP_CWORD=${words.length}`,
    "_jp_complete",
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const { stdout } = await execa("bash", ["-c", script]);
  return stdout.split("\n").filter(Boolean);
}

it("completes commands, the subcommands of conversation (and its alias c), and each command's options", async () => {
  expect(await offered("")).toEqual(
    expect.arrayContaining(["q", "init", "conversation", "c", "config", "model", "mcp", "completion"]),
  );
  expect(await offered("conversation", "gr")).toEqual(["grep"]);
  expect(await offered("c", "compact", "--dr")).toEqual(["--dry-run"]);
  expect(await offered("q", "--hide")).toEqual(["--hide-reasoning", "--hide-tool-calls"]);
  expect(await offered("conversation", "ls", "--")).toEqual(
    expect.arrayContaining(["--label", "--archived", "--json"]),
  );
});

it("prints zsh and fish scripts, and names the shells it knows otherwise", async () => {
  const zsh = await runCli(["completion", "zsh"], { cwd: REPO_ROOT });
  expect(zsh.stdout).toContain("bashcompinit");
  const fish = await runCli(["completion", "fish"], { cwd: REPO_ROOT });
  expect(fish.stdout).toContain(
    "complete -c jp -f -n '__fish_use_subcommand' -a 'q query init conversation c",
  );
  expect(fish.stdout).toContain("-l hide-reasoning");
  const other = await runCli(["completion", "tcsh"], { cwd: REPO_ROOT });
  expect(other.code).toBe(2);
  expect(other.stderr).toContain("no completion for 'tcsh'");
});
