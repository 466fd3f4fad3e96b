// The record of the work through `jp q`, as a user meets it: a working
// session fixing a parser is compacted into a summary that names none of its
// facts, and the next request must still hold them verbatim, at a quarter of
// the size of the uncompacted request or less. On a model whose summary jp
// writes, and on the default model, whose summary the provider writes.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { parserSession, PLANTED_FACTS } from "../support/parser-session.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const VAGUE = "We worked on the parser together.";

/** A workspace holding the parser session as its active conversation. */
async function sessionWorkspace(model?: string): Promise<QWorkspace> {
  w = await qWorkspace({
    ...(model ? { model } : {}),
    // The default model's summary is its on-demand compaction: the mock answers it vaguely.
    route: (body) => (body.compaction ? { text: VAGUE } : undefined),
  });
  const folder = path.join(w.root, ".jp/conversations/17900000001-fix-the-parser");
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(
    path.join(folder, "events.jsonl"),
    parserSession()
      .map((e) => JSON.stringify(e))
      .join("\n") + "\n",
  );
  fs.writeFileSync(
    path.join(folder, "metadata.json"),
    JSON.stringify({ title: "Fix the parser", created_at: "2026-12-01T09:00:00.000Z" }),
  );
  expect((await w.jp("c", "use", "17900000001")).code).toBe(0);
  return w;
}

/** The planted facts a request body holds verbatim, and its size. */
function measured(ws: QWorkspace, request: number): { held: string[]; size: number } {
  const sent = JSON.stringify(ws.mock.requests.at(request)!.body);
  const held = PLANTED_FACTS.filter((f) => sent.includes(JSON.stringify(f).slice(1, -1)));
  return { held, size: sent.length };
}

/** Ask once uncompacted, compact all but that turn with a vague summary, ask again; both requests measured. */
async function compactAndAsk(ws: QWorkspace, flags: string[] = []) {
  ws.mock.push({ text: "I will look at the TypeError next." });
  expect((await ws.jp("q", "What is left to do?")).code).toBe(0);
  const before = measured(ws, -1);
  // jp's summarizer asks the model like any question; the provider's own compaction is routed above.
  ws.mock.push({ text: VAGUE });
  const compact = await ws.jp(
    "c",
    "compact",
    "--keep-first",
    "0",
    "--keep-last",
    "1",
    "--summarize",
    ...flags,
  );
  expect(compact.code, compact.stderr).toBe(0);
  ws.mock.push({ text: "Fixed." });
  expect((await ws.jp("q", "Fix the TypeError now.")).code).toBe(0);
  return { before, after: measured(ws, -1) };
}

describe("the record of the work, through jp q", () => {
  it.each([
    ["a model whose summary jp writes", undefined, false],
    ["the default model, whose summary the provider writes", "anthropic/claude-sonnet-5-5", true],
  ])(
    "on %s: the next request holds the planted facts at a quarter of the size",
    async (_, model, byProvider) => {
      const ws = await sessionWorkspace(model);
      const { before, after } = await compactAndAsk(ws);
      const summary = ws.events().find((e) => e.type === "compaction");
      expect(summary).toMatchObject({ summary: { text: VAGUE } });
      expect(summary?.type === "compaction" && summary.summary?.provider !== undefined).toBe(byProvider);
      expect(before.held).toEqual([...PLANTED_FACTS]);
      expect(after.held.length / PLANTED_FACTS.length).toBeGreaterThanOrEqual(0.95);
      expect(after.size).toBeLessThanOrEqual(before.size / 4);
    },
  );

  it("without the record (--no-record) the same request loses the facts", async () => {
    const ws = await sessionWorkspace();
    const { after } = await compactAndAsk(ws, ["--no-record"]);
    expect(after.held.length / PLANTED_FACTS.length).toBeLessThan(0.95);
    expect(after.held).not.toContain("ERR_4711");
  });
});
