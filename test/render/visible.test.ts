// Text from models, tools, imports and other people's commits reaches the
// terminal with its control characters made visible; the log and --json keep
// them exactly.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { visible } from "../../src/render/visible.js";
import { qWorkspace, type QWorkspace } from "../support/q-workspace.js";

let w: QWorkspace | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

/** Characters that must never reach the terminal as they are. */
const RAW = ["\u001b", "\u0007", "\u009b", "\u202e"];
const raw = (text: string) => RAW.filter((ch) => text.includes(ch));

const ATTACK = "\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J\u009b31m\u202egnp.exe";

describe("visible", () => {
  it("shows escapes in caret notation, C1 and bidi controls as code points, and keeps tabs and newlines", () => {
    expect(visible(ATTACK)).toBe("^[]52;c;ZWNobyBwd25lZA==^G^[[2J<U+009B>31m<U+202E>gnp.exe");
    expect(visible("a\tb\nc\r\nd\re")).toBe("a\tb\nc\nde");
    expect(visible("plain text, é and 😀")).toBe("plain text, é and 😀");
  });
});

describe("hostile text on the terminal", () => {
  it("is shown safely by jp q, ls, show and print; --json and the log keep it exactly", async () => {
    w = await qWorkspace({ script: [{ text: `answer ${ATTACK}` }] });
    const asked = await w.jp("q", "hello");
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain("answer ^[]52;c;");
    const folder = w.folder();
    const metadata = JSON.parse(fs.readFileSync(path.join(folder, "metadata.json"), "utf8")) as Record<
      string,
      unknown
    >;
    fs.writeFileSync(
      path.join(folder, "metadata.json"),
      JSON.stringify({ ...metadata, title: `title ${ATTACK}` }),
    );
    for (const args of [
      ["conversation", "ls"],
      ["conversation", "show"],
      ["conversation", "print"],
    ]) {
      const out = await w.jp(...args);
      expect(out.code, args.join(" ")).toBe(0);
      expect(raw(out.stdout), args.join(" ")).toEqual([]);
      expect(out.stdout, args.join(" ")).toContain("^[]52;c;ZWNobyBwd25lZA==^G^[[2J");
    }
    expect(raw(asked.stdout)).toEqual([]);
    const json = JSON.parse((await w.jp("conversation", "show", "--json")).stdout) as { title: string };
    expect(json.title).toBe(`title ${ATTACK}`);
    expect(fs.readFileSync(path.join(folder, "events.jsonl"), "utf8")).toContain(
      JSON.stringify(ATTACK).slice(1, -1),
    );
  });
});
