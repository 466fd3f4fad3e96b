import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { ConversationStore } from "../../src/store/conversations.js";
import { tempWorkspace } from "../support/workspace.js";

describe("ConversationStore.create", () => {
  it("removes staging folders a killed create left over an hour ago, and keeps recent ones", () => {
    const workspace = tempWorkspace();
    const store = new ConversationStore(workspace);
    fs.mkdirSync(workspace.conversationsDir, { recursive: true });
    const stale = path.join(workspace.conversationsDir, ".new-stale1");
    const recent = path.join(workspace.conversationsDir, ".new-recent");
    for (const dir of [stale, recent]) {
      fs.mkdirSync(dir);
      fs.writeFileSync(
        path.join(dir, "events.jsonl"),
        '{"type":"turn_start","timestamp":"2026-01-01T00:00:00Z"}\n',
      );
    }
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    fs.utimesSync(stale, twoHoursAgo, twoHoursAgo);

    const ref = store.create({ title: "next" });
    expect(fs.existsSync(stale)).toBe(false);
    expect(fs.existsSync(recent)).toBe(true);
    expect(store.list().map((r) => r.id)).toEqual([ref.id]);
  });
});
