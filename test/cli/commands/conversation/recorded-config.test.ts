// A conversation's recorded config is data: a key that could reach Object.prototype is left out with a
// line saying so, and never stops a command from working on that conversation.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

it("a __proto__ or constructor key in a recorded config is left out, and q, show and compact work", async () => {
  w = await qWorkspace({ script: [{ text: "first" }, { text: "second" }] });
  expect((await w.jp("q", "-n", "one")).code).toBe(0);
  const delta = {
    type: "config_delta",
    timestamp: "2026-01-01T00:00:00Z",
    delta: JSON.parse(
      '{"__proto__":{"polluted":"yes"},"conversation":{"tools":{"constructor":{"run":"unattended"}}}}',
    ) as unknown,
  };
  fs.appendFileSync(path.join(w.folder(), "events.jsonl"), `${JSON.stringify(delta)}\n`);
  const protoLine = "the conversation's recorded config (delta 1) has a key __proto__; jp leaves it out";
  for (const [i, args] of [
    ["conversation", "show"],
    ["conversation", "compact", "--dry-run"],
    ["q", "two"],
  ].entries()) {
    const result = await w.jp(...args);
    expect(result.code, `${args.join(" ")}: ${result.stderr}`).toBe(0);
    // Said once, by the first command; not again while it stays the same.
    if (i === 0) {
      expect(result.stderr).toContain(protoLine);
      expect(result.stderr).toContain("has a key conversation.tools.constructor; jp leaves it out");
    } else expect(result.stderr).not.toContain("jp leaves it out");
  }
  // config show lists it every time.
  expect((await w.jp("config", "show")).stdout).toContain(protoLine);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect((await w.jp("conversation", "doctor")).stdout).toMatch(/: ok\n$/);
});
