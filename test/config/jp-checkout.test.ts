// dcdpr/jp's own workspace, in place: its .jp/ (configuration, personas, tools and recorded
// conversations) copied from a checkout of dcdpr/jp named by JP_CHECKOUT. The repository cannot carry
// that workspace (it is JP's, and large), so this runs where a checkout is at hand; the same paths run on
// every clone against the workspace in test/support/jp-files.ts and the recorded conversations in fixtures/.
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Config } from "../../src/config/schema.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

const checkout = process.env.JP_CHECKOUT;
const CONVERSATION = "17800836875";

/** Every file under `dir`, with a hash of its bytes. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), crypto.createHash("sha1").update(fs.readFileSync(file)).digest("hex"));
  }
  return out;
}

describe.skipIf(checkout === undefined)(
  "dcdpr/jp's own workspace in place (set JP_CHECKOUT to a checkout of dcdpr/jp)",
  () => {
    let w: QWorkspace;
    let before: Map<string, string>;
    beforeAll(async () => {
      w = await qWorkspace({
        script: [{ text: "continued in dcdpr/jp's workspace" }, { text: "the workspace holds JP" }],
      });
      fs.rmSync(path.join(w.root, ".jp"), { recursive: true });
      fs.cpSync(path.join(checkout!, ".jp"), path.join(w.root, ".jp"), { recursive: true });
      before = hashes(path.join(w.root, ".jp"));
      w.env.ANTHROPIC_API_KEY = w.env.MOCK_API_KEY!;
    });
    afterAll(async () => {
      await w.close();
    });
    const mockProvider = () => ["-c", `providers.anthropic.base_url=${JSON.stringify(w.mock.url)}`];

    it("config show, with and without a persona, in one warning line", async () => {
      for (const persona of [[], ["-c", "dev"], ["-c", "architect"]]) {
        const shown = await w.jp("config", "show", ...persona, "--json");
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stderr.trimEnd().split("\n")).toHaveLength(1);
        const config = JSON.parse(shown.stdout) as Config;
        expect(config.assistant?.system_prompt).toContain("You are Jean-Pierre");
      }
    });

    it("leaves out none of the workspace's tools, nor its MCP server", async () => {
      const shown = await w.jp("config", "show", "--json");
      const config = JSON.parse(shown.stdout) as Config;
      const names = (dir: string): string[] =>
        fs
          .readdirSync(dir, { recursive: true, encoding: "utf8" })
          .filter((f) => f.endsWith(".toml"))
          .flatMap((f) => [
            ...fs.readFileSync(path.join(dir, f), "utf8").matchAll(/^\[conversation\.tools\.(\w+)\]$/gm),
          ])
          .map((m) => m[1]!);
      const declared = [...new Set(names(path.join(w.root, ".jp/mcp")))];
      expect(declared.length).toBeGreaterThan(50);
      for (const name of declared) expect(Object.keys(config.conversation?.tools ?? {})).toContain(name);
      expect(Object.keys(config.providers?.mcp ?? {})).toContain("bookworm");
      expect(shown.stderr).not.toMatch(/left out .*tool/);
    });

    it("ls, print and grep read JP's conversations in place", async () => {
      const listed = JSON.parse((await w.jp("conversation", "ls", "--json")).stdout) as {
        id: string;
        turns: number;
      }[];
      expect(listed.length).toBeGreaterThan(10);
      expect(listed.every((c) => c.turns > 0)).toBe(true);
      const printed = await w.jp("conversation", "print", CONVERSATION);
      expect(printed.code, printed.stderr).toBe(0);
      expect(printed.stdout.length).toBeGreaterThan(10_000);
      expect((await w.jp("conversation", "grep", "-i", "xdg", CONVERSATION)).code).toBe(0);
    });

    it("q continues a JP conversation with its recorded sections and instructions", async () => {
      const folder = fs
        .readdirSync(path.join(w.root, ".jp/conversations"))
        .find((f) => f.startsWith(CONVERSATION))!;
      const base = JSON.parse(
        fs.readFileSync(path.join(w.root, ".jp/conversations", folder, "base_config.json"), "utf8"),
      ) as {
        assistant: { instructions: { value: { title: string }[] } };
      };
      expect((await w.jp("conversation", "use", CONVERSATION)).code).toBe(0);
      const asked = await w.jp("q", ...mockProvider(), "where did we leave the XDG question?");
      expect(asked.code, asked.stderr).toBe(0);
      const body = w.mock.requests[0]!.body as { system: { text: string }[]; tools?: { name: string }[] };
      const system = body.system.map((b) => b.text).join("\n\n");
      for (const { title } of base.assistant.instructions.value)
        expect(system).toContain(`<instruction title="${title.replace(/"/g, "&quot;")}"`);
      // The later deltas' sections (the git-staging skill) are there too.
      expect(system).toContain("You have been given the git-staging skill");
      const after = hashes(path.join(w.root, ".jp"));
      for (const [file, hash] of before) expect(after.get(file), file).toBe(hash);
    });

    it("offers the tools a persona enables, written for JP (`just serve-tools {{context}} {{tool}}`)", async () => {
      // The bookworm server is served by `just`, which this machine may lack.
      const optional = ["-c", "providers.mcp.bookworm.optional=true"];
      const asked = await w.jp(
        "-c",
        "dev",
        ...optional,
        "q",
        ...mockProvider(),
        "-n",
        "what does the workspace hold?",
      );
      expect(asked.code, asked.stderr).toBe(0);
      const offered = w.mock.requests.flatMap((r) =>
        ((r.body.tools ?? []) as { name: string }[]).map((t) => t.name),
      );
      for (const name of ["fs_read_file", "fs_grep_files", "git_diff", "cargo_check"])
        expect(offered).toContain(name);
    });
  },
);
