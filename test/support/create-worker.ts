// A separate process that creates one conversation at a given instant, with a
// fixed clock, so that every worker picks the same first-choice id.
// Built from src by test/support/workers.ts; run as: node WORKER WORKSPACE_ROOT START_AT_MS TITLE
import { ConversationStore } from "../../src/store/conversations.js";
import { findWorkspace } from "../../src/store/workspace.js";

const [root = "", startAt = "0", title] = process.argv.slice(2);
const store = new ConversationStore(
  findWorkspace({ explicit: root, env: {}, cwd: root }),
  { now: () => new Date("2026-11-01T10:00:00Z") },
  { timeoutMs: 30_000 },
);
while (Date.now() < Number(startAt)) {
  // Wait for the common start; a busy loop keeps the instant sharp.
}
const ref = store.create(title ? { title } : {});
process.stdout.write(ref.id);
