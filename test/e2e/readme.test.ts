// The README's shell examples run as printed: every line of its sh blocks that
// calls jp and needs no provider key runs, in order, on a copy of the bundled
// sample workspace (placeholders `[ID]` dropped, `ID` the sample's id).
import { build } from "esbuild";
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../support/workspace.js";

const SAMPLE_ID = "17900000000";

/** The jp lines of the README's sh blocks, comments removed. */
function readmeLines(): string[] {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const lines: string[] = [];
  for (const block of readme.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)) {
    for (const raw of block[1]!.split("\n")) {
      const line = raw.replace(/\s{2,}#.*$/, "").trim();
      const command = line.replace(/^npm install && /, "");
      if (/^(jp|\.\/bin\/jp) /.test(command)) lines.push(command);
    }
  }
  return lines;
}

/** A provider request (`q`) or a generated summary (`-k s…`, `-s`) needs a key. */
const needsKey = (line: string) => /(^|\s)(q|query)(\s|$)|\s-k[ =]s\b|\s-s(\s|$)/.test(line);

describe("README examples", () => {
  it("run as printed on the sample workspace when they need no key", async () => {
    const root = tempDir();
    const home = path.join(root, "home");
    const bin = path.join(root, "bin");
    const ws = path.join(root, "ws");
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join(REPO_ROOT, "bin/jp"), path.join(bin, "jp"));
    fs.cpSync(path.join(REPO_ROOT, "fixtures/sample/.jp"), path.join(ws, ".jp"), { recursive: true });
    // What `jp conversation import ~/old/.jp` finds: one JP conversation.
    const old = path.join(home, "old/.jp/conversations/17000000001-old");
    fs.mkdirSync(old, { recursive: true });
    fs.writeFileSync(path.join(old, "metadata.json"), JSON.stringify({ title: "old" }));
    fs.writeFileSync(
      path.join(old, "events.json"),
      JSON.stringify([
        { type: "turn_start", timestamp: "2026-01-01 00:00:00" },
        { type: "chat_request", timestamp: "2026-01-01 00:00:01", content: "hi" },
      ]),
    );

    // What `jp init --from-jp ~/old` finds: JP's configuration, one MCP server and a tool from it.
    fs.writeFileSync(
      path.join(home, "old/.jp/config.toml"),
      '[providers.mcp.bookworm]\ntype = "stdio"\ncommand = "just"\narguments = ["serve-bookworm"]\n\n[conversation.tools.crates_search]\nsource = "mcp.bookworm"\n',
    );

    const runnable = readmeLines().filter((line) => !needsKey(line));
    expect(runnable.length).toBeGreaterThanOrEqual(15);
    for (const line of runnable) {
      const command = line.replace(/ \[ID\]/g, "").replace(/ ID\b/g, ` ${SAMPLE_ID}`);
      const result = await execa("sh", ["-c", command], {
        cwd: command.startsWith("./bin/jp") ? REPO_ROOT : ws,
        env: { ...process.env, HOME: home, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: "1" },
        reject: false,
        stdin: "ignore",
      });
      expect(result.exitCode, `${line}\n${result.stderr}`).toBe(0);
      expect(result.stderr, line).not.toContain("error");
      // The first command shows the dry run alone: reading a cloned sample needs no word about trust.
      if (command.startsWith("./bin/jp") && command.includes("--dry-run"))
        expect(result.stderr, line).toBe("");
    }
  });
});

describe("README library example", () => {
  const file = path.join(REPO_ROOT, "docs/examples/compactor-sdks.ts");

  it("is the example file, which the project's type check covers", () => {
    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const blocks = [...readme.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);
    expect(blocks).toContain(fs.readFileSync(file, "utf8"));
    const tsconfig = fs.readFileSync(path.join(REPO_ROOT, "tsconfig.json"), "utf8");
    expect(tsconfig).toContain('"docs/examples"');
  });

  it("runs: both SDKs' histories come back compacted, each summary where its API takes it", async () => {
    const out = path.join(tempDir(), "compactor-sdks.mjs");
    await build({
      entryPoints: [file],
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: out,
      alias: { jp: path.join(REPO_ROOT, "src/index.ts") },
      logLevel: "warning",
    });
    const { stdout } = await execa("node", [out]);
    expect(stdout).toBe("openai: 121 → 46 messages, then system\nanthropic: 120 → 45 messages, first user");
  });
});
