import { describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import { createContext } from "../../src/cli/context.js";

function terminal(isTTY: boolean) {
  const stream = new PassThrough() as PassThrough & { isTTY?: boolean };
  stream.isTTY = isTTY;
  let text = "";
  stream.on("data", (d: Buffer) => (text += d.toString()));
  return { stream, text: () => text };
}

describe("ctx.status", () => {
  it("shows long work on one terminal line, cleared by the next output or when done", () => {
    const err = terminal(true);
    const ctx = createContext({ stderr: err.stream, stdout: new PassThrough() });
    const clear = ctx.status("planning and counting 120,000 events…");
    ctx.info("summarizing…");
    clear();
    const again = ctx.status("counting…");
    again();
    expect(err.text()).toBe(
      "\r\x1b[Kplanning and counting 120,000 events…\r\x1b[Ksummarizing…\n\r\x1b[Kcounting…\r\x1b[K",
    );
  });

  it("writes nothing off a terminal", () => {
    const err = terminal(false);
    const ctx = createContext({ stderr: err.stream, stdout: new PassThrough() });
    ctx.status("counting…")();
    expect(err.text()).toBe("");
  });
});
