import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../src/store/conversations.js";
import { convertJpConversation, decodeJpString, normalizeJpTimestamp } from "../../src/store/import-jp.js";
import { importJpConversation } from "../../src/store/import-into.js";
import { ImportError } from "../../src/store/errors.js";
import { tempDir, tempWorkspace } from "../support/workspace.js";
import { stringContaining } from "../support/matchers.js";

const b64 = (s: string) => Buffer.from(s).toString("base64");
const b64url = (s: string) => Buffer.from(s).toString("base64url");

function jpFolder(name: string, events: unknown[] | undefined, extra: Record<string, unknown> = {}): string {
  const dir = path.join(tempDir(), name);
  fs.mkdirSync(dir);
  fs.writeFileSync(
    path.join(dir, "metadata.json"),
    JSON.stringify({ title: "A title", ...(extra.metadata as object) }),
  );
  if (events) fs.writeFileSync(path.join(dir, "events.json"), JSON.stringify(events, null, 2));
  if (extra.base_config)
    fs.writeFileSync(path.join(dir, "base_config.json"), JSON.stringify(extra.base_config));
  return dir;
}

describe("decodeJpString", () => {
  it("decodes standard and URL-safe base64 of text", () => {
    expect(decodeJpString(b64("src/main.rs"))).toBe("src/main.rs");
    expect(decodeJpString(b64url("a?b>c~~ü"))).toBe("a?b>c~~ü");
  });

  it("repeats while the result is still base64 of text", () => {
    expect(decodeJpString(b64(b64(b64("twice and once more"))))).toBe("twice and once more");
  });

  it("keeps strings that are not base64 of text", () => {
    for (const plain of ["hello world", "test", "abcd", "", "true", "Zm9v!", "src/main.rs"]) {
      expect(decodeJpString(plain)).toBe(plain);
    }
    // Valid base64 of binary bytes stays as it is (an Anthropic signature, say).
    const binary = Buffer.from([0xff, 0x00, 0x9c, 0x81, 0x02]).toString("base64");
    expect(decodeJpString(binary)).toBe(binary);
    expect(decodeJpString(b64(binary))).toBe(binary);
  });
});

describe("normalizeJpTimestamp", () => {
  it("turns JP's UTC timestamps into RFC 3339", () => {
    expect(normalizeJpTimestamp("2026-05-29 19:42:36.46732")).toBe("2026-05-29T19:42:36.46732Z");
    expect(normalizeJpTimestamp("2026-05-29T19:42:36Z")).toBe("2026-05-29T19:42:36Z");
    expect(normalizeJpTimestamp(undefined)).toBeUndefined();
  });
});

describe("convertJpConversation", () => {
  const ts = "2026-05-29 19:42:36.46732";

  it("handles the oldest generation: a leading config_delta flattened beside type, without a timestamp", () => {
    const dir = jpFolder("17000000001", [
      { type: "config_delta", inherit: true, assistant: { model: "x" } },
      { type: "chat_request", timestamp: ts, content: "hi" },
    ]);
    const result = convertJpConversation(dir);
    if ("reason" in result) throw new Error(result.reason);
    expect(result.events[0]).toEqual({
      type: "config_delta",
      timestamp: "2026-05-29T19:42:36.46732Z",
      delta: { inherit: true, assistant: { model: "x" } },
    });
  });

  it("keeps a config_delta that already has `delta`, and turns base_config.json into a leading config_delta", () => {
    const dir = jpFolder(
      "17000000002-slug",
      [
        { type: "config_delta", timestamp: ts, delta: { a: 1 } },
        { type: "chat_request", timestamp: ts, content: "hi" },
      ],
      { base_config: { assistant: { name: "base" } } },
    );
    const result = convertJpConversation(dir);
    if ("reason" in result) throw new Error(result.reason);
    expect(result.originalId).toBe("17000000002");
    expect(result.events.map((e) => e.type)).toEqual(["config_delta", "config_delta", "chat_request"]);
    expect(result.events[0]).toMatchObject({ delta: { assistant: { name: "base" } } });
    expect(result.events[1]).toMatchObject({ delta: { a: 1 } });
  });

  it("decodes tool arguments, tool results and metadata, and leaves chat text alone", () => {
    const dir = jpFolder("17000000003", [
      { type: "chat_request", timestamp: ts, content: b64("not decoded") },
      { type: "chat_response", timestamp: ts, reasoning: "r", metadata: { sig: b64(b64("signature")) } },
      {
        type: "tool_call_request",
        timestamp: ts,
        id: "t1",
        name: "fs",
        arguments: { path: b64("a/b.rs"), list: [b64("x y")], n: 3 },
      },
      { type: "tool_call_response", timestamp: ts, id: "t1", is_error: false, content: b64url("ok ✓") },
    ]);
    const result = convertJpConversation(dir);
    if ("reason" in result) throw new Error(result.reason);
    const [request, reasoning, call, response] = result.events;
    expect(request).toMatchObject({ content: b64("not decoded") });
    expect(reasoning).toMatchObject({ metadata: { sig: "signature" } });
    expect(call).toMatchObject({ arguments: { path: "a/b.rs", list: ["x y"], n: 3 } });
    expect(response).toMatchObject({ content: "ok ✓" });
  });

  it("keeps a `__proto__` key of an event as a key, never as the event's prototype", () => {
    const dir = path.join(tempDir(), "17000000001-proto");
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, "events.json"),
      '[{"type":"chat_request","timestamp":"2025-01-01 00:00:01.0","content":"hi","__proto__":{"polluted":true}}]',
    );
    const converted = convertJpConversation(dir);
    if (!("events" in converted)) throw new Error("not converted");
    const [event] = converted.events;
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(event, "__proto__")?.value).toEqual({ polluted: true });
  });

  it("reports a folder without events instead of crashing", () => {
    expect(convertJpConversation(jpFolder("17000000004", undefined))).toMatchObject({
      reason: stringContaining("no events.json"),
    });
    expect(convertJpConversation(jpFolder("17000000005", []))).toMatchObject({
      reason: stringContaining("no events"),
    });
  });

  it("names the file and entry of an invalid event", () => {
    const dir = jpFolder("17000000006", [{ type: "tool_call_response", timestamp: ts, id: "x" }]);
    expect(() => convertJpConversation(dir)).toThrow(/events\.json: entry 1: invalid tool_call_response/);
  });

  it("refuses a file nested 200,000 levels deep with an import error, not a stack overflow", () => {
    const dir = jpFolder("17000000007", []);
    const depth = 200_000;
    fs.writeFileSync(
      path.join(dir, "events.json"),
      `[{"type":"chat_request","timestamp":"${ts}","content":"x","metadata":{"a":${"[".repeat(depth)}${"]".repeat(depth)}}}]`,
    );
    expect(() => convertJpConversation(dir)).toThrow(ImportError);
    expect(() => convertJpConversation(dir)).toThrow(
      /events\.json: a value is nested more than 1000 levels deep/,
    );
  });
});

