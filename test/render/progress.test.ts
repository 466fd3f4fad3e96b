import { describe, expect, it } from "vitest";
import { megabytes, progressLine } from "../../src/render/progress.js";

function terminal(isTTY: boolean) {
  const written: string[] = [];
  return {
    isTTY,
    written,
    write: (s: string) => (written.push(s), true),
  } as unknown as NodeJS.WritableStream & {
    isTTY: boolean;
    written: string[];
  };
}

describe("progressLine", () => {
  it("draws only after a second, at most ten times a second, and clears the line when done", () => {
    const tty = terminal(true);
    let now = 0;
    const progress = progressLine(
      tty,
      (d, t) => `reading ${d}/${t}`,
      () => now,
    );
    progress(1, 10);
    now = 900;
    progress(2, 10);
    expect(tty.written).toEqual([]);
    now = 1000;
    progress(3, 10);
    now = 1050;
    progress(4, 10);
    now = 1100;
    progress(5, 10);
    progress(10, 10);
    expect(tty.written).toEqual(["\r\x1b[Kreading 3/10", "\r\x1b[Kreading 5/10", "\r\x1b[K"]);
  });

  it("writes nothing off a terminal, and nothing at the end of quick work", () => {
    const pipe = terminal(false);
    const progress = progressLine(
      pipe,
      () => "x",
      () => 5000,
    );
    progress(1, 2);
    progress(2, 2);
    expect(pipe.written).toEqual([]);
    const tty = terminal(true);
    const quick = progressLine(
      tty,
      () => "x",
      () => 0,
    );
    quick(1, 2);
    quick(2, 2);
    expect(tty.written).toEqual([]);
    expect(megabytes(3 * 1024 * 1024 + 512 * 1024)).toBe("3.5 MB");
  });
});
