// The cached tool list of a server: found again with the same config in any
// key order, missed when the config changes or the file is damaged.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpServerConfig } from "../../src/config/schema.js";
import { configKey, McpToolCache } from "../../src/mcp/cache.js";
import { expandVariables } from "../../src/mcp/client.js";
import { tempDir } from "../support/workspace.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const server: McpServerConfig = { type: "stdio", command: "just", arguments: ["serve-bookworm"] };
const tools = [{ name: "crates_search", description: "Search.", input_schema: { type: "object" } }];

describe("the MCP tool-list cache", () => {
  it("gives the list back for the same config, whatever the order of its keys", () => {
    const dir = tempDir();
    dirs.push(dir);
    const cache = new McpToolCache(path.join(dir, "mcp"));
    cache.write("bookworm", server, tools, new Date("2026-12-01T00:00:00Z"));
    const reordered: McpServerConfig = { arguments: ["serve-bookworm"], command: "just", type: "stdio" };
    expect(configKey(reordered)).toBe(configKey(server));
    expect(cache.read("bookworm", reordered)).toEqual({ tools, savedAt: "2026-12-01T00:00:00.000Z" });
  });

  it("misses when the config changed, and when the file is damaged", () => {
    const dir = tempDir();
    dirs.push(dir);
    const cache = new McpToolCache(dir);
    cache.write("bookworm", server, tools, new Date());
    expect(cache.read("bookworm", { ...server, arguments: ["serve-bookworm", "--fast"] })).toBeUndefined();
    fs.writeFileSync(path.join(dir, "bookworm.json"), "{ not json");
    expect(cache.read("bookworm", server)).toBeUndefined();
    fs.writeFileSync(
      path.join(dir, "bookworm.json"),
      JSON.stringify({ key: configKey(server), tools: [{}] }),
    );
    expect(cache.read("bookworm", server)).toBeUndefined();
  });
});

describe("header values", () => {
  it("name environment variables as ${NAME}; an unset one is empty", () => {
    const where = {
      server: "docs",
      field: "a header Authorization",
      secrets: new Set(["ANTHROPIC_API_KEY"]),
    };
    expect(expandVariables("Bearer ${TOKEN}", { TOKEN: "t0k" }, where)).toBe("Bearer t0k");
    expect(expandVariables("plain $TOKEN", { TOKEN: "x" }, where)).toBe("plain $TOKEN");
    // Unset or empty: an error naming the variable and the server, never an empty value sent.
    expect(() => expandVariables("Bearer ${MISSING}", { MISSING: "" }, where)).toThrow(
      "MCP server docs has a header Authorization naming ${MISSING}, which is not set",
    );
    expect(() => expandVariables("Bearer ${ANTHROPIC_API_KEY}", { ANTHROPIC_API_KEY: "sk" }, where)).toThrow(
      "a provider key, which jp never sends to an MCP server",
    );
  });
});
