// A JP user's habits at the command line: JP's short command names and its
// ways of naming a conversation (`.`, `n`, `jp-c<id>`).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";
import { runCli, tempWorkspace } from "../../support/workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

describe("JP's habits", () => {
  it("c s ., c p ., c u ID, c l and cfg show work as JP's short forms", async () => {
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
    expect((await jp("c", "l")).stdout).toContain("newer");
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
        'params.args = ["-e", "process.stdout.write(\'1 < 2\')"]',
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
    const first = await w.jp("q", "-n", "what do my notes say?");
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toContain("jp has no reader for JP's bear attachments (bear://note/1); left out");
    fs.writeFileSync(path.join(w.root, "notes.md"), "second notes");
    expect((await w.jp("q", "and now?")).code).toBe(0);
    const firstMessage = (n: number) => JSON.stringify((w!.mock.requests[n]!.body.messages as unknown[])[0]);
    expect(firstMessage(0)).toContain("first notes");
    expect(firstMessage(0)).toContain("<stdout>main</stdout>");
    expect(firstMessage(0)).toContain("<stdout>1 &lt; 2</stdout>");
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
