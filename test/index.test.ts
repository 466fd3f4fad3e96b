// The package's library entry exposes the core without the CLI, and exactly
// the API that api/jp-api.txt records.
import { execa } from "execa";
import * as fs from "node:fs";
// @ts-expect-error -- a build script in plain JavaScript, without type declarations
import { apiReport, REPORT_FILE } from "../scripts/api-report.mjs";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/workspace.js";

describe("library entry", () => {
  it("exports the core by the package name, from the built dist/index.js", async () => {
    const script = `
      import * as jp from "jp";
      const names = ["project", "planRule", "resolveAnchor", "checkProviderView", "parseSpec", "turnIndices", "validateEvent"];
      console.log(JSON.stringify(names.map((n) => [n, typeof jp[n]])));
      const events = [
        { type: "turn_start", timestamp: "2026-01-01T00:00:00Z" },
        { type: "chat_request", timestamp: "2026-01-01T00:00:01Z", content: "hello" },
        { type: "chat_response", timestamp: "2026-01-01T00:00:02Z", reasoning: "hmm" },
        { type: "compaction", timestamp: "2026-01-01T00:00:03Z", id: "c", from_turn: 0, to_turn: 0, reasoning: "strip", source: "user" },
      ];
      console.log(JSON.stringify(jp.project(events).events.map((e) => e.type)));
    `;
    const { stdout } = await execa("node", ["--input-type=module", "-e", script], { cwd: REPO_ROOT });
    const [names, types] = stdout.split("\n").map((l): unknown => JSON.parse(l));
    expect(names).toEqual([
      ["project", "function"],
      ["planRule", "function"],
      ["resolveAnchor", "function"],
      ["checkProviderView", "function"],
      ["parseSpec", "function"],
      ["turnIndices", "function"],
      ["validateEvent", "function"],
    ]);
    expect(types).toEqual(["turn_start", "chat_request"]);
  });

  it("exports exactly the API the report records (update it with node scripts/api-report.mjs --write)", async () => {
    const report = (apiReport as () => string)();
    expect(report, "the library API changed: review it, then run node scripts/api-report.mjs --write").toBe(
      fs.readFileSync(REPORT_FILE as string, "utf8"),
    );
    // What the built entry exports at run time is the report's values, and nothing else.
    const values = report
      .split("\n")
      .filter((l) => /^(class|const|function) /.test(l))
      .map((l) => /^\w+ (\w+)/.exec(l)![1]!)
      .sort();
    const { stdout } = await execa(
      "node",
      [
        "--input-type=module",
        "-e",
        'import * as jp from "jp"; console.log(JSON.stringify(Object.keys(jp).sort()))',
      ],
      { cwd: REPO_ROOT },
    );
    expect(JSON.parse(stdout)).toEqual(values);
  });

  it("runs the README's compactor example", async () => {
    const { stdout } = await execa("node", ["docs/examples/compactor.mjs"], { cwd: REPO_ROOT });
    expect(stdout).toMatch(
      /^context compacted: \d+ → \d+ tokens \(\d+ messages folded\)\nsending \d+ messages \(\d+ estimated tokens\); second: \[Summary of earlier conversation\]$/,
    );
  });
});
