// The layering lint (eslint.config.js): the arrows of docs/architecture.md §2
// hold for import() as for import, so a lazy import cannot pass them.
import { ESLint, type Linter } from "eslint";
import * as fs from "node:fs";
import * as path from "node:path";
import tseslint from "typescript-eslint";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/workspace.js";

/** eslint.config.js's entries that hold the layers: none of them needs type information. */
async function layeringLint(): Promise<ESLint> {
  const module: unknown = await import(path.join(REPO_ROOT, "eslint.config.js"));
  const config: unknown = module && typeof module === "object" ? Reflect.get(module, "default") : undefined;
  if (!Array.isArray(config)) throw new Error("eslint.config.js exports no array");
  const entries: unknown[] = config;
  const layers = entries.filter(
    (entry): entry is Linter.Config =>
      typeof entry === "object" &&
      entry !== null &&
      "rules" in entry &&
      typeof entry.rules === "object" &&
      entry.rules !== null &&
      "no-restricted-syntax" in entry.rules,
  );
  return new ESLint({
    cwd: REPO_ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ["**/*.ts"],
        languageOptions: { parser: tseslint.parser },
        plugins: { "@typescript-eslint": tseslint.plugin },
      },
      ...layers,
    ],
  });
}

const fixture = fs.readFileSync(
  path.join(REPO_ROOT, "test/fixtures/layering/mcp-imports-http.ts.txt"),
  "utf8",
);
const messages = async (filePath: string) =>
  (
    await (await layeringLint()).lintText(fixture, { filePath: path.join(REPO_ROOT, filePath) })
  )[0]!.messages.map((m) => `${m.ruleId ?? ""}: ${m.message}`);

describe("the layering lint", () => {
  it("refuses an MCP module importing a provider's wire module with import()", async () => {
    expect(await messages("src/mcp/lazy.ts")).toEqual([
      expect.stringMatching(
        /^no-restricted-syntax: provider details stay in llm\/; use its public face \(llm\/types, /,
      ),
    ]);
  });

  it("refuses a provider's room, statically or lazily, and lets llm/'s public face be imported", async () => {
    const lint = await layeringLint();
    const lintAt = async (text: string) =>
      (await lint.lintText(text, { filePath: path.join(REPO_ROOT, "src/mcp/lazy.ts") }))[0]!.messages.map(
        (m) => m.ruleId,
      );
    expect(await lintAt('export const p = () => import("../llm/providers/anthropic/index.js");\n')).toEqual([
      "no-restricted-syntax",
    ]);
    expect(await lintAt('export const p = () => import("../llm/chat-completions.js");\n')).toEqual([
      "no-restricted-syntax",
    ]);
    expect(await lintAt('export const p = () => import("../llm/errors.js");\n')).toEqual([]);
    expect(await lintAt('export { anthropic } from "../llm/providers/anthropic/index.js";\n')).toEqual([
      "@typescript-eslint/no-restricted-imports",
    ]);
    expect(await lintAt('export { BadRequestError } from "../llm/errors.js";\n')).toEqual([]);
  });

  it("keeps tools/ and tokens/ from llm/ altogether, its public face included, statically or lazily", async () => {
    const lint = await layeringLint();
    const lintAt = async (file: string, text: string) =>
      (await lint.lintText(text, { filePath: path.join(REPO_ROOT, file) }))[0]!.messages.map((m) => m.ruleId);
    for (const file of ["src/tools/lazy.ts", "src/tokens/lazy.ts"]) {
      expect(await lintAt(file, 'export const p = () => import("../llm/errors.js");\n'), file).toEqual([
        "no-restricted-syntax",
      ]);
      expect(
        await lintAt(file, 'export { providerKeyEnvs } from "../llm/create-provider.js";\n'),
        file,
      ).toEqual(["@typescript-eslint/no-restricted-imports"]);
      expect(
        await lintAt(file, 'export type { ToolDefinition } from "../tool-definition.js";\n'),
        file,
      ).toEqual([]);
    }
  });

  it("lets the same import() be where it belongs: in cli/", async () => {
    expect(await messages("src/cli/lazy.ts")).toEqual([]);
  });
});
