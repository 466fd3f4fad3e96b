// A running tool's area, drawn on a stand-in terminal stream and played into
// a headless xterm.js: whatever the width of its lines and however the
// window is resized, what it drew is gone once the tool ends.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { PLAIN } from "../../src/render/palette.js";
import { startToolRunView } from "../../src/render/tool-run.js";
import { screenRows, type ScreenPart } from "../support/screen.js";

/** A terminal stream whose writes are kept per size, resized as a window is. */
class FakeTerminal extends EventEmitter {
  columns: number;
  readonly parts: ScreenPart[];
  constructor(
    columns: number,
    private readonly rows: number,
  ) {
    super();
    this.columns = columns;
    this.parts = [{ data: "", columns, rows }];
  }
  write(data: string): boolean {
    // As a pty does: a line feed comes back as carriage return and line feed.
    this.parts.at(-1)!.data += data.replace(/\n/g, "\r\n");
    return true;
  }
  resize(columns: number): void {
    this.columns = columns;
    this.parts.push({ data: "", columns, rows: this.rows });
    this.emit("resize");
  }
}

function run(steps: (terminal: FakeTerminal, at: { ms: number }) => void): Promise<string[]> {
  const terminal = new FakeTerminal(80, 24);
  terminal.write("before the tool\n");
  const at = { ms: 0 };
  steps(terminal, at);
  return screenRows(terminal.parts);
}

const WIDE = Array.from({ length: 6 }, (_, i) => `${i}${"中".repeat(300)}\n`).join("");

describe("a running tool's area", () => {
  it.each([
    ["lines wider than the terminal", []],
    ["a narrower window", [30]],
    ["a wider window", [140]],
    ["a window narrowed twice", [50, 26]],
  ])("is erased whole after %s", async (_name, widths) => {
    const rows = await run((terminal, at) => {
      const view = startToolRunView("wide", terminal, PLAIN, {
        now: () => at.ms,
      });
      at.ms = 1500;
      view.output(WIDE);
      for (const columns of widths) terminal.resize(columns);
      at.ms = 2500;
      view.output("5 done\n");
      view.end();
    });
    expect(rows).toEqual(["before the tool", "  ⏱ wide ran 2s"]);
  });

  it("is erased while held for a question, and draws nothing over it until released", async () => {
    const rows = await run((terminal, at) => {
      const view = startToolRunView("asker", terminal, PLAIN, { now: () => at.ms });
      at.ms = 1500;
      view.output("working\n");
      const release = view.hold();
      terminal.write("Delete a.txt? [y/N] ");
      at.ms = 2600;
      view.output("more output while asked\n");
      terminal.emit("resize");
      terminal.write("y\n");
      release();
      at.ms = 2800;
      view.end();
    });
    expect(rows).toEqual(["before the tool", "Delete a.txt? [y/N] y", "  ⏱ asker ran 2s"]);
  });

  it("is erased when its signal aborts, before anything else is written", async () => {
    const interrupt = new AbortController();
    const rows = await run((terminal, at) => {
      const view = startToolRunView("wide", terminal, PLAIN, {
        now: () => at.ms,
        signal: interrupt.signal,
      });
      at.ms = 1500;
      view.output(WIDE);
      interrupt.abort();
      terminal.write("interrupted\n");
      view.output("more after the interrupt\n");
      view.end();
    });
    expect(rows).toEqual(["before the tool", "interrupted", "  ⏱ wide ran 1s"]);
  });
});
