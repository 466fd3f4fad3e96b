// The private temp folder: closed to others, never one planted by someone else.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { privateTempDir } from "../../src/store/private-temp.js";
import { tempDir } from "../support/workspace.js";

describe("the private temp folder", () => {
  const saved = process.env.TMPDIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });
  const uid = process.getuid!();

  it("is jp-<uid>, created closed to others", () => {
    process.env.TMPDIR = tempDir();
    const dir = privateTempDir();
    expect(dir).toBe(path.join(process.env.TMPDIR, `jp-${uid}`));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
  });

  it("is a fresh private folder when jp-<uid> is open to others or a link", () => {
    process.env.TMPDIR = tempDir();
    const planted = path.join(process.env.TMPDIR, `jp-${uid}`);
    fs.mkdirSync(planted);
    fs.chmodSync(planted, 0o777);
    const dir = privateTempDir();
    expect(dir).not.toBe(planted);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);

    process.env.TMPDIR = tempDir();
    const elsewhere = tempDir();
    fs.symlinkSync(elsewhere, path.join(process.env.TMPDIR, `jp-${uid}`));
    expect(privateTempDir()).not.toBe(path.join(process.env.TMPDIR, `jp-${uid}`));
  });
});
