// A JP user's habits at the command line: JP's short command names and its
// ways of naming a conversation (`.`, `n`, `jp-c<id>`).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { execa } from "execa";
import { REPO_ROOT, runCli, tempWorkspace } from "../../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("JP's habits", () => {
  it("c s ., c p ., c u ID, c list and cfg show work as JP's short forms", async () => {
    const ws = tempWorkspace();
    const jp = (...args: string[]) => runCli(args, { cwd: ws.root });
    const made = async (title: string) =>
      (JSON.parse((await jp("conversation", "new", "--title", title, "--json")).stdout) as { id: string }).id;
    const older = await made("older");
    const newer = await made("newer");
    const used = await jp("c", "u", older);
    expect(used.code, used.stderr).toBe(0);
    // `.` is the active conversation.
    const shown = await jp("c", "s", ".", "--json");
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { id: string }).id).toBe(older);
    expect((await jp("c", "p", ".")).code).toBe(0);
    // `n` is the newest, and jp-c<id> is JP's way of writing an id.
    expect((JSON.parse((await jp("c", "s", "n", "--json")).stdout) as { id: string }).id).toBe(newer);
    expect((JSON.parse((await jp("c", "s", `jp-c${older}`, "--json")).stdout) as { id: string }).id).toBe(
      older,
    );
    expect((await jp("c", "list")).stdout).toContain("newer");
    const config = await jp("cfg", "show");
    expect(config.code, config.stderr).toBe(0);
    expect(config.stdout).toContain("assistant.model.id");
  });
});

describe("a persona", () => {
  it("given with -c stays with the conversation: the next plain jp q keeps its model and instructions", async () => {
    w = await qWorkspace({ script: [{ text: "one" }, { text: "two" }] });
    fs.mkdirSync(path.join(w.root, ".jp/config.d"), { recursive: true });
    fs.writeFileSync(
      path.join(w.root, ".jp/config.d/dev.toml"),
      '[assistant]\nsystem_prompt = "You are Dev."\n\n[assistant.model]\nid = "anthropic/claude-dev"\n',
    );
    expect((await w.jp("-c", "dev", "q", "-n", "first")).code).toBe(0);
    const next = await w.jp("q", "second");
    expect(next.code, next.stderr).toBe(0);
    for (const request of w.mock.requests) {
      expect(request.body.model).toBe("claude-dev");
      expect(JSON.stringify(request.body.system)).toContain("You are Dev.");
    }
    expect(w.mock.requests).toHaveLength(2);
  });

  it("keeps the tools it turned on for the conversation's next turns, in a workspace the user trusts", async () => {
    w = await qWorkspace({
      script: [{ text: "one" }, { text: "two" }],
      extraConfig:
        '[conversation.tools.shout]\nsource = "local"\ncommand = ["echo", "hi"]\nsummary = "shout"\nenable = "explicit"\n',
    });
    fs.mkdirSync(path.join(w.root, ".jp/config.d"), { recursive: true });
    fs.writeFileSync(
      path.join(w.root, ".jp/config.d/loud.toml"),
      "[conversation.tools.shout]\nenable = true\n",
    );
    expect((await w.jp("-c", "loud", "q", "-n", "first")).code).toBe(0);
    const next = await w.jp("q", "second");
    expect(next.code, next.stderr).toBe(0);
    const offered = (n: number) => (w!.mock.requests[n]!.body.tools as { name: string }[]).map((t) => t.name);
    expect(offered(0)).toContain("shout");
    expect(offered(1)).toContain("shout");
  });
});

describe("labels as JP writes them", () => {
  it("label add --id on either side, rm and ls; JP's label table read and found by ls --label", async () => {
    const ws = tempWorkspace();
    const jp = (...args: string[]) => runCli(args, { cwd: ws.root });
    const id = (JSON.parse((await jp("conversation", "new", "--json")).stdout) as { id: string }).id;
    const other = (JSON.parse((await jp("conversation", "new", "--json")).stdout) as { id: string }).id;
    expect((await jp("c", "label", "add", "--id", id, "urgent")).code).toBe(0);
    expect((await jp("c", "label", "add", "review", "--id", id)).code).toBe(0);
    expect((await jp("c", "label", "rm", "--id", id, "review")).stdout).toBe(`${id}: urgent\n`);
    // Without --id, JP's form labels the active conversation (the newest made).
    expect((await jp("c", "label", "ls")).stdout).toBe(`${other}: (no labels)\n`);
    // JP keeps labels as a table of KEY = VALUE.
    const folder = fs.readdirSync(ws.conversationsDir).find((f) => f.startsWith(other))!;
    const metadataFile = path.join(ws.conversationsDir, folder, "metadata.json");
    const metadata = JSON.parse(fs.readFileSync(metadataFile, "utf8")) as Record<string, unknown>;
    fs.writeFileSync(metadataFile, JSON.stringify({ ...metadata, labels: { team: "infra", urgent: true } }));
    const byKey = JSON.parse((await jp("c", "ls", "--label", "team", "--json")).stdout) as {
      id: string;
      labels: string[];
    }[];
    expect(byKey).toEqual([expect.objectContaining({ id: other, labels: ["team=infra", "urgent"] })]);
    const urgent = JSON.parse((await jp("c", "ls", "--label", "urgent", "--json")).stdout) as {
      id: string;
    }[];
    expect(urgent.map((c) => c.id).sort()).toEqual([id, other].sort());
  });
});

