// A JP user's habits at the command line: JP's short command names and its
// ways of naming a conversation (`.`, `n`, `jp-c<id>`).
import { describe, expect, it } from "vitest";
import { runCli, tempWorkspace } from "../../support/workspace.js";

describe("JP's habits", () => {
  it("c s ., c p ., c u ID, c l and cfg show work as JP's short forms", async () => {
    const ws = tempWorkspace();
    const jp = (...args: string[]) => runCli(args, { cwd: ws.root });
    const made = async (title: string) =>
      (JSON.parse((await jp("conversation", "new", "--title", title, "--json")).stdout) as { id: string }).id;
    const older = await made("older");
    const newer = await made("newer");
    const used = await jp("c", "u", older);
    expect(used.code, used.stderr).toBe(0);
    // `.` is the active conversation.
    const shown = await jp("c", "s", ".", "--json");
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { id: string }).id).toBe(older);
    expect((await jp("c", "p", ".")).code).toBe(0);
    // `n` is the newest, and jp-c<id> is JP's way of writing an id.
    expect((JSON.parse((await jp("c", "s", "n", "--json")).stdout) as { id: string }).id).toBe(newer);
    expect((JSON.parse((await jp("c", "s", `jp-c${older}`, "--json")).stdout) as { id: string }).id).toBe(
      older,
    );
    expect((await jp("c", "l")).stdout).toContain("newer");
    const config = await jp("cfg", "show");
    expect(config.code, config.stderr).toBe(0);
    expect(config.stdout).toContain("assistant.model.id");
  });
});
