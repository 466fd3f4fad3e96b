import { describe, expect, it } from "vitest";
import { editorCommand } from "../../src/tools/prompter.js";

describe("the editor command", () => {
  it("is $VISUAL, then $EDITOR, then vi, with its arguments", () => {
    expect(editorCommand({ VISUAL: "code --wait", EDITOR: "nano" })).toEqual({
      program: "code",
      args: ["--wait"],
    });
    expect(editorCommand({ EDITOR: "nano -w" })).toEqual({ program: "nano", args: ["-w"] });
    expect(editorCommand({})).toEqual({ program: "vi", args: [] });
  });

  it("passes over a blank variable instead of running an empty program", () => {
    expect(editorCommand({ VISUAL: "   ", EDITOR: "nano" })).toEqual({ program: "nano", args: [] });
    expect(editorCommand({ VISUAL: " ", EDITOR: "" })).toEqual({ program: "vi", args: [] });
  });
});
