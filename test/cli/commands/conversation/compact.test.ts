import * as fs from "node:fs";
import * as path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { resetClock, turn, workTurns } from "../../../support/stream.js";
import { workspaceWith } from "../../../support/conversation.js";
import { anyNumber, objectContaining } from "../../../support/matchers.js";

beforeEach(resetClock);

type Result = {
  compactions: {
    index: number;
    from: number;
    to: number;
    policies: string[];
    source: string;
    note: string | null;
    summary: { text: string; source: string; author: string | null } | null;
    summary_generated: boolean | null;
    tokens: { before: number; after: number; range_before: number; range_after: number };
  }[];
  timeline: string[];
};
const ranges = (r: unknown) => (r as Result).compactions.map((c) => [c.from, c.to]);

describe("jp conversation compact: ranges and keeps (1-based)", () => {
  it("--keep-first 1 --first 16 on 20 turns compacts 2..16", async () => {
    const f = workspaceWith(workTurns(20));
    expect(
      ranges(await f.json("c", "compact", "--keep-first", "1", "--first", "16", "--dry-run", "--json")),
    ).toEqual([[2, 16]]);
    expect(
      ranges(await f.json("c", "compact", "--keep-first", "1", "--first=16", "--dry-run", "--json")),
    ).toEqual([[2, 16]]);
  });

  it("--keep-last 2 --last 16 on 20 turns compacts 5..18", async () => {
    const f = workspaceWith(workTurns(20));
    expect(
      ranges(await f.json("c", "compact", "--keep-last", "2", "--last=16", "--dry-run", "--json")),
    ).toEqual([[5, 18]]);
  });

  it("fails with the exact error when a keep value reaches its --first/--last", async () => {
    const f = workspaceWith(workTurns(20));
    const first = await f.run("c", "compact", "--keep-first", "16", "--first=16");
    expect(first.code).toBe(2);
    expect(first.stderr).toBe(
      "jp: error: --keep-first 16 keeps all 16 turns that --first 16 selects; nothing would be compacted\n  hint: give --keep-first a value below 16\n",
    );
    const last = await f.run("c", "compact", "--keep-last", "17", "--last=16");
    expect(last.stderr).toBe(
      "jp: error: --keep-last 17 keeps all 16 turns that --last 16 selects; nothing would be compacted\n  hint: give --keep-last a value below 16\n",
    );
    const both = await f.run("c", "compact", "--keep-first", "8", "--keep-last", "8", "--first=16");
    expect(both.stderr).toContain(
      "--keep-first 8 and --keep-last 8 together keep all 16 turns that --first 16 selects",
    );
  });

  it("takes --from and --to as 1-based positions with -1 the last turn, replacing the rule's keeps", async () => {
    const f = workspaceWith(workTurns(10));
    expect(ranges(await f.json("c", "compact", "--from", "3", "--to", "-1", "--dry-run", "--json"))).toEqual([
      [3, 10],
    ]);
    // A window is the whole range: the configured keep_last does not carry over.
    expect(ranges(await f.json("c", "compact", "--from", "3", "--dry-run", "--json"))).toEqual([[3, 10]]);
    expect(ranges(await f.json("c", "compact", "--turn", "4..6", "--dry-run", "--json"))).toEqual([[4, 6]]);
    expect(ranges(await f.json("c", "compact", "--turn", "5", "--dry-run", "--json"))).toEqual([[5, 5]]);
    expect(ranges(await f.json("c", "compact", "--first", "--dry-run", "--json"))).toEqual([[1, 1]]);
  });

  it("applies --keep-first/--keep-last to the configured rules", async () => {
    const f = workspaceWith(workTurns(10));
    expect(
      ranges(await f.json("c", "compact", "--keep-first", "3", "--keep-last", "2", "--dry-run", "--json")),
    ).toEqual([[4, 8]]);
    // @5 keeps turns 1..5; the configured keep_last = 1 stays, and the command says so.
    const run = await f.run("c", "compact", "--keep-first", "@5", "--dry-run", "--json");
    expect(ranges(JSON.parse(run.stdout))).toEqual([[6, 9]]);
    expect(run.stderr).toContain("--keep-first applies with");
    expect(run.stderr).toContain("keep_last = 1 (give --keep-last 0 to compact through the last turn)");
  });

  it("gives a range one meaning in -k, --turn and print --turn; impossible keeps compact nothing", async () => {
    const f = workspaceWith(workTurns(4));
    const r = (...args: string[]) => f.json("c", "compact", ...args, "--dry-run", "--json");
    expect(ranges(await r("-k", "r+t:..-2"))).toEqual([[1, 3]]);
    expect(ranges(await r("--turn", "..-2", "-r"))).toEqual([[1, 3]]);
    const printed = JSON.parse((await f.run("c", "print", "--turn", "..-2", "--json")).stdout) as {
      turns: { turn: number }[];
    };
    expect(printed.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    // The lone shorthand -N keeps the last N.
    expect(ranges(await r("-k", "r:-2"))).toEqual([[1, 2]]);
    // A kept position is kept: -1 and @4 (the last of 4) both keep the last turn.
    expect(ranges(await r("--keep-last", "-1", "--keep-first", "0", "-r"))).toEqual([[1, 3]]);
    expect(ranges(await r("--keep-last", "@4", "--keep-first", "0", "-r"))).toEqual([[1, 3]]);
    const past = await f.run("c", "compact", "--keep-last", "@5", "-r", "--dry-run");
    expect(past.stdout).toContain("keep_last @5 is after the last turn (4): it keeps no turn");
  });

  it("refuses, in compact and print alike, a range naming a turn the conversation lacks or starting after it ends", async () => {
    const f = workspaceWith(workTurns(6));
    const refused = async (args: string[], message: string) => {
      const result = await f.run("c", ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr, args.join(" ")).toContain(message);
      expect(result.stdout, args.join(" ")).toBe("");
    };
    await refused(
      ["print", "--turn", "99"],
      "--turn 99: there is no turn 99; the conversation has turns 1–6",
    );
    await refused(
      ["print", "--turn", "-7"],
      "--turn -7: there is no turn -7; the conversation has turns 1–6 (or -1 to -6)",
    );
    await refused(
      ["compact", "--turn", "5..9", "-r"],
      "--turn 5..9: there is no turn 9; the conversation has turns 1–6",
    );
    await refused(
      ["compact", "--from", "5", "--to", "3", "-r"],
      "--from 5 --to 3: the range starts at turn 5, after it ends at turn 3",
    );
    await refused(
      ["compact", "--from", "-1", "--to", "-3", "-r"],
      "--from -1 --to -3: the range starts at turn 6, after it ends at turn 4",
    );
    await refused(["compact", "--turn", "3..2", "-r"], "--turn '3..2' starts after it ends");
    await refused(["print", "--turn", "3..2"], "--turn '3..2' starts after it ends");
    // Counts are "at most": --last 10 of 6 turns is all of them.
    const all = JSON.parse((await f.run("c", "print", "--last", "10", "--json")).stdout) as {
      turns: unknown[];
    };
    expect(all.turns).toHaveLength(6);
  });

  it("rejects conflicting range choices and bad values with usage errors", async () => {
    const f = workspaceWith(workTurns(10));
    const cases: [string[], string][] = [
      [["--first=2", "--last=2"], "--first and --last both choose the turns"],
      [["--turn", "2..3", "--from", "2"], "--turn and --from/--to both choose the turns"],
      [["--from", "0"], "--from 0 is not a turn: turns are numbered from 1, and -1 is the last"],
      [["--to", "last-compaction"], "--to does not take 'last-compaction'; only --from does"],
      [["--keep-first", "soon"], "--keep-first 'soon' is not a bound"],
      [["--first=0"], "--first takes a positive number of turns, got '0'"],
      [["-t=shred"], "--tools 'shred' is not a tool mode"],
      [["-r", "-k=t"], "give policies either as flags (-r) or as -k specs, not both"],
      [
        ["--summary", "x", "-r"],
        "--summary replaces the turns with your text; -r cannot be combined with it",
      ],
      [["--reset", "-r"], "--reset undoes compactions and cannot be combined with -r"],
      [["-k=x:.."], "unknown policy 'x' in compaction spec 'x:..'"],
      [["-k=s:0..3"], "'0' in compaction spec 's:0..3' is not a turn: turns are numbered from 1"],
      // With a space, as the README writes it: a spec-shaped word is a spec, not a conversation id.
      [["-k", "zz:1..2"], "unknown policy 'zz' in compaction spec 'zz:1..2'"],
    ];
    for (const [args, message] of cases) {
      const result = await f.run("c", "compact", ...args);
      expect({ args, code: result.code }).toEqual({ args, code: 2 });
      expect(result.stderr).toContain(message);
    }
    expect(fs.readFileSync(f.log, "utf8")).not.toContain('"compaction"');
  });
});

describe("jp conversation compact: rules", () => {
  const tooly = () => [
    ...turn({ request: "p", reasoning: "thinking first", message: "one" }),
    // A result long enough that stripping it saves tokens beyond its placeholder.
    ...turn({
      request: "q",
      reasoning: "r",
      tools: [{ id: "a", name: "grep", result: `result of a:${" match".repeat(40)}` }],
    }),
    ...turn({ request: "s", reasoning: "thinking last", message: "three" }),
  ];

  it("uses the built-in default rule: strip reasoning and tools, keep the first and last turn", async () => {
    const f = workspaceWith(workTurns(5));
    const result = (await f.json("c", "compact", "--json")) as Result;
    // The items show lists (numbered as --reset takes them), all counted from 1, keys in snake_case.
    expect(result.compactions).toEqual([
      objectContaining({
        index: 1,
        from: 2,
        to: 4,
        policies: ["reasoning", "tools"],
        source: "user",
        state: "active",
        summary: null,
        summary_generated: null,
        tokens: objectContaining({
          range_before: anyNumber,
          range_after: anyNumber,
        }),
      }),
    ]);
    const show = (await f.json("c", "show", "--json")) as { compactions: Record<string, unknown>[] };
    const { summary_generated: _generated, tokens: _tokens, ...item } = result.compactions[0]!;
    expect(show.compactions[0]).toEqual(item);
  });

  it("bare -k uses the configured rules, specs alone replace them, and both together append", async () => {
    const config = `[[conversation.compaction.rules]]\nkeep_last = 2\nreasoning = "strip"\n`;
    const f = workspaceWith(workTurns(10), { config });
    const bare = (await f.json("c", "compact", "-k", "--dry-run", "--json")) as Result;
    expect(bare.compactions.map((c) => [c.from, c.to, c.policies])).toEqual([[2, 8, ["reasoning"]]]);
    const spec = (await f.json("c", "compact", "-k", "t=o:3..5", "--dry-run", "--json")) as Result;
    expect(spec.compactions.map((c) => [c.from, c.to, c.policies])).toEqual([[3, 5, ["tools (omit)"]]]);
    const both = (await f.json("c", "compact", "-k", "-k=t:..-3", "--dry-run", "--json")) as Result;
    expect(both.compactions.map((c) => [c.from, c.to, c.policies])).toEqual([
      [2, 8, ["reasoning"]],
      [1, 8, ["tools"]],
    ]);
  });

  it("narrows the configured rules with range-only flags instead of making a rule without policies", async () => {
    const f = workspaceWith(workTurns(10));
    const result = (await f.json("c", "compact", "--turn", "3..4", "--dry-run", "--json")) as Result;
    expect(result.compactions.map((c) => [c.from, c.to, c.policies])).toEqual([
      [3, 4, ["reasoning", "tools"]],
    ]);
  });

  it("records --summary as supplied by the user, with a truncated --note and a warning", async () => {
    const f = workspaceWith(workTurns(6));
    const result = await f.run(
      "c",
      "compact",
      "--summary",
      "We built the parser.",
      "--from",
      "2",
      "--to",
      "4",
      "--note",
      "n".repeat(250),
      "--json",
    );
    expect(result.stderr).toBe("jp: warning: --note is longer than 200 characters; it was cut to 200\n");
    const item = (JSON.parse(result.stdout) as Result).compactions[0]!;
    expect(item).toMatchObject({
      from: 2,
      to: 4,
      summary: { text: "We built the parser.", source: "supplied", author: "user" },
      summary_generated: null,
    });
    expect(Array.from(item.note!)).toHaveLength(200);
  });

  it("fails before anything is sent when the summary model has no key, and records nothing", async () => {
    const f = workspaceWith(workTurns(6));
    const before = fs.readFileSync(f.log, "utf8");
    const result = await f.run("c", "compact", "-s");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("jp: error: no API key for anthropic: ANTHROPIC_API_KEY is not set");
    expect(fs.readFileSync(f.log, "utf8")).toBe(before);
    const dry = await f.run("c", "compact", "-s", "--dry-run");
    expect(dry.stdout).toContain("Would compact turns 2–5 (4 total, summary)");
    expect(dry.stdout).toContain("is not generated in a dry run");
  });

  it("freezes per-tool hints at creation: editing the config later changes nothing", async () => {
    const config = `[conversation.tools.grep]\ncompaction = "keep"\n`;
    const f = workspaceWith(tooly(), { config });
    await f.json("c", "compact", "--json");
    const view = async () => JSON.stringify(await f.json("c", "print", "--compacted", "--json"));
    const before = await view();
    expect(before).toContain("result of a");
    fs.writeFileSync(path.join(f.ws.dir, "config.toml"), `[conversation.tools.grep]\ncompaction = "omit"\n`);
    expect(await view()).toBe(before);
  });

  it("prints a timeline with Kept/Compacted lines and token counts", async () => {
    const f = workspaceWith(tooly());
    const dry = (await f.run("c", "compact", "--dry-run")).stdout.split("\n");
    expect(dry[0]).toBe("Kept turn 1.");
    expect(dry[1]).toMatch(/^Would compact turn 2 \(1 total, reasoning \+ tools\): ≈\d+ → ≈\d+ tokens\.$/);
    expect(dry[2]).toBe("Kept turn 3.");
    expect(dry[3]).toMatch(/^Request: ≈\d+ → ≈\d+ tokens if applied\.$/);
    const done = (await f.run("c", "compact")).stdout;
    expect(done).toMatch(/^Kept turn 1\.\nCompacted turn 2 \(1 total, reasoning \+ tools\)/);
    // One compaction is one line, with the range it records, though it goes over an earlier one.
    const again = await f.json("c", "compact", "--dry-run", "--json", "-k=r:..");
    const recorded = (again as Result).compactions.map((c) => `${c.from}–${c.to}`);
    expect(recorded).toEqual(["1–3"]);
    expect((again as Result).timeline[0]).toMatch(
      /^Would compact turns 1–3 \(3 total, reasoning; over compaction #1\): ≈\d+ → ≈\d+ tokens\.$/,
    );
    const nothing = await f.run("c", "compact", "-r", "--keep-first", "5");
    expect(nothing.stdout).toBe("Nothing to compact.\n  flags: the range starts after the last turn (3).\n");
    // A rule that would remove nothing (turn 2's reasoning is gone already) is not recorded.
    const moot = await f.run("c", "compact", "-k=r:2..2");
    expect(moot.stdout).toBe(
      "Nothing to compact.\n  -k r:2..2: it would save no tokens: those turns hold nothing it removes.\n",
    );
    expect(((await f.json("c", "show", "--json")) as { compactions: unknown[] }).compactions).toHaveLength(1);
  });
});

describe("jp conversation compact: policy flags", () => {
  it("takes -t with a mode attached or as the next word, -r, and -s with -m naming the summary model", async () => {
    const f = workspaceWith(workTurns(6));
    const policies = async (...args: string[]) =>
      ((await f.json("c", "compact", "--dry-run", "--json", ...args)) as Result).compactions.map(
        (c) => c.policies,
      );
    expect(await policies("-t=omit")).toEqual([["tools (omit)"]]);
    expect(await policies("-t", "sres")).toEqual([["tools (strip-responses)"]]);
    expect(await policies("--tools=strip-requests", "-r")).toEqual([["reasoning", "tools (strip-requests)"]]);
    expect(await policies("-t")).toEqual([["tools"]]);
    const summary = await f.run("c", "compact", "-s", "-m", "openai/gpt-4.1", "--dry-run");
    expect(summary.stdout).toContain("the summary by openai/gpt-4.1 is not generated in a dry run");
  });

  it("compacts several conversations given by id", async () => {
    const f = workspaceWith(workTurns(4));
    const other = (JSON.parse((await f.run("c", "fork", f.id, "--json")).stdout) as { id: string }).id;
    const result = (await f.json("c", "compact", f.id, other, "--json")) as { id: string }[];
    expect(result.map((r) => r.id)).toEqual([f.id, other]);
  });
});

describe("jp conversation print selection", () => {
  it("selects raw turns with --turn, --first and --last in both views", async () => {
    const f = workspaceWith(workTurns(6));
    await f.json("c", "compact", "--summary", "S", "--turn", "2..4", "--json");
    const raw = (await f.json("c", "print", "--turn", "3..5", "--json")) as { turns: { turn: number }[] };
    expect(raw.turns.map((t) => t.turn)).toEqual([3, 4, 5]);
    const compacted = (await f.json("c", "print", "--compacted", "--last=3", "--json")) as {
      turns: { origin: unknown }[];
    };
    expect(compacted.turns.map((t) => t.origin)).toEqual([
      { kind: "summary", from: 2, to: 4 },
      { kind: "kept", turn: 5 },
      { kind: "kept", turn: 6 },
    ]);
    const first = (await f.json("c", "print", "--compacted", "--first", "--json")) as {
      turns: { origin: unknown }[];
    };
    expect(first.turns.map((t) => t.origin)).toEqual([{ kind: "kept", turn: 1 }]);
    const text = (await f.run("c", "print", "--turn", "6")).stdout;
    expect(text).toMatch(/^── turn 6 /);
    expect(text).not.toContain("turn 5");
  });
});

describe("jp conversation compact --reset", () => {
  it("numbers compactions as show does, and undoes the N-th or all by appending", async () => {
    const f = workspaceWith(workTurns(6));
    await f.json("c", "compact", "-k=r:1..2", "--json");
    await f.json("c", "compact", "-k=t:3..4", "--json");
    const show = (await f.json("c", "show", "--json")) as {
      compactions: { index: number; id: string; state: string }[];
    };
    expect(show.compactions.map((c) => [c.index, c.state])).toEqual([
      [1, "active"],
      [2, "active"],
    ]);
    const dry = await f.run("c", "compact", "--reset=2", "--dry-run");
    expect(dry.stdout).toBe(`Would reset #2 ${show.compactions[1]!.id} (turns 3–4, tools).\n`);
    await f.run("c", "compact", "--reset=2");
    const after = (await f.json("c", "show", "--json")) as typeof show;
    expect(after.compactions.map((c) => c.state)).toEqual(["active", "reset"]);
    expect((await f.run("c", "compact", "--reset=3")).stderr).toContain(
      "there is no compaction #3; this conversation has 2",
    );
    expect((await f.run("c", "compact", "--reset=2")).stderr).toContain("is already reset");
    const all = await f.run("c", "compact", "--reset");
    expect(all.stdout).toContain("Reset #1");
    expect((await f.run("c", "compact", "--reset")).stdout).toBe("Nothing to reset.\n");
  });

  it("takes a compaction as show names it, with = or a space: its number, -1 for the newest, or its id", async () => {
    const f = workspaceWith(workTurns(6));
    await f.json("c", "compact", "-k=r:1..2", "--json");
    await f.json("c", "compact", "-k=t:3..4", "--json");
    await f.json("c", "compact", "-k=r:5..5", "--json");
    const ids = ((await f.json("c", "show", "--json")) as { compactions: { id: string }[] }).compactions.map(
      (c) => c.id,
    );
    expect((await f.run("c", "compact", "--reset", "3")).stdout).toBe(
      `Reset #3 ${ids[2]} (turn 5, reasoning).\n`,
    );
    expect((await f.run("c", "compact", "--reset=-2")).stdout).toMatch(new RegExp(`^Reset #2 ${ids[1]} `));
    expect((await f.run("c", "compact", "--reset", ids[0]!)).stdout).toMatch(
      new RegExp(`^Reset #1 ${ids[0]} `),
    );
    const unknown = await f.run("c", "compact", "--reset=k00000000");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("this conversation has no compaction k00000000");
    const zero = await f.run("c", "compact", "--reset=0");
    expect(zero.code).toBe(2);
    expect(zero.stderr).toContain("--reset 0 names no compaction");
    expect((await f.run("c", "compact", "--reset=-4")).stderr).toContain(
      "there is no compaction -4; this conversation has 3",
    );
  });

  it("leaves a bare --reset followed by an id aimed at that conversation", async () => {
    const f = workspaceWith(workTurns(4));
    await f.json("c", "compact", "--json");
    expect((await f.run("c", "compact", "--reset", f.id)).stdout).toMatch(/^Reset #1 /);
  });
});

describe("jp conversation print --compacted to a file or a pipe", () => {
  it("streams the same view that is built in memory, whatever the compactions", async () => {
    const f = workspaceWith([
      ...workTurns(3),
      ...turn({ request: "grep", reasoning: "look", tools: [{ id: "g1", name: "grep", args: { q: "x" } }] }),
      ...workTurns(4),
    ]);
    await f.json("c", "compact", "--summary", "The start.", "--turn", "1..2", "--json");
    await f.json("c", "compact", "-k=r+t:3..5", "--json");
    await f.json("c", "compact", "-k=t=omit:6..6", "--json");
    // Streamed (stdout is not a terminal) against built in memory (a selection of every turn).
    const streamed = await f.run("c", "print", "--compacted");
    const built = await f.run("c", "print", "--compacted", "--turn", "1..");
    expect(streamed.code).toBe(0);
    expect(streamed.stdout).toBe(built.stdout);
    expect(streamed.stdout).toContain("── turns 1–2 (summary, written by user, user compaction)");
    expect(streamed.stdout).toContain("[arguments stripped]");
    expect(streamed.stdout).toContain("[result stripped]");
    expect(streamed.stdout).toMatch(
      /^What the model sees: 3 active compactions; 8 raw turns → 7 projected turns\./,
    );
  });
});
