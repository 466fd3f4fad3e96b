// The registry is the one list of built-in providers: the README's table
// names each one with its key and its host, and no other.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS, builtInProvider } from "../../../src/llm/providers/index.js";
import { REPO_ROOT } from "../../support/workspace.js";

/** The README's provider table: its rows by the provider they name. */
function readmeRows(): Map<string, string> {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const rows = new Map<string, string>();
  for (const line of readme.split("\n")) {
    const name = /^\| `([a-z0-9-]+)` +\|/.exec(line)?.[1];
    if (name !== undefined && line.split("|").length === 7) rows.set(name, line);
  }
  return rows;
}

describe("the built-in providers", () => {
  it("have one name each", () => {
    const names = BUILT_IN_PROVIDERS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(builtInProvider(name)?.name).toBe(name);
    expect(builtInProvider("nobody")).toBeUndefined();
  });

  it("are the README's table, each row with its keys and its host", () => {
    const rows = readmeRows();
    expect([...rows.keys()].sort()).toEqual(BUILT_IN_PROVIDERS.map((p) => p.name).sort());
    for (const provider of BUILT_IN_PROVIDERS) {
      const row = rows.get(provider.name)!;
      for (const key of provider.keyEnv) expect(row).toContain(`\`${key}\``);
      if (provider.keyEnv.length === 0) expect(row).toMatch(/\| none +\|/);
      const where = provider.baseUrl.replace(/^https?:\/\//, "");
      expect(row).toContain(where);
    }
  });
});
