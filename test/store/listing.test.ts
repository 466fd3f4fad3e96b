// The rows `ls` lists, kept in .jp/cache/listing.json: read once, read again
// only for a conversation whose folder or log changed, and never kept while a
// change may still be too recent to show in a file's time.
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import type { Event } from "../../src/events/index.js";
import { ConversationStore, type ConversationRef } from "../../src/store/conversations.js";
import { listConversations } from "../../src/store/listing.js";
import type { Workspace } from "../../src/store/workspace.js";
import { REPO_ROOT, tempWorkspace } from "../support/workspace.js";

/** A store that counts the conversations whose metadata it read. */
class CountingStore extends ConversationStore {
  read: string[] = [];
  override metadata(ref: ConversationRef) {
    this.read.push(ref.id);
    return super.metadata(ref);
  }
}

const turn = (n: number): Event[] => [
  { type: "turn_start", timestamp: `2026-01-01T00:00:0${n}Z` },
  { type: "chat_request", timestamp: `2026-01-01T00:00:0${n}Z`, content: `question ${n}` },
  { type: "chat_response", timestamp: `2026-01-01T00:00:0${n}Z`, message: `answer ${n}` },
];

/** Later than any file the test writes has settled. */
const later = () => Date.now() + 60_000;

function workspaceOf(titles: string[]): { workspace: Workspace; refs: ConversationRef[] } {
  const workspace = tempWorkspace();
  const store = new ConversationStore(workspace);
  const refs = titles.map((title, i) =>
    store.create({ title, id: String(17000000000 + i), events: turn(1) }),
  );
  return { workspace, refs };
}

const listingFile = (workspace: Workspace) => path.join(workspace.dir, "cache/listing.json");

describe("listConversations", () => {
  it("reads each conversation once, then lists from what it kept", () => {
    const { workspace } = workspaceOf(["one", "two", "three"]);
    const first = new CountingStore(workspace);
    const rows = listConversations(first, later());
    expect(rows.map((r) => [r.ref.id, r.title, r.turns, r.events])).toEqual([
      ["17000000000", "one", 1, 3],
      ["17000000001", "two", 1, 3],
      ["17000000002", "three", 1, 3],
    ]);
    expect(first.read).toHaveLength(3);
    const second = new CountingStore(workspace);
    expect(listConversations(second, later())).toEqual(rows);
    expect(second.read, "nothing read again").toEqual([]);
  });

  it("reads again only the conversation jp appended to or retitled", () => {
    const { workspace, refs } = workspaceOf(["one", "two", "three"]);
    listConversations(new ConversationStore(workspace), later());
    const writer = new ConversationStore(workspace);
    writer.append(refs[0]!, turn(2));
    writer.updateMetadata(refs[2]!, (m) => ({ ...m, title: "third", labels: ["x"] }));
    const store = new CountingStore(workspace);
    const rows = listConversations(store, later());
    expect(store.read.sort()).toEqual([refs[0]!.id, refs[2]!.id]);
    expect(rows.map((r) => [r.title, r.turns, r.events, r.labels])).toEqual([
      ["one", 2, 6, []],
      ["two", 1, 3, []],
      ["third", 1, 3, ["x"]],
    ]);
  });

  it("does not keep a row whose files changed within the last two seconds", () => {
    const { workspace } = workspaceOf(["fresh"]);
    const store = new CountingStore(workspace);
    listConversations(store, Date.now());
    listConversations(store, Date.now());
    expect(store.read, "read each time while fresh").toHaveLength(2);
    listConversations(store, later());
    listConversations(store, later());
    expect(store.read, "kept once settled").toHaveLength(3);
  });

  it("forgets a removed conversation and reads again a listing it cannot read", () => {
    const { workspace, refs } = workspaceOf(["one", "two"]);
    listConversations(new ConversationStore(workspace), later());
    fs.rmSync(refs[1]!.dir, { recursive: true });
    listConversations(new ConversationStore(workspace), later());
    const kept = JSON.parse(fs.readFileSync(listingFile(workspace), "utf8")) as { rows: object };
    expect(Object.keys(kept.rows)).toEqual([refs[0]!.folder]);

    fs.writeFileSync(listingFile(workspace), '{"version":3,"rows":{"' + refs[0]!.folder + '":["x"]}}');
    const store = new CountingStore(workspace);
    expect(listConversations(store, later()).map((r) => r.title)).toEqual(["one"]);
    expect(store.read).toEqual([refs[0]!.id]);
    fs.writeFileSync(listingFile(workspace), "{ not json");
    expect(listConversations(new ConversationStore(workspace), later()).map((r) => r.title)).toEqual(["one"]);
  });

  it("lists a JP conversation in place from its folder, and reads it again once jp begins its log", () => {
    const workspace = tempWorkspace();
    const recorded = path.join(
      REPO_ROOT,
      "fixtures/jp-conversations/17758406187-missing-date-in-version-string",
    );
    const dir = path.join(workspace.conversationsDir, path.basename(recorded));
    fs.cpSync(recorded, dir, { recursive: true });
    const first = listConversations(new ConversationStore(workspace), later());
    expect(first[0]!.events).toBeGreaterThan(0);
    const store = new CountingStore(workspace);
    expect(listConversations(store, later())).toEqual(first);
    expect(store.read).toEqual([]);
    const ref = store.list()[0]!;
    store.append(ref, turn(9));
    const after = listConversations(new ConversationStore(workspace), later());
    expect(after[0]!.events).toBe(first[0]!.events + 3);
  });

  it("leaves an unreadable conversation's row unkept, with why", () => {
    const { workspace, refs } = workspaceOf(["one"]);
    fs.rmSync(path.join(refs[0]!.dir, "events.jsonl"));
    fs.mkdirSync(path.join(refs[0]!.dir, "events.jsonl"));
    const rows = listConversations(new ConversationStore(workspace), later());
    expect(rows[0]!.error).toMatch(/events\.jsonl/);
    const store = new CountingStore(workspace);
    listConversations(store, later());
    expect(store.read).toEqual([refs[0]!.id]);
  });
});
