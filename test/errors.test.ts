import { describe, expect, it } from "vitest";
import { fromSystemError, JpError } from "../src/errors.js";

const systemError = (code: string, syscall: string, path?: string, dest?: string) =>
  Object.assign(new Error(`${code}: raw message, ${syscall} '${path}'`), { code, syscall, path, dest });

describe("fromSystemError", () => {
  it("says in one line what failed, on which path, and what to do", () => {
    const error = fromSystemError(systemError("EACCES", "open", "/w/.jp/conversations/1/events.jsonl"));
    expect(error).toBeInstanceOf(JpError);
    expect(error?.message).toBe("cannot open /w/.jp/conversations/1/events.jsonl: permission denied");
    expect(error?.hint).toBe("check the owner and mode of the path (`ls -l`)");
    expect(fromSystemError(systemError("ENOSPC", "write", "/w/x"))?.message).toBe(
      "cannot write /w/x: no space left on the device",
    );
    expect(fromSystemError(systemError("EXDEV", "rename", "/a", "/b"))?.message).toBe(
      "cannot rename /a to /b: EXDEV: raw message, rename '/a'",
    );
    expect(fromSystemError(systemError("EIO", "read"))?.message).toBe("read failed: input/output error");
  });

  it("leaves other errors alone", () => {
    expect(fromSystemError(new Error("plain"))).toBeUndefined();
    expect(fromSystemError(Object.assign(new Error("x"), { code: "ERR_INVALID_ARG_TYPE" }))).toBeUndefined();
    expect(fromSystemError("text")).toBeUndefined();
  });
});
