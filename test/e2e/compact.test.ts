// The real bin/jp compacting a copy of the bundled sample conversation.
import { execa } from "execa";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT, tempDir } from "../support/workspace.js";
import { stringContaining } from "../support/matchers.js";
import type { ShownConversation } from "../support/conversation.js";

const JP = path.join(REPO_ROOT, "bin/jp");
const SAMPLE = path.join(REPO_ROOT, "fixtures/sample/.jp");

function sampleWorkspace() {
  const root = tempDir();
  fs.cpSync(SAMPLE, path.join(root, ".jp"), { recursive: true });
  const log = path.join(root, ".jp/conversations/17900000000-tidy-the-csv-parser/events.jsonl");
  const env = { NO_COLOR: "1", HOME: root, XDG_CONFIG_HOME: path.join(root, "xdg") };
  const jp = (...args: string[]) => execa(JP, args, { cwd: root, env, reject: false });
  const view = async () =>
    JSON.parse((await jp("c", "print", "--compacted", "--json")).stdout) as CompactedView;
  return { root, log, jp, view };
}

interface CompactedView {
  id: string;
  turns: {
    origin: { kind: string; turn?: number; from?: number; to?: number };
    events: Record<string, unknown>[];
  }[];
}

const toolEvents = (v: CompactedView) =>
  v.turns.flatMap((t) => t.events.filter((e) => String(e.type).startsWith("tool_call")));

describe("jp conversation compact end to end", () => {
  it("compacts with the default rule; print --compacted --json shows the placeholders and origins", async () => {
    const { jp, view } = sampleWorkspace();
    const result = await jp("c", "compact");
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split("\n")[1]).toMatch(
      /^Compacted turns 2–3 \(2 total, reasoning \+ tools\): ≈\d+ → ≈\d+ tokens\.$/,
    );
    const v = await view();
    expect(v.turns.map((t) => t.origin)).toEqual([1, 2, 3, 4].map((turn) => ({ kind: "kept", turn })));
    const tools = toolEvents(v);
    // Turn 1 is kept whole; turns 2 and 3 are stripped.
    expect(tools.find((e) => e.id === "call_1")).toMatchObject({ arguments: { path: "src/csv.ts" } });
    expect(tools.find((e) => e.id === "call_2" && e.type === "tool_call_request")).toMatchObject({
      arguments: {},
    });
    expect(tools.find((e) => e.id === "call_3" && e.type === "tool_call_response")).toMatchObject({
      content: '[compacted] run_tests: error; recall {"call":"call_3"} reads it',
      is_error: true,
    });
    expect(v.turns[1]!.events.some((e) => e.reasoning !== undefined)).toBe(false);
    expect(v.turns[0]!.events.some((e) => e.reasoning !== undefined)).toBe(true);
  });

  it("compacts with a -c configuration from .jp/config.d/ and reports summary origins", async () => {
    const { root, jp, view } = sampleWorkspace();
    fs.mkdirSync(path.join(root, ".jp/config.d/compaction"), { recursive: true });
    fs.writeFileSync(
      path.join(root, ".jp/config.d/compaction/omit.toml"),
      `[[conversation.compaction.rules]]\nkeep_first = 2\nkeep_last = 1\ntool_calls = "omit"\n`,
    );
    const result = await jp("-c", "compaction/omit", "c", "compact");
    expect(result.stdout).toContain("Compacted turn 3 (1 total, tools (omit))");
    expect(toolEvents(await view()).map((e) => e.id)).toEqual([
      "call_1",
      "call_1",
      "call_2",
      "call_2",
      "call_3",
      "call_3",
    ]);
    await jp("c", "compact", "--summary", "Set up and rewrote the parser.", "--turn", "1..2");
    expect((await view()).turns.map((t) => t.origin)).toEqual([
      { kind: "summary", from: 1, to: 2 },
      { kind: "kept", turn: 3 },
      { kind: "kept", turn: 4 },
    ]);
    const text = (await jp("c", "print", "--compacted")).stdout;
    expect(text).toContain("── turns 1–2 (summary, written by user, user compaction)");
    expect(text.split("\n")[0]).toMatch(
      /^What the model sees: \d+ active compactions?; 4 raw turns → 3 projected turns\.$/,
    );
  });

  it("freezes per-tool hints from the workspace config into the compaction", async () => {
    const { root, jp, view } = sampleWorkspace();
    fs.writeFileSync(
      path.join(root, ".jp/config.toml"),
      `[conversation.tools.run_tests]\ncompaction = "keep"\n\n[conversation.tools.write_file]\ncompaction = "strip-requests"\n`,
    );
    await jp("c", "compact", "-k=t:..");
    const shown = JSON.parse((await jp("c", "show", "--json")).stdout) as ShownConversation;
    expect(shown.compactions[0]?.tool_overrides).toEqual({ run_tests: "keep", write_file: "strip-requests" });
    const tools = toolEvents(await view());
    expect(tools.find((e) => e.id === "call_3" && e.type === "tool_call_response")).toMatchObject({
      content: stringContaining("FAIL test/csv.test.ts"),
    });
    expect(tools.find((e) => e.id === "call_2" && e.type === "tool_call_request")).toMatchObject({
      arguments: {},
    });
    expect(tools.find((e) => e.id === "call_2" && e.type === "tool_call_response")).toMatchObject({
      content: "wrote 15 lines to src/csv.ts",
    });
    expect(tools.find((e) => e.id === "call_1" && e.type === "tool_call_response")).toMatchObject({
      content: '[compacted] read_file: success; recall {"call":"call_1"} reads it',
    });
  });

  it("--reset restores the uncompacted view while events.jsonl only grows", async () => {
    const { jp, log, view } = sampleWorkspace();
    const original = await view();
    const bytes0 = fs.readFileSync(log);
    await jp("c", "compact", "--summary", "The parser was rewritten.", "--turn", "2..3");
    await jp("c", "compact", "-k=r+t:..");
    expect(await view()).not.toEqual(original);
    const bytes1 = fs.readFileSync(log);
    const reset = await jp("c", "compact", "--reset");
    expect(reset.stdout).toMatch(/^Reset #1 /);
    expect(await view()).toEqual(original);
    const bytes2 = fs.readFileSync(log);
    expect(bytes1.subarray(0, bytes0.length).equals(bytes0)).toBe(true);
    expect(bytes2.subarray(0, bytes1.length).equals(bytes1)).toBe(true);
    expect(bytes2.length).toBeGreaterThan(bytes1.length);
  });
});
