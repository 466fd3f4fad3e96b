// `jp conversation grep`: a regular expression across conversations, in the stored history or in what
// the model sees; exit 1 when nothing matches.
import * as fs from "node:fs";
import * as path from "node:path";
import { expect, it } from "vitest";
import { REPO_ROOT, runCli, tempDir } from "../../../support/workspace.js";

/** The bundled sample in a folder of its own, and jp run there. */
function sample() {
  const root = tempDir();
  fs.cpSync(path.join(REPO_ROOT, "fixtures/sample"), root, { recursive: true });
  return (...args: string[]) =>
    runCli(args, { cwd: root, env: { HOME: root, PATH: process.env.PATH ?? "" } });
}

it("finds lines in every conversation, each with its turn and where it sits, and says when none matches", async () => {
  const jp = sample();
  const found = await jp("conversation", "grep", "quoted field");
  expect(found.code).toBe(0);
  const lines = found.stdout.trimEnd().split("\n");
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect(line).toMatch(/^17900000000 turn \d+ [^:]+: .*quoted field/i);
  const json = JSON.parse((await jp("conversation", "grep", "-i", "QUOTED FIELD", "--json")).stdout) as {
    id: string;
    turn: number;
    where: string;
    line: string;
  }[];
  expect(json.length).toBe(lines.length);
  expect(json[0]).toMatchObject({ id: "17900000000", turn: expect.any(Number) as number });
  const none = await jp("conversation", "grep", "no such words anywhere");
  expect(none.code).toBe(1);
  expect(none.stdout).toBe("");
  expect(none.stderr).toContain("no line matches no such words anywhere");
  const bad = await jp("conversation", "grep", "(unclosed");
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("'(unclosed' is not a regular expression jp can read");
});

it("with --compacted searches what the model sees: a summary's words, not the turns it replaced", async () => {
  const jp = sample();
  expect(
    (
      await jp(
        "conversation",
        "compact",
        "--turn",
        "1..3",
        "--summary",
        "The parser was fixed for CSV quoting.",
      )
    ).code,
  ).toBe(0);
  const raw = await jp("conversation", "grep", "was fixed for CSV quoting");
  expect(raw.code).toBe(1);
  const seen = await jp("conversation", "grep", "--compacted", "was fixed for CSV quoting");
  expect(seen.code).toBe(0);
  expect(seen.stdout).toMatch(/^17900000000 turn 1 summary of turns 1–3, assistant: The parser was fixed/);
  // The sample's first question is in the stored history; in the view it is only the record's quote of it, in the next turn.
  const question = (await jp("conversation", "print", "--json")).stdout;
  const first = (
    JSON.parse(question) as { turns: { events: { content?: string }[] }[] }
  ).turns[0]!.events.find((e) => e.content)!.content!.split("\n")[0]!;
  const words = first.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  expect((await jp("conversation", "grep", words)).code).toBe(0);
  const quoted = await jp("conversation", "grep", "--compacted", words);
  expect(quoted.code).toBe(0);
  expect(quoted.stdout.trim().split("\n")).toEqual([expect.stringMatching(/^17900000000 turn 4 user: - "/)]);
});
