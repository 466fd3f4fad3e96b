// Model output and tool results are data: any JSON a provider sends (keys
// such as __proto__ and constructor included) is stored, read back and sent
// to the provider again exactly, and reaches no prototype on the way.
import * as fs from "node:fs";
import * as path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { qWorkspace, type QWorkspace } from "../../support/q-workspace.js";

const ECHO_TOOL = `
[conversation.tools.echo_args]
source = "local"
summary = "Echo the arguments"
command = ["node", "-e", "process.stdin.pipe(process.stdout)"]
run = "unattended"

[conversation.tools.echo_args.parameters.data]
type = "object"
description = "Anything"
required = true
`;

const SPECIAL_KEYS = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "__defineGetter__",
];
const key = fc.oneof(fc.constantFrom(...SPECIAL_KEYS), fc.string({ maxLength: 8 }));
const value = fc.jsonValue({ maxDepth: 3 });

/** An object's JSON text, written key by key so that `__proto__` is a key and nothing else. */
const objectText: fc.Arbitrary<string> = fc.letrec<{ object: string }>((tie) => ({
  object: fc
    .uniqueArray(
      fc.tuple(
        key,
        fc.oneof(
          { depthSize: "small" },
          value.map((v) => JSON.stringify(v)),
          tie("object"),
        ),
      ),
      {
        selector: ([k]) => k,
        maxLength: 5,
      },
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
})).object;
/** The echo tool's arguments: any object under its one parameter. */
const argumentsText = objectText.map((text) => `{"data":${text}}`);

let w: QWorkspace;
beforeAll(async () => {
  w = await qWorkspace({ extraConfig: ECHO_TOOL });
});
afterAll(async () => {
  await w.close();
});

describe("any JSON through a tool call", () => {
  it("is recorded, read back and sent again byte for byte, the tool's echo of it too", async () => {
    await fc.assert(
      fc.asyncProperty(argumentsText, async (text) => {
        const args = JSON.parse(text) as Record<string, unknown>;
        const exact = JSON.stringify(args);
        const before = w.mock.requests.length;
        w.mock.push(
          { tool_calls: [{ id: "toolu_any", name: "echo_args", arguments: args }] },
          { text: "done" },
        );
        const result = await w.jp("q", "-n", "echo this");
        expect(result.code, result.stderr).toBe(0);
        const call = w.events().find((e) => e.type === "tool_call_request")!;
        expect(JSON.stringify((call as { arguments: unknown }).arguments)).toBe(exact);
        const next = w.mock.requests[before + 1]!.body as {
          messages: { role: string; content: { type: string; input?: unknown; content?: unknown }[] }[];
        };
        const [assistant, user] = next.messages.slice(-2);
        expect(JSON.stringify(assistant!.content.find((b) => b.type === "tool_use")!.input)).toBe(exact);
        expect(user!.content.find((b) => b.type === "tool_result")!.content).toBe(exact);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        // Reading the conversation again (print) works too.
        expect((await w.jp("conversation", "print")).code).toBe(0);
      }),
      { numRuns: 25 },
    );
  });
});

describe("a log that lost a line", () => {
  it("still makes a valid request once doctor quarantined a tool call's line: its result is left out", async () => {
    const lost = await qWorkspace({
      script: [
        { tool_calls: [{ id: "toolu_lost", name: "count_words", arguments: { path: "notes.txt" } }] },
        { text: "5 words." },
        { text: "still here." },
      ],
    });
    try {
      expect((await lost.jp("q", "count")).code).toBe(0);
      const file = path.join(lost.folder(), "events.jsonl");
      const lines = fs.readFileSync(file, "utf8").split("\n");
      const at = lines.findIndex((l) => l.includes('"tool_call_request"'));
      lines[at] = lines[at]!.slice(0, 40);
      fs.writeFileSync(file, lines.join("\n"));
      expect((await lost.jp("conversation", "doctor")).code).toBe(0);
      const next = await lost.jp("q", "and now?");
      expect(next.code, next.stderr).toBe(0);
      const sent = JSON.stringify(lost.mock.requests.at(-1)!.body);
      expect(sent).not.toContain("toolu_lost");
    } finally {
      await lost.close();
    }
  });
});
