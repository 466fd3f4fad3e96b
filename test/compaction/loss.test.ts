// The loss report: the facts that leave the model's view and stay nowhere in it.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { factsAtRisk, factsOf, project } from "../../src/compaction/index.js";
import { isKind, type ChatRequest, type Event } from "../../src/events/index.js";
import { convertJpConversation } from "../../src/store/import-jp.js";
import { readLog } from "../../src/store/log.js";
import { at, compaction, STRIP, summary, turn } from "../support/stream.js";

const kinds = (text: string) => Object.fromEntries(factsOf(text).map((f) => [f.text, f.kind]));

describe("factsOf", () => {
  it("finds URLs, paths, error codes, identifiers and numbers, each once and as one kind", () => {
    expect(
      kinds(
        "Fetching https://example.com/api/v2/items?id=7. failed with ENOENT on src/store/log.ts and " +
          "TS2322 in parseLine; retry_count was 1500, version 4.11.0, see `loadConfig` and config.toml.",
      ),
    ).toEqual({
      "https://example.com/api/v2/items?id=7": "url",
      "src/store/log.ts": "path",
      "config.toml": "path",
      ENOENT: "error_code",
      TS2322: "error_code",
      parseLine: "identifier",
      retry_count: "identifier",
      loadConfig: "identifier",
      "1500": "number",
      "4.11.0": "number",
    });
  });

  it("finds nothing in plain prose", () => {
    expect(factsOf("The parser splits every line, so a quoted field breaks in two.")).toEqual([]);
  });

  it("reads a path from the start of its run of characters, and a file name after leading dashes", () => {
    expect(kinds("see a//b/c, --out.json and ~/notes/todo.md...")).toEqual({
      "a//b/c": "path",
      "out.json": "path",
      "~/notes/todo.md": "path",
    });
    // A run that holds no slash is no path, wherever it is cut (a hex dump, a dashed word).
    expect(factsOf("deadbeef".repeat(500))).toEqual([]);
    expect(kinds("x-y-z-w.ts and a-b-c")).toEqual({ "x-y-z-w.ts": "path" });
  });
});