describe("importJpConversation", () => {
  it("imports nothing when an entry deep in the file is invalid, naming it, and reports how far it read", () => {
    const ws = tempWorkspace();
    const store = new ConversationStore(ws);
    const good = Array.from({ length: 3000 }, (_, i) => ({
      type: "chat_request",
      timestamp: "2026-05-29 19:42:36",
      content: `question ${i}`,
    }));
    const dir = jpFolder("17000000008", [...good, { type: "tool_call_response", id: "x" }]);
    const read: number[] = [];
    expect(() => importJpConversation(store, dir, (_phase, done) => read.push(done))).toThrow(
      /events\.json: entry 3001: invalid tool_call_response/,
    );
    expect(store.list()).toEqual([]);
    expect(fs.readdirSync(ws.conversationsDir).filter((f) => !f.startsWith(".trash"))).toEqual([]);
    expect(read.at(-1)).toBe(fs.statSync(path.join(dir, "events.json")).size);
  });

  it("refuses a file that is not a JSON array of events, or is cut short", () => {
    const store = new ConversationStore(tempWorkspace());
    const object = jpFolder("17000000009", []);
    fs.writeFileSync(path.join(object, "events.json"), '{"type":"chat_request"}');
    expect(() => importJpConversation(store, object)).toThrow(/expected a JSON array of events/);
    const cut = jpFolder("17000000010", []);
    fs.writeFileSync(
      path.join(cut, "events.json"),
      '[{"type":"chat_request","timestamp":"2026-05-29 19:42:36","content":"a"},{"type":"chat_re',
    );
    expect(() => importJpConversation(store, cut)).toThrow(/the array does not end/);
    expect(store.list()).toEqual([]);
  });

  it("keeps JP's id and title and refuses a second import", () => {
    const store = new ConversationStore(tempWorkspace());
    const dir = jpFolder("17000000007-x", [
      { type: "chat_request", timestamp: "2026-05-29 19:42:36", content: "hi" },
    ]);
    const result = importJpConversation(store, dir);
    expect(result).toMatchObject({ id: "17000000007", title: "A title", counts: { chat_request: 1 } });
    expect(() => importJpConversation(store, dir)).toThrow(ImportError);
    expect(() => importJpConversation(store, dir)).toThrow(/already imported as conversation 17000000007/);
  });
});

describe("folder names and id shapes", () => {
  const events = [
    { type: "chat_request", timestamp: "2026-05-29 19:42:36.46732", content: "hi" },
    { type: "chat_response", timestamp: "2026-05-29 19:42:37.0", message: "hello" },
  ];

  it.each(["my-chat", "jp-c17462040864", "123-short", "17462040864-with-slug"])(
    "imports a folder named %s as a conversation ls lists, once",
    (name) => {
      const ws = tempWorkspace();
      const store = new ConversationStore(ws);
      const source = jpFolder(name, events);
      const result = importJpConversation(store, source);
      expect("reason" in result).toBe(false);
      const listed = store.list().map((r) => r.id);
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatch(/^\d{8,}$/);
      if (name.startsWith("17462040864")) expect(listed[0]).toBe("17462040864");
      expect(store.metadata(store.list()[0]!).imported_from?.original_id).toBe(
        name.startsWith("17462040864") ? "17462040864" : name,
      );
      expect(() => importJpConversation(store, source)).toThrow(/was already imported as conversation/);
    },
  );
});
