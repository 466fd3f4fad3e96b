import * as fs from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { runCli, tempDir, tempWorkspace, REPO_ROOT } from "../../../support/workspace.js";
import type { Workspace } from "../../../../src/store/workspace.js";
import { anyString } from "../../../support/matchers.js";

const SAMPLE = path.join(REPO_ROOT, "fixtures/sample/.jp/conversations/17900000000-tidy-the-csv-parser");

function jpConversation(root: string, name: string, title: string): string {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ title }));
  fs.writeFileSync(
    path.join(dir, "events.json"),
    JSON.stringify([
      { type: "turn_start", timestamp: "2026-05-01 10:00:00.1" },
      { type: "chat_request", timestamp: "2026-05-01 10:00:00.2", content: "read it" },
      {
        type: "tool_call_request",
        timestamp: "2026-05-01 10:00:01",
        id: "t1",
        name: "read",
        arguments: { path: Buffer.from("a.txt").toString("base64") },
      },
      {
        type: "tool_call_response",
        timestamp: "2026-05-01 10:00:02",
        id: "t1",
        is_error: false,
        content: Buffer.from("contents").toString("base64"),
      },
      { type: "chat_response", timestamp: "2026-05-01 10:00:03", message: "done" },
      { type: "turn_start", timestamp: "2026-05-01 11:00:00" },
      { type: "chat_request", timestamp: "2026-05-01 11:00:01", content: "thanks" },
    ]),
  );
  return dir;
}