describe("factsAtRisk", () => {
  const raw: Event[] = [
    ...turn({
      request: "Deploy fails: see https://ci.example.com/run/88 for the log",
      tools: [{ id: "c1", name: "read", result: "Error: EACCES opening /etc/deploy/keys/zebra.pem" }],
      message: "The key file /etc/deploy/keys/zebra.pem is not readable.",
    }),
    ...turn("thanks"),
  ];

  it("lists what a summary drops, and not what it names", () => {
    // Without the record of the work, which keeps most of them (test/compaction/record.test.ts).
    const dropping = compaction({
      from_turn: 0,
      to_turn: 0,
      summary: summary("A deploy failed.", "supplied"),
      record: false,
    });
    const before = project(raw).events;
    const lost = factsAtRisk(before, project([...raw, dropping]).events).map((f) => f.text);
    // A URL is one fact: its parts are not counted again.
    expect(lost).toEqual(["https://ci.example.com/run/88", "/etc/deploy/keys/zebra.pem", "EACCES"]);
    const naming = compaction({
      from_turn: 0,
      to_turn: 0,
      summary: summary("Deploy failed with EACCES on /etc/deploy/keys/zebra.pem.", "supplied"),
      record: false,
    });
    const kept = factsAtRisk(before, project([...raw, naming]).events).map((f) => f.text);
    expect(kept).toEqual(["https://ci.example.com/run/88"]);
  });

  it("lists nothing when nothing leaves the view, and what a strip takes from the tool result", () => {
    const view = project(raw).events;
    expect(factsAtRisk(view, view)).toEqual([]);
    const stripped = project([...raw, compaction({ from_turn: 0, to_turn: 0, tool_calls: STRIP })]).events;
    // The answer still names the path; the error code was only in the result.
    expect(factsAtRisk(view, stripped).map((f) => f.text)).toEqual(["EACCES"]);
  });

  it("holds to its definition on random texts: facts of what leaves, that are facts of nothing that stays", () => {
    const word = fc.constantFrom(
      "src/a.ts",
      "lib/b.py",
      "ENOENT",
      "TS2322",
      "https://x.dev/p",
      "fooBar",
      "snake_case",
      "4242",
      "1.2.3",
      "plain",
      "words",
      "here",
    );
    const text = fc.array(word, { minLength: 1, maxLength: 6 }).map((w) => w.join(" "));
    const texts = fc.array(text, { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(texts, fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (all, keep) => {
        const message = (content: string, i: number): ChatRequest => ({
          type: "chat_request",
          timestamp: at(i),
          content,
        });
        const before = all.map(message);
        const after = before.filter((_, i) => keep[i]);
        const facts = (events: ChatRequest[]) =>
          new Set(events.flatMap((e) => factsOf(e.content).map((f) => f.text)));
        const stays = facts(after);
        const left = facts(before.filter((e) => !after.some((a) => a.content === e.content)));
        const expected = [...left].filter((f) => !stays.has(f)).sort();
        const reported = factsAtRisk(before, after).map((f) => f.text);
        expect(new Set(reported).size).toBe(reported.length);
        expect([...reported].sort()).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("factsOf on what people lose", () => {
  it("takes error codes with digits, constants, module paths and dotted names", () => {
    expect(
      kinds(
        "Retry hit ERR_4711 after MAX_RETRIES, rustc said E0308 at ptr::NonNull::from, " +
          "set assistant.model.id, and Windows exited 0xc00000fd.",
      ),
    ).toEqual({
      ERR_4711: "error_code",
      E0308: "error_code",
      "0xc00000fd": "error_code",
      MAX_RETRIES: "identifier",
      "ptr::NonNull::from": "identifier",
      "assistant.model.id": "identifier",
    });
  });

  it("leaves out generated ids, empty quotes and bare fractions", () => {
    expect(
      factsOf('Called toolu_1 and call_7 with `""`, step 1/30 on 2025/12/30; call_count stays.'),
    ).toEqual([{ kind: "identifier", text: "call_count" }]);
  });

  it("never lists a view's tool call ids, whatever their shape", () => {
    const raw = [
      ...turn({
        request: "read it",
        tools: [
          { id: "fs_read_file_0", name: "fs_read_file", result: "fs_read_file_0 returned MAX_RETRIES" },
        ],
        message: "done",
      }),
      ...turn("thanks"),
    ];
    const dropped = compaction({ from_turn: 0, to_turn: 0, summary: summary("Read a file.", "supplied") });
    const lost = factsAtRisk(project(raw).events, project([...raw, dropped]).events).map((f) => f.text);
    expect(lost).toContain("MAX_RETRIES");
    expect(lost).not.toContain("fs_read_file_0");
  });
});

describe("the loss report on a recorded JP conversation", () => {
  // JP's own debugging of a segfault: what dropping all of it would lose, as a reader of it names it.
  const dir = path.resolve(
    "fixtures/jp-conversations/17671120783-investigating-segfault-in-iter-mut-change-tracking",
  );
  const converted = convertJpConversation(dir);
  const events = "reason" in converted ? [] : converted.events;

  it("lists the real facts and none of the generated ids", () => {
    const view = project(events).events;
    const lost = factsAtRisk(view, []).map((f) => f.text);
    for (const fact of [
      "https://github.com/dcdpr/jp/pull/339",
      "crates/jp_tombmap/src/lib.rs",
      "ptr::NonNull::from",
      "hash_map::IterMut",
      "TombMap::iter_mut",
      "Error::CannotRemoveActiveConversation",
      "std::mem::replace",
      "self.state.local.conversations",
    ])
      expect(lost).toContain(fact);
    const callIds = view.flatMap((e) => (isKind(e, "tool_call_request") ? [e.id] : []));
    expect(callIds.length).toBeGreaterThan(5);
    for (const id of callIds) expect(lost).not.toContain(id);
    expect(lost.filter((f) => !/[A-Za-z0-9]/.test(f) || /^[\d.]*\/[\d./]*$/.test(f))).toEqual([]);
  });
});

describe("the loss report on the bundled sample and every recorded JP conversation in the fixtures", () => {
  const jp = path.resolve("fixtures/jp-conversations");
  const logs = fs
    .readdirSync(jp)
    .filter((d) => fs.statSync(path.join(jp, d)).isDirectory())
    .map((d) => {
      const converted = convertJpConversation(path.join(jp, d));
      return "reason" in converted ? [] : converted.events;
    });
  const sample = readLog(
    path.resolve("fixtures/sample/.jp/conversations/17900000000-tidy-the-csv-parser/events.jsonl"),
  ).events;

  it("lists no grep context line, no line-numbered path and no generated id", () => {
    for (const events of [sample, ...logs]) {
      const view = project(events).events;
      const lost = factsAtRisk(view, []).map((f) => f.text);
      expect(lost.length).toBeGreaterThan(10);
      // `crates/jp_storage/src/lib.rs-21-use` (grep -C) and `src/a.rs:12` are the path, once.
      expect(lost.filter((f) => /\.[A-Za-z][A-Za-z0-9]{0,9}[-:]\d+([-:]|$)/.test(f))).toEqual([]);
      // Hashes (`55e0b9ef`), addresses and timestamps printed by programs, tool call ids.
      expect(
        lost.filter((f) => !f.includes("://") && /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b/.test(f)),
      ).toEqual([]);
      expect(lost.filter((f) => /^\d{9,}$/.test(f))).toEqual([]);
      const callIds = view.flatMap((e) => (isKind(e, "tool_call_request") ? [e.id] : []));
      expect(lost.filter((f) => callIds.includes(f))).toEqual([]);
    }
  });
});
