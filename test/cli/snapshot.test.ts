// What keeps the start-up snapshot honest: a module that reads, while it
// loads, something a command sees differently from the build fails the build.
// The chunks reach Node's modules as CommonJS does (their exports object), as the default import does.
import os from "node:os";
import { describe, expect, it } from "vitest";
import { guardLoadTime } from "../../src/cli/snapshot.js";

describe("the start-up snapshot's load-time guard", () => {
  it.each([
    ["process.env.HOME", () => process.env.HOME],
    ["the working folder", () => process.cwd()],
    ["the home folder", () => os.homedir()],
    ["the time", () => Date.now()],
    ["process.stdout", () => process.stdout],
  ])("fails a load that reads %s, naming it", (what, read) => {
    expect(() => {
      guardLoadTime(() => void read());
    }).toThrow(`a chunk reads ${what} while it loads`);
  });

  it("lets a load through that reads none of them, and puts everything back", () => {
    const env = process.env;
    let ran = false;
    guardLoadTime(() => {
      ran = [1, 2].map(String).join() === "1,2";
    });
    expect(ran).toBe(true);
    expect(process.env).toBe(env);
    expect(typeof process.cwd()).toBe("string");
    expect(typeof os.homedir()).toBe("string");
    expect(Date.now()).toBeGreaterThan(0);
  });
});
