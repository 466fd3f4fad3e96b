// The loss report through the CLI: `compact --dry-run` and `--json` list the
// facts a compaction takes out of view that nothing left in view holds.
import { afterEach, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

interface CompactJson {
  dry_run: boolean;
  facts_at_risk: { kind: string; text: string }[];
}

describe("the loss report", () => {
  it("lists a path, an error code and a URL a summary drops, and drops one once the summary names it", async () => {
    w = await qWorkspace({
      script: [
        {
          text: "The deploy of https://ci.example.com/runs/4411 failed: EACCES on /etc/deploy/keys/zebra.pem.",
        },
        { text: "ok" },
      ],
    });
    await w.jp("q", "Why did the deploy fail?");
    await w.jp("q", "thanks");
    const dry = await w.jp("c", "compact", "--turn", "1", "--summary", "A deploy failed.", "--dry-run");
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(
      "At risk: 3 facts nowhere else in view: https://ci.example.com/runs/4411, /etc/deploy/keys/zebra.pem, EACCES.",
    );
    const json = await w.jp(
      "c",
      "compact",
      "--turn",
      "1",
      "--summary",
      "A deploy failed.",
      "--dry-run",
      "--json",
    );
    expect((JSON.parse(json.stdout) as CompactJson).facts_at_risk).toEqual([
      { kind: "url", text: "https://ci.example.com/runs/4411" },
      { kind: "path", text: "/etc/deploy/keys/zebra.pem" },
      { kind: "error_code", text: "EACCES" },
    ]);
    // A summary that names the path takes it off the list; the compaction is recorded.
    const named = await w.jp(
      "c",
      "compact",
      "--turn",
      "1",
      "--summary",
      "A deploy failed reading /etc/deploy/keys/zebra.pem.",
      "--json",
    );
    const recorded = JSON.parse(named.stdout) as CompactJson;
    expect(recorded.dry_run).toBe(false);
    expect(recorded.facts_at_risk.map((f) => f.text)).toEqual(["https://ci.example.com/runs/4411", "EACCES"]);
    expect(w.events().filter((e) => e.type === "compaction")).toHaveLength(1);
  });
});