describe("conversation.attachments", () => {
  it("are read anew for each request and sent before the first question, as JP sends them, without being recorded", async () => {
    w = await qWorkspace({
      script: [{ text: "one" }, { text: "two" }],
      extraConfig: [
        "[[conversation.attachments]]",
        'type = "cmd"',
        'path = "node"',
        // It says which provider keys it was given: none.
        "params.args = [\"-e\", \"process.stdout.write('1 < 2 ' + [process.env.MOCK_API_KEY, process.env.ANTHROPIC_API_KEY].join('|'))\"]",
        "",
      ].join("\n"),
    });
    // The user's own config's list adds to the workspace's, as JP's lists do.
    fs.mkdirSync(path.join(w.root, "xdg/jp"), { recursive: true });
    fs.writeFileSync(
      path.join(w.root, "xdg/jp/config.toml"),
      '[conversation]\nattachments = ["notes.md", "cmd:cat \'branch name.txt\'?description=Current branch", "bear://note/1"]\n',
    );
    fs.writeFileSync(path.join(w.root, "notes.md"), "first notes");
    fs.writeFileSync(path.join(w.root, "branch name.txt"), "main");
    // As the user runs it (bin/jp, its environment the process's own), with a key of every kind set.
    w.env.ANTHROPIC_API_KEY = "sk-ant-users-own";
    const ran = await execa(path.join(REPO_ROOT, "bin/jp"), ["q", "-n", "what do my notes say?"], {
      cwd: w.root,
      env: w.env,
      extendEnv: false,
      reject: false,
      stdin: "ignore",
    });
    const first = { code: ran.exitCode, stderr: ran.stderr };
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("jp has no reader for JP's bear attachments (bear://note/1); left out");
    fs.writeFileSync(path.join(w.root, "notes.md"), "second notes");
    expect((await w.jp("q", "and now?")).code).toBe(0);
    const firstMessage = (n: number) => JSON.stringify((w!.mock.requests[n]!.body.messages as unknown[])[0]);
    expect(firstMessage(0)).toContain("first notes");
    expect(firstMessage(0)).toContain("<stdout>main</stdout>");
    expect(firstMessage(0)).toContain("<stdout>1 &lt; 2 |</stdout>");
    // The second request reads them again: the notes as they are now, before the first question only.
    expect(firstMessage(1)).toContain("second notes");
    expect(firstMessage(1)).not.toContain("first notes");
    expect(JSON.stringify(w.mock.requests[1]!.body.messages).match(/second notes/g)).toHaveLength(1);
    const log = JSON.stringify(w.events());
    expect(log).toContain("and now?");
    expect(log).not.toContain("first notes");
    expect(log).not.toContain("second notes");
  });
});

describe("an active conversation per terminal session (JP's RFD 020)", () => {
  it("keeps one per session, the workspace's last as the fallback, r for the last in any terminal", async () => {
    const ws = tempWorkspace();
    const jp = (session: string | undefined, ...args: string[]) =>
      runCli(args, { cwd: ws.root, env: session === undefined ? {} : { JP_SESSION: session } });
    const made = async (session: string, title: string) =>
      (
        JSON.parse((await jp(session, "conversation", "new", "--title", title, "--json")).stdout) as {
          id: string;
        }
      ).id;
    const shownId = async (session: string | undefined, target: string) =>
      (JSON.parse((await jp(session, "c", "s", target, "--json")).stdout) as { id: string }).id;
    const first = await made("tab-a", "in tab a");
    const second = await made("tab-b", "in tab b");
    // Each terminal keeps its own.
    expect(await shownId("tab-a", ".")).toBe(first);
    expect(await shownId("tab-b", ".")).toBe(second);
    // A new terminal falls back to the workspace's, the last made active anywhere; r names that one everywhere.
    expect(await shownId("tab-c", ".")).toBe(second);
    expect(await shownId("tab-a", "r")).toBe(second);
    expect((await jp("tab-a", "c", "u", second)).code).toBe(0);
    expect((await jp("tab-b", "c", "u", first)).code).toBe(0);
    expect(await shownId("tab-a", "active")).toBe(second);
    expect(await shownId("tab-b", ".")).toBe(first);
    // Removed in one terminal, it is active in none.
    expect((await jp("tab-a", "c", "rm", first)).code).toBe(0);
    const gone = await jp("tab-b", "c", "s", ".");
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).not.toContain("is gone");
  });
});

describe("JP's - keyword", () => {
  it("reads conversation ids from standard input, one per line, as jp c ls prints them", async () => {
    const ws = tempWorkspace();
    const jp = (stdin: string, ...args: string[]) => runCli(args, { cwd: ws.root, stdin });
    const made = async (title: string) =>
      (JSON.parse((await jp("", "conversation", "new", "--title", title, "--json")).stdout) as { id: string })
        .id;
    const one = await made("one");
    const two = await made("two");
    const shown = await jp(`${one}\n`, "c", "s", "-", "--json");
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { id: string }).id).toBe(one);
    // jp c ls's header and its * are passed over.
    const listed = (await jp("", "c", "ls")).stdout;
    const grepped = await jp(listed, "c", "grep", "--json", "zzz", "-");
    expect(grepped.stderr).toBe("");
    // The ids piped in are the ones searched: one that is no conversation is said.
    const unknown = await jp("99999999\n", "c", "grep", "zzz", "-");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("99999999");
    const both = await jp(`${one}\n${two}\n`, "c", "s", "-");
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("jp show takes one conversation, and `-` gave 2");
  });
});