describe("jp conversation", () => {
  let ws: Workspace;
  const run = (...args: string[]) => runCli(args, { cwd: ws.root });
  beforeEach(() => {
    ws = tempWorkspace();
  });

  it("ls lists every conversation when one folder cannot be read, naming it", async () => {
    const good = JSON.parse((await run("c", "new", "--title", "good", "--json")).stdout) as { id: string };
    const bad = JSON.parse((await run("c", "new", "--title", "bad", "--json")).stdout) as {
      id: string;
      path: string;
    };
    const folder = JSON.parse((await run("c", "new", "--title", "folder", "--json")).stdout) as {
      id: string;
      path: string;
    };
    // Metadata that is not JSON; a log that is a folder (EISDIR).
    fs.writeFileSync(path.join(bad.path, "metadata.json"), "{not json");
    fs.rmSync(path.join(folder.path, "events.jsonl"));
    fs.mkdirSync(path.join(folder.path, "events.jsonl"));
    const ls = await run("c", "ls", "--json");
    expect(ls.code).toBe(0);
    const items = JSON.parse(ls.stdout) as { id: string; error?: string }[];
    expect(items.map((i) => i.id)).toEqual([good.id, bad.id, folder.id]);
    expect(items[0]!.error).toBeUndefined();
    expect(items[2]!.error).toBe(
      `cannot read ${path.join(folder.path, "events.jsonl")}: is a folder where a file belongs`,
    );
    // Metadata jp cannot read is read as absent (doctor names it): that conversation lists as any other.
    expect(items[1]!.error).toBeUndefined();
    expect(ls.stderr).toContain(`cannot be read`);
    expect(ls.stderr).not.toContain("internal error");
  });

  it("every command reading a log that is a folder says so in one line naming the path", async () => {
    const { id, path: dir } = JSON.parse((await run("c", "new", "--json")).stdout) as {
      id: string;
      path: string;
    };
    fs.rmSync(path.join(dir, "events.jsonl"));
    fs.mkdirSync(path.join(dir, "events.jsonl"));
    for (const args of [
      ["c", "show", id],
      ["c", "print", id],
      ["c", "doctor", id],
      ["c", "compact", id],
      ["q", "--id", id, "hello"],
    ]) {
      const result = await run(...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr, args.join(" ")).toBe(
        `jp: error: cannot read ${path.join(dir, "events.jsonl")}: is a folder where a file belongs\n` +
          "  hint: move the folder out of the way\n",
      );
    }
  });

  it("a metadata file without created_at takes the time the id records; one that is not an object is named", async () => {
    const { id, path: dir } = JSON.parse((await run("c", "new", "--title", "t", "--json")).stdout) as {
      id: string;
      path: string;
    };
    fs.writeFileSync(path.join(dir, "metadata.json"), JSON.stringify({ title: "t" }));
    const ls = await run("c", "ls");
    expect(ls.code).toBe(0);
    expect(ls.stderr).toBe("");
    const created = new Date(Number(id) * 100).toISOString();
    const shown = JSON.parse((await run("c", "show", id, "--json")).stdout) as { created_at: string };
    expect(shown.created_at).toBe(created);
    expect((await run("c", "show", id)).stdout).toContain(`created:     ${created}`);

    // A metadata.json jp cannot read is read as absent; doctor names it and moves it aside.
    fs.writeFileSync(path.join(dir, "metadata.json"), "[]");
    const show = await run("c", "show", id);
    expect(show.code).toBe(0);
    const check = await run("c", "doctor", id, "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("metadata.json is not a JSON object; jp reads it as absent");
    // `jp doctor` is the short form, and says the same.
    expect(await run("doctor", id, "--check")).toEqual(check);
    expect((await run("c", "doctor", id)).code).toBe(0);
    expect(fs.readdirSync(dir).some((f) => f.startsWith("metadata.json.unreadable-"))).toBe(true);
    expect((await run("c", "doctor", id, "--check")).code).toBe(0);
  });

  it("every command refuses a -c value that names nothing; show also refuses a broken config", async () => {
    const { id } = JSON.parse((await run("c", "new", "--json")).stdout) as { id: string };
    for (const args of [
      ["c", "ls"],
      ["c", "show", id],
      ["c", "print", id],
      ["c", "doctor", id],
    ]) {
      const result = await run("-c", "nosuch", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain(
        "jp: error: -c nosuch: no such file, and no nosuch.toml in .jp/config.d/",
      );
    }
    fs.writeFileSync(path.join(ws.root, ".jp/config.toml"), "[assistant]\ncache = 3\n");
    const show = await run("c", "show", id);
    expect(show.code).toBe(2);
    expect(show.stderr).toContain("jp: error: .jp/config.toml: assistant.cache must be true or false; got 3");
  });

  it("new creates an active conversation whose folder carries the title's slug", async () => {
    const created = await run("conversation", "new", "--title", "Fix the Parser!", "--json");
    expect(created.code).toBe(0);
    const { id, path: dir } = JSON.parse(created.stdout) as { id: string; path: string };
    expect(path.basename(dir)).toBe(`${id}-fix-the-parser`);
    const ls: unknown = JSON.parse((await run("c", "ls", "--json")).stdout);
    expect(ls).toEqual([
      {
        id,
        title: "Fix the Parser!",
        turns: 0,
        events: 0,
        created_at: anyString,
        last_event_at: null,
        active: true,
        labels: [],
        archived_at: null,
      },
    ]);
  });

  it("imports JP conversations and reports counts per kind as JSON", async () => {
    const root = tempDir();
    jpConversation(root, "17000000100-first", "First");
    jpConversation(root, "17000000200-second", "Second");
    fs.mkdirSync(path.join(root, "17000000300-empty"));
    fs.writeFileSync(path.join(root, "17000000300-empty", "metadata.json"), "{}");
    const result = await run("c", "import", root, "--json");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("skipped");
    const imported: unknown = JSON.parse(result.stdout);
    expect(imported).toEqual([
      {
        id: "17000000100",
        title: "First",
        source: path.join(root, "17000000100-first"),
        counts: {
          turn_start: 2,
          chat_request: 2,
          tool_call_request: 1,
          tool_call_response: 1,
          chat_response: 1,
        },
      },
      {
        id: "17000000200",
        title: "Second",
        source: path.join(root, "17000000200-second"),
        counts: {
          turn_start: 2,
          chat_request: 2,
          tool_call_request: 1,
          tool_call_response: 1,
          chat_response: 1,
        },
      },
    ]);

    const again = await run("c", "import", path.join(root, "17000000100-first"));
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already imported as conversation 17000000100");

    const ls = JSON.parse((await run("c", "ls", "--json")).stdout) as {
      id: string;
      turns: number;
      events: number;
      last_event_at: string;
    }[];
    expect(ls.map((c) => [c.id, c.turns, c.events, c.last_event_at])).toEqual([
      ["17000000100", 2, 7, "2026-05-01T11:00:01Z"],
      ["17000000200", 2, 7, "2026-05-01T11:00:01Z"],
    ]);
  });

  it("imports every conversation of a JP .jp/ folder, and reports a folder without conversations", async () => {
    const root = tempDir();
    jpConversation(path.join(root, ".jp", "conversations"), "17000000300-third", "Third");
    jpConversation(path.join(root, ".jp", "conversations"), "17000000400-fourth", "Fourth");
    const result = await run("c", "import", path.join(root, ".jp"), "--json");
    expect((JSON.parse(result.stdout) as { id: string }[]).map((r) => r.id)).toEqual([
      "17000000300",
      "17000000400",
    ]);
    const empty = await run("c", "import", tempDir());
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain("holds no conversation");
  });

  it("resolves ids by unique prefix and explains ambiguity", async () => {
    const root = tempDir();
    jpConversation(root, "17000000100-first", "First");
    jpConversation(root, "17000000200-second", "Second");
    await run("c", "import", root);
    expect((JSON.parse((await run("c", "show", "170000001", "--json")).stdout) as { id: string }).id).toBe(
      "17000000100",
    );
    const ambiguous = await run("c", "show", "1700000");
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toBe(
      "jp: error: '1700000' matches 2 conversations: 17000000100, 17000000200\n  hint: give more characters of the id\n",
    );
    const missing = await run("c", "show", "999");
    expect(missing.stderr).toContain("no conversation matches '999'");
  });

  it("show --json has the documented fields; print --json groups stored events by 1-based turn", async () => {
    const root = tempDir();
    jpConversation(root, "17000000100-first", "First");
    await run("c", "import", root);
    await run("c", "use", "17000000100");
    const show = JSON.parse((await run("c", "show", "--json")).stdout) as { path: string };
    expect(show).toMatchObject({ id: "17000000100", title: "First", turns: 2, events: 7, compactions: [] });
    expect(show.path).toBe(path.join(ws.conversationsDir, "17000000100-first"));

    const print = JSON.parse((await run("c", "print", "--json")).stdout) as {
      id: string;
      turns: { turn: number; events: unknown[] }[];
    };
    expect(print.id).toBe("17000000100");
    expect(print.turns.map((t) => [t.turn, t.events.length])).toEqual([
      [1, 5],
      [2, 2],
    ]);
    expect(print.turns[0]?.events[2]).toEqual({
      type: "tool_call_request",
      timestamp: "2026-05-01T10:00:01Z",
      id: "t1",
      name: "read",
      arguments: { path: "a.txt" },
    });
  });

  it("print renders user, assistant, reasoning, tool calls and results under 1-based turns", async () => {
    fs.cpSync(SAMPLE, path.join(ws.conversationsDir, path.basename(SAMPLE)), { recursive: true });
    const out = (await run("c", "print", "17900000000")).stdout;
    expect(out).toMatch(/── turn 1 ─+/);
    expect(out).toMatch(/── turn 4 ─+/);
    expect(out).not.toMatch(/── turn 5/);
    expect(out).toContain("reasoning\n  The user reports quoted fields");
    expect(out).toContain("tool call read_file call_1");
    expect(out).toContain("tool result run_tests call_3 error\n  FAIL test/csv.test.ts");
    expect(out).toContain("user\n  Great. Now add support for a custom delimiter");
  });

  it("fork copies everything, or only the last N turns with configuration, and makes the fork active", async () => {
    fs.cpSync(SAMPLE, path.join(ws.conversationsDir, path.basename(SAMPLE)), { recursive: true });
    const full = JSON.parse((await run("c", "fork", "17900000000", "--json")).stdout) as { id: string };
    const original = fs.readFileSync(path.join(SAMPLE, "events.jsonl"), "utf8");
    const copied = fs.readFileSync(
      path.join(
        ws.conversationsDir,
        fs.readdirSync(ws.conversationsDir).find((d) => d.startsWith(full.id))!,
        "events.jsonl",
      ),
      "utf8",
    );
    expect(copied).toBe(original);

    const last = JSON.parse((await run("c", "fork", "17900000000", "--last", "2", "--json")).stdout) as {
      id: string;
    };
    const show = JSON.parse((await run("c", "show", "--json")).stdout) as {
      id: string;
      turns: number;
      kinds: Record<string, number>;
      title: string;
    };
    expect(show.id).toBe(last.id);
    expect(show.turns).toBe(2);
    expect(show.kinds.config_delta).toBe(1);
    expect(show.title).toBe("Tidy the CSV parser (fork)");

    const bad = await run("c", "fork", "17900000000", "--last", "0");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--last takes a positive number of turns, got '0'");
  });

  it("rm moves the conversation to the trash and deletes nothing", async () => {
    const { id } = JSON.parse((await run("c", "new", "--title", "gone", "--json")).stdout) as { id: string };
    const rm = await run("c", "rm", id, "--json");
    expect(JSON.parse(rm.stdout)).toEqual({
      id,
      path: path.join(ws.trashDir, `${id}-gone`),
      was_active: true,
    });
    expect(JSON.parse((await run("c", "ls", "--json")).stdout)).toEqual([]);
    expect(fs.readdirSync(ws.trashDir)).toEqual([`${id}-gone`]);
    expect(fs.existsSync(path.join(ws.trashDir, `${id}-gone`, "events.jsonl"))).toBe(true);
    const show = await run("c", "show");
    expect(show.stderr).toContain("no active conversation");
  });

  it("restore brings a trashed conversation back, never over a live one", async () => {
    const { id } = JSON.parse((await run("c", "new", "--title", "gone", "--json")).stdout) as { id: string };
    const rm = await run("c", "rm", id);
    expect(rm.stderr).toContain(`jp conversation restore ${id} brings it back`);
    const restored = await run("c", "restore", id.slice(0, 9), "--json");
    expect(restored.code).toBe(0);
    expect(JSON.parse(restored.stdout)).toEqual({ id, path: path.join(ws.conversationsDir, `${id}-gone`) });
    expect(
      (JSON.parse((await run("c", "ls", "--json")).stdout) as { id: string }[]).map((c) => c.id),
    ).toEqual([id]);
    expect(fs.readdirSync(ws.trashDir)).toEqual([]);
    const again = await run("c", "restore", id);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(`jp: error: no conversation matches '${id}'\n  hint: the trash is empty\n`);
    // A copy trashed while a live one has the id stays in the trash.
    fs.cpSync(path.join(ws.conversationsDir, `${id}-gone`), path.join(ws.trashDir, `${id}-gone`), {
      recursive: true,
    });
    const clash = await run("c", "restore", id);
    expect(clash.stderr).toContain(`jp: error: a conversation ${id} already exists in this workspace`);
    expect(fs.readdirSync(ws.trashDir)).toEqual([`${id}-gone`]);
  });

  it("imports the conversation folders of another jp workspace, with a total for many", async () => {
    const other = tempWorkspace();
    const created: string[] = [];
    for (let i = 0; i < 12; i++) {
      const result = await runCli(["c", "new", "--title", `t${i}`, "--json"], { cwd: other.root });
      const { id } = JSON.parse(result.stdout) as { id: string };
      fs.appendFileSync(
        path.join(other.conversationsDir, `${id}-t${i}`, "events.jsonl"),
        '{"type":"turn_start","timestamp":"2026-01-01T00:00:00Z"}\n{"type":"chat_request","timestamp":"2026-01-01T00:00:01Z","content":"hi"}\n',
      );
      created.push(id);
    }
    const imported = await run("c", "import", path.join(other.root, ".jp"));
    expect(imported.code).toBe(0);
    expect(imported.stdout).toBe("Imported 12 of 12 conversations (24 events).\n");
    const ls = JSON.parse((await run("c", "ls", "--json")).stdout) as {
      id: string;
      title: string;
      events: number;
    }[];
    expect(ls.map((c) => [c.id, c.events])).toEqual(created.map((id) => [id, 2]));
    expect(ls[3]!.title).toBe("t3");
  });

  it("doctor quarantines a malformed middle line and a torn tail, keeping the old log", async () => {
    const { id } = JSON.parse((await run("c", "new", "--json")).stdout) as { id: string };
    const dir = path.join(ws.conversationsDir, id);
    const log = path.join(dir, "events.jsonl");
    const good = '{"type":"chat_request","timestamp":"2026-01-01T00:00:00Z","content":"hi"}';
    fs.writeFileSync(log, `${good}\n{broken\n${good}\n{"type":"tur`);
    const before = await run("c", "print", id);
    expect(before.code).toBe(1);
    expect(before.stderr).toContain(`${log}:2: not valid JSON`);
    expect(before.stderr).toContain(`hint: run \`jp conversation doctor ${id}\``);

    const check = JSON.parse((await run("c", "doctor", id, "--check", "--json")).stdout) as {
      findings: { kind: string; line?: number }[];
    }[];
    expect(check[0]?.findings.map((f) => [f.kind, f.line])).toEqual([
      ["malformed_line", 2],
      ["torn_tail", undefined],
    ]);
    expect(fs.readFileSync(log, "utf8")).toContain("{broken");

    const repaired = JSON.parse((await run("c", "doctor", id, "--json")).stdout) as { backup: string }[];
    expect(fs.readFileSync(log, "utf8")).toBe(`${good}\n${good}\n`);
    const quarantine = fs.readFileSync(path.join(dir, "events.quarantine"), "utf8");
    expect(quarantine).toContain("{broken");
    expect(quarantine).toContain('{"type":"tur');
    expect(fs.readFileSync(repaired[0]!.backup, "utf8")).toContain("{broken");
    // The two questions never got an answer: the next doctor run marks the turn failed, by appending.
    expect((await run("c", "doctor", id)).stdout).toContain("unanswered request");
    expect((await run("c", "doctor", id)).stdout).toBe(`${id}: ok\n`);
  });

  it("reads a log that starts with a byte order mark, and doctor removes the mark, changing nothing else", async () => {
    const { id } = JSON.parse((await run("c", "new", "--json")).stdout) as { id: string };
    const log = path.join(ws.conversationsDir, id, "events.jsonl");
    const lines =
      '{"type":"turn_start","timestamp":"2026-01-01T00:00:00Z"}\n' +
      '{"type":"chat_request","timestamp":"2026-01-01T00:00:01Z","content":"hi"}\n' +
      '{"type":"chat_response","timestamp":"2026-01-01T00:00:02Z","message":"hello"}\n';
    fs.writeFileSync(log, "\uFEFF" + lines);
    expect((await run("c", "print", id)).stdout).toContain("hello");
    const check = await run("c", "doctor", id, "--check");
    expect(check.code).toBe(1);
    expect(check.stdout).toContain("byte order mark");
    expect((await run("c", "doctor", id)).code).toBe(0);
    expect(fs.readFileSync(log, "utf8")).toBe(lines);
    expect((await run("c", "doctor", id, "--check")).code).toBe(0);
  });

  it("fails with a usage hint outside a workspace", async () => {
    const result = await runCli(["c", "ls"], { cwd: tempDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^jp: error: no jp workspace found at or above .*\n {2}hint: run `jp init` here, or pass --workspace DIR\n$/,
    );
  });
});

describe("jp conversation doctor on the provider view", () => {
  it("reports an unanswered tool call in a finished turn without changing the log", async () => {
    const ws = tempWorkspace();
    const { id } = JSON.parse((await runCli(["c", "new", "--json"], { cwd: ws.root })).stdout) as {
      id: string;
    };
    const log = path.join(ws.conversationsDir, id, "events.jsonl");
    const lines = [
      { type: "turn_start", timestamp: "2026-01-01T00:00:00Z" },
      { type: "chat_request", timestamp: "2026-01-01T00:00:01Z", content: "q" },
      {
        type: "tool_call_request",
        timestamp: "2026-01-01T00:00:02Z",
        id: "lost",
        name: "grep",
        arguments: {},
      },
      { type: "turn_start", timestamp: "2026-01-01T00:00:03Z" },
      { type: "chat_request", timestamp: "2026-01-01T00:00:04Z", content: "q2" },
      { type: "chat_response", timestamp: "2026-01-01T00:00:05Z", message: "a2" },
    ];
    fs.writeFileSync(log, lines.map((l) => JSON.stringify(l) + "\n").join(""));
    const before = fs.readFileSync(log, "utf8");
    const result = await runCli(["c", "doctor", id], { cwd: ws.root });
    expect(result.stdout).toBe(`${id}: view problem: turn 1: tool call lost has no response\n`);
    expect(fs.readFileSync(log, "utf8")).toBe(before);
  });
});
