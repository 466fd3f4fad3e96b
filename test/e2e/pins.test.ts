// Pins through the CLI: a pinned turn survives manual, tool and automatic
// compaction verbatim; the dry run and the compact tool's preview say so;
// a pin is an event in the log and `unpin` undoes it.
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SUMMARY_SHOWN_ABOVE } from "../../src/compaction/index.js";
import type { Event } from "../../src/events/index.js";
import { loadScript } from "../support/mock-llm.js";
import { PTY_AVAILABLE, runInPty } from "../support/pty.js";
import { qWorkspace, sampleWorkspace, type QWorkspace } from "../support/q-workspace.js";
import { REPO_ROOT, runCli } from "../support/workspace.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const TURN_2 = 'Please rewrite parseLine with that state machine and handle escaped quotes (\\"\\").';

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

async function withSample(script = loadScript("compact-call")) {
  w = await sampleWorkspace({ script });
  return w;
}

const sent = (n: number) => JSON.stringify(w!.mock.requests[n]!.body);
// eslint-disable-next-line no-control-regex -- strips terminal colour codes
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "").replace(/\r/g, "");

/** The raw events of 1-based turn `n`, as the log holds them. */
function rawTurn(events: Event[], n: number): Event[] {
  const starts = events.flatMap((e, i) => (e.type === "turn_start" ? [i] : []));
  return events.slice(starts[n - 1], starts[n] ?? events.length).filter((e) => e.type !== "turn_start");
}

describe("pins", () => {
  it("keep a turn through a manual summary over it; the dry run says so; unpin undoes it", async () => {
    await withSample([{ text: "ok" }, { text: "again" }]);
    const pin = await w!.jp("c", "pin", "--turn", "2", "--note", "the escaping rules", "--json");
    expect(JSON.parse(pin.stdout)).toMatchObject({ turn: 2, pinned: true, pinned_turns: [2] });
    expect(w!.events().at(-1)).toMatchObject({
      type: "pin",
      turn: 1,
      pinned: true,
      note: "the escaping rules",
    });

    const dry = await w!.jp("c", "compact", "--turn", "1..3", "--summary", "CSV work.", "--dry-run");
    expect(dry.stdout).toContain("Would compact turns 1–3 (2 total, summary; pinned turn 2 left as it is):");
    expect((await w!.jp("c", "compact", "--turn", "1..3", "--summary", "CSV work.")).code).toBe(0);
    // The summary is shown once, before turn 2; after it, a pointer back to it.
    const printed = (await w!.jp("c", "print", "--compacted")).stdout;
    expect(printed.match(/CSV work\./g)).toHaveLength(1);
    expect(printed).toContain(SUMMARY_SHOWN_ABOVE);
    expect((await w!.jp("q", "go on")).code).toBe(0);
    // Turn 2 goes as it was, after the summary, which the model reads once.
    const body = sent(0);
    expect(body).toContain(TURN_2);
    // Turn 1's answer is gone (its question is in the record of the work).
    expect(body).not.toContain("needs a small state machine");
    expect(body.match(/CSV work\./g)).toHaveLength(1);
    expect(body).toContain(SUMMARY_SHOWN_ABOVE);

    expect((await w!.jp("c", "pin", "--turn", "2")).stderr).toContain("turn 2 is already pinned");
    expect((await w!.jp("c", "pin", "--turn", "9")).stderr).toContain("there is no turn 9");
    expect((await w!.jp("c", "unpin", "--turn", "2")).stdout).toContain("Unpinned turn 2");
    expect((await w!.jp("q", "and now?")).code).toBe(0);
    // Unpinned, turn 2 is summarised: its answer is gone, its question is only in the record of the work.
    expect(sent(1)).not.toContain("The rewrite is in.");
    expect(sent(1).split(TURN_2.slice(0, 40))).toHaveLength(2);
  });

  it.skipIf(!PTY_AVAILABLE)(
    "keep a turn through the compact tool's summary; its preview names the pin",
    async () => {
      await withSample();
      await w!.jp("c", "pin", "--turn", "2");
      const session = runInPty([JP, "q", "-u", "compact", "summarize everything except the current task"], {
        cwd: w!.root,
        env: { ...w!.env, NO_COLOR: "1" },
      });
      await session.waitFor("Run compact? [y,n,r,e,?]");
      expect(plain(session.output())).toContain("pinned   turn 2: left as it is");
      session.type("y");
      expect(await session.exit).toBe(0);
      // The compaction is deferred to the next turn; then turn 2 is sent as it was.
      await runCli(["q", "go on"], { cwd: w!.root, env: w!.env });
      const next = sent(2);
      expect(next).not.toContain("needs a small state machine");
      expect(next).toContain(TURN_2);
    },
  );

  it("keep a turn's tool results verbatim through automatic compaction", async () => {
    const BIG = `[conversation.tools.big]
source = "local"
summary = "Print about 5 KB of data"
command = ["node", "-e", "const c = require('crypto'); let s = ''; while (s.length < 5000) s += c.randomBytes(9).toString('base64') + ' '; process.stdout.write(s.slice(0, 5000))"]
run = "unattended"
`;
    const calls = (turn: number) =>
      [0, 1].map((k) => ({ tool_calls: [{ id: `toolu_${turn}_${k}`, name: "big", arguments: {} }] }));
    w = await qWorkspace({
      extraConfig: BIG,
      script: [...calls(1), { text: "one" }, ...calls(2), { text: "two" }, ...calls(3), { text: "three" }],
    });
    for (const q of ["first batch", "second batch", "third batch"])
      expect((await w.jp("q", "-t=big", q)).code).toBe(0);
    await w.jp("c", "pin", "--turn", "2");
    w.mock.push({ text: "done" });
    const auto = [
      "-c",
      "conversation.compaction.auto.enabled=true",
      "-c",
      "conversation.compaction.auto.max_tokens=9000",
    ];
    const result = await w.jp("q", ...auto, "-t=big", "what now?");
    expect(result.code).toBe(0);
    const events = w.events();
    expect(events.some((e) => e.type === "compaction" && e.source === "auto")).toBe(true);
    const last = sent(w.mock.requests.length - 1);
    for (const e of rawTurn(events, 2))
      if (e.type === "tool_call_response") expect(last).toContain(JSON.stringify(e.content).slice(1, -1));
    // Other turns' results were stripped.
    const first = rawTurn(events, 1).find((e) => e.type === "tool_call_response");
    expect(last).not.toContain(JSON.stringify((first as { content: string }).content).slice(1, -1));
  });
});
