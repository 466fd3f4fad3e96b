// jp's own JSON files (state, caches) as a repository could commit them: read
// as unreadable, never through, and never waited on.
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_JSON_FILE_BYTES, NotJpsFileError, readJsonFile } from "../../src/store/files.js";
import { tempDir } from "../support/workspace.js";

describe("readJsonFile", () => {
  const dir = tempDir();
  const at = (name: string) => path.join(dir, name);

  it("reads jp's own file, and nothing for a missing one", () => {
    fs.writeFileSync(at("ok.json"), '{"a":1}');
    expect(readJsonFile(at("ok.json"))).toEqual({ a: 1 });
    expect(readJsonFile(at("missing.json"))).toBeUndefined();
  });

  it("refuses a link (to /dev/zero, which would be read forever) without reading through it", () => {
    fs.symlinkSync("/dev/zero", at("zero.json"));
    expect(() => readJsonFile(at("zero.json"))).toThrow(NotJpsFileError);
    expect(() => readJsonFile(at("zero.json"))).toThrow("is a symbolic link");
  });

  it("refuses a FIFO at once, where a plain read would wait for a writer forever", () => {
    execFileSync("mkfifo", [at("fifo.json")]);
    expect(() => readJsonFile(at("fifo.json"))).toThrow("is not a regular file");
  });

  it("refuses a device and a folder", () => {
    fs.mkdirSync(at("folder.json"));
    expect(() => readJsonFile(at("folder.json"))).toThrow("is not a regular file");
    expect(() => readJsonFile("/dev/null")).toThrow("is not a regular file");
  });

  it("refuses a file larger than jp writes before reading a byte of it", () => {
    const fd = fs.openSync(at("big.json"), "w");
    fs.ftruncateSync(fd, MAX_JSON_FILE_BYTES + 1);
    fs.closeSync(fd);
    expect(() => readJsonFile(at("big.json"))).toThrow("more than jp writes");
  });

  it("names the file whose JSON is broken", () => {
    fs.writeFileSync(at("cut.json"), '{"a":');
    expect(() => readJsonFile(at("cut.json"))).toThrow(`${at("cut.json")}:`);
  });
});
