// __proto__, constructor and prototype never enter jp: not from a log line, a
// TOML file, a -c value nor a conversation's config; Object.prototype stays clean.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { loadConfig } from "../../src/config/load.js";
import { forbiddenKeyPath, MAX_DEPTH, valueProblem } from "../../src/events/index.js";
import { MalformedLogError } from "../../src/store/errors.js";
import { EventLog } from "../../src/store/log.js";
import { tempDir } from "../support/workspace.js";

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
});

function dir(): string {
  const d = tempDir();
  temps.push(d);
  return d;
}

describe("forbidden keys", () => {
  it("are found at any depth, with their path, and only as keys", () => {
    expect(forbiddenKeyPath(JSON.parse('{"a":[{"b":{"__proto__":{"polluted":true}}}]}'))).toBe(
      "a[0].b.__proto__",
    );
    expect(forbiddenKeyPath({ x: { constructor: 1 } })).toBe("x.constructor");
    expect(forbiddenKeyPath({ text: "the constructor and __proto__ in prose" })).toBeUndefined();
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    expect(forbiddenKeyPath(deep)).toBeUndefined();
  });

  it("and nesting too deep are found in one walk over the values, not the text", () => {
    expect(valueProblem({ text: "constructor ".repeat(1000), list: [1, { ok: true }] })).toBeUndefined();
    expect(valueProblem(JSON.parse('{"a":[{"b":{"prototype":1}}]}'))).toEqual({
      kind: "forbidden_key",
      path: "a[0].b.prototype",
    });
    const nest = (levels: number, leaf: unknown) => {
      let v = leaf;
      for (let i = 0; i < levels; i++) v = i % 2 ? { d: v } : [v];
      return v;
    };
    expect(valueProblem(nest(MAX_DEPTH, 1))).toBeUndefined();
    expect(valueProblem(nest(MAX_DEPTH + 1, {}))).toEqual({ kind: "too_deep" });
    expect(valueProblem("plain")).toBeUndefined();
  });

  it("make a log line malformed, naming the file, line and key", () => {
    const d = dir();
    fs.writeFileSync(
      path.join(d, "events.jsonl"),
      JSON.stringify({ type: "turn_start", timestamp: "2026-01-01T00:00:00Z" }) +
        "\n" +
        '{"type":"chat_request","timestamp":"2026-01-01T00:00:01Z","content":"x","metadata":{"__proto__":{"polluted":true}}}\n',
    );
    const read = () => new EventLog(d).read();
    expect(read).toThrow(MalformedLogError);
    expect(read).toThrow(/events\.jsonl:2.*forbidden key `metadata\.__proto__`/);
  });

  it("are rejected in TOML, in -c and in a conversation's config, naming where", async () => {
    const root = dir();
    fs.mkdirSync(path.join(root, ".jp"));
    const load = (options: { cfg?: string[]; deltas?: Record<string, unknown>[] } = {}) =>
      loadConfig({ cwd: root, env: { HOME: root }, workspaceDir: path.join(root, ".jp"), ...options });
    fs.writeFileSync(path.join(root, ".jp/config.toml"), "[conversation.tools.__proto__]\npolluted = true\n");
    await expect(load()).rejects.toThrow(ConfigError);
    await expect(load()).rejects.toThrow(".jp/config.toml: key conversation.tools.__proto__ is not allowed");
    fs.writeFileSync(path.join(root, ".jp/config.toml"), "");
    await expect(load({ cfg: ["assistant.__proto__.polluted=true"] })).rejects.toThrow(
      "key __proto__ is not allowed",
    );
    await expect(
      load({
        deltas: [
          JSON.parse('{"assistant":{"constructor":{"prototype":{"polluted":true}}}}') as Record<
            string,
            unknown
          >,
        ],
      }),
    ).rejects.toThrow("key assistant.constructor is not allowed");
  });
});
