// __proto__, constructor and prototype never enter jp's configuration: not
// from a TOML file, a -c value nor a conversation's config. Stored data (a log
// line, a model's tool arguments) keeps them as keys like any other, and
// Object.prototype stays clean either way.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { loadConfig } from "../../src/config/load.js";
import { forbiddenKeyPath, MAX_DEPTH, tooDeep } from "../../src/events/index.js";
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

  it("do not count in stored data: only nesting too deep does, found in one walk over the values", () => {
    expect(tooDeep({ text: "constructor ".repeat(1000), list: [1, { ok: true }] })).toBe(false);
    expect(tooDeep(JSON.parse('{"a":[{"b":{"prototype":1,"__proto__":{"polluted":true}}}]}'))).toBe(false);
    const nest = (levels: number, leaf: unknown) => {
      let v = leaf;
      for (let i = 0; i < levels; i++) v = i % 2 ? { d: v } : [v];
      return v;
    };
    expect(tooDeep(nest(MAX_DEPTH, 1))).toBe(false);
    expect(tooDeep(nest(MAX_DEPTH + 1, {}))).toBe(true);
    expect(tooDeep("plain")).toBe(false);
  });

  it("in a log line are kept as keys, read and written back exactly, polluting nothing", () => {
    const d = dir();
    const line =
      '{"type":"chat_request","timestamp":"2026-01-01T00:00:01Z","content":"x","metadata":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}';
    fs.writeFileSync(
      path.join(d, "events.jsonl"),
      JSON.stringify({ type: "turn_start", timestamp: "2026-01-01T00:00:00Z" }) + "\n" + line + "\n",
    );
    const { events } = new EventLog(d).read();
    expect(JSON.stringify(events[1])).toBe(line);
    expect(Object.getPrototypeOf((events[1] as { metadata: object }).metadata)).toBe(Object.prototype);
  });

  it("are rejected in TOML and in -c, naming where; in a conversation's recorded config they are data, left out", async () => {
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
    const recorded = await load({
      deltas: [
        JSON.parse('{"assistant":{"constructor":{"prototype":{"polluted":true}}}}') as Record<
          string,
          unknown
        >,
      ],
    });
    expect(recorded.ignored).toEqual([
      "the conversation's recorded config (delta 1) has a key assistant.constructor; jp leaves it out",
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
