// `jp config show`: a value longer than a row can hold (a JP persona's system
// prompt runs to thousands of characters) is cut, with or without --origin,
// and said to be; --full and --json show it whole.
import * as fs from "node:fs";
import * as path from "node:path";
import { beforeAll, expect, it } from "vitest";
import { SHOWN_VALUE_CHARS } from "../../../../src/cli/commands/config/index.js";
import { runCli, tempDir } from "../../../support/workspace.js";

let ws: string;
const prompt = `You are a careful reviewer. ${"Read every line twice. ".repeat(40)}End.`;

beforeAll(async () => {
  ws = tempDir();
  expect((await runCli(["init"], { cwd: ws })).code).toBe(0);
  fs.appendFileSync(
    path.join(ws, ".jp/config.toml"),
    `\n[assistant]\nsystem_prompt = ${JSON.stringify(prompt)}\n`,
  );
});

const show = async (...flags: string[]) => {
  const result = await runCli(["config", "show", ...flags], { cwd: ws });
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.split("\n");
};
const promptRow = (rows: string[]) => rows.find((row) => row.startsWith("assistant.system_prompt ")) ?? "";

it("cuts a long value to a row's worth, says how long it is, and says once how to see it whole", async () => {
  const rows = await show();
  const row = promptRow(rows);
  const whole = JSON.stringify(prompt);
  expect(row).toContain(
    `= ${whole.slice(0, SHOWN_VALUE_CHARS)}… (${whole.length.toLocaleString("en")} characters)`,
  );
  expect(row).not.toContain("End.");
  expect(rows).toContain(
    `# 1 value cut at ${SHOWN_VALUE_CHARS} characters: --full shows it whole (--json too)`,
  );
  // A short value is whole, and says nothing.
  expect(rows.find((r) => r.startsWith("assistant.cache "))).toMatch(/= true$/);
});

it("cuts it with --origin too, the origin still on its row", async () => {
  const row = promptRow(await show("--origin"));
  expect(row).toMatch(/… \([\d,]+ characters\) {2}# workspace \(\.jp\/config\.toml\)$/);
});

it("shows it whole with --full (and --origin), and in --json", async () => {
  const rows = await show("--full", "--origin");
  expect(promptRow(rows)).toContain(`= ${JSON.stringify(prompt)}  # workspace`);
  expect(rows.some((r) => r.includes("cut at"))).toBe(false);
  const json = await runCli(["config", "show", "--json"], { cwd: ws });
  expect((JSON.parse(json.stdout) as { assistant: { system_prompt: string } }).assistant.system_prompt).toBe(
    prompt,
  );
});
