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

it("keeps __complete, which scripts call, out of the commands offered and jp --help", async () => {
  expect(await offered("")).not.toContain("__complete");
  expect((await runCli(["--help"], { cwd: REPO_ROOT })).stdout).not.toContain("__complete");
});

it("__complete says which kinds it knows, and offers nothing outside a workspace where values are the workspace's", async () => {
  const wrong = await runCli(["__complete", "colour"], { cwd: REPO_ROOT });
  expect(wrong.code).toBe(2);
  expect(wrong.stderr).toContain("nothing completes 'colour'");
  const outside = await runCli(["__complete", "conversation"], { cwd: "/" });
  expect(outside).toMatchObject({ code: 0, stdout: "", stderr: "" });
  const keys = await runCli(["__complete", "config-key", "--", "assistant.model."], { cwd: "/" });
  expect(keys.stdout.split("\n")).toContain("assistant.model.id=\tstring");
});

it("prints zsh and fish scripts, and names the shells it knows otherwise", async () => {
  const zsh = await runCli(["completion", "zsh"], { cwd: REPO_ROOT });
  expect(zsh.stdout).toContain("compdef _jp jp");
  expect(zsh.stdout).toContain('"q --id") kind=conversation');
  const fish = await runCli(["completion", "fish"], { cwd: REPO_ROOT });
  expect(fish.stdout).toContain(
    "complete -c jp -f -n '__fish_use_subcommand' -a 'q query init conversation c",
  );
  expect(fish.stdout).toContain("-l hide-reasoning");
  // A value option asks jp for its values.
  expect(fish.stdout).toContain("-s m -x -a '(command jp __complete model -- (commandline -ct))'");
  const other = await runCli(["completion", "tcsh"], { cwd: REPO_ROOT });
  expect(other.code).toBe(2);
  expect(other.stderr).toContain("no completion for 'tcsh'");
});
