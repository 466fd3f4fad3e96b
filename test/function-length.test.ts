// A function that grows past 80 lines is split where its steps are, and a file
// past 500 where its parts are: held here for every function, method and
// arrow, and every file, in src/ (the derived checkers aside). The two hubs of
// `jp q`, its command and the turn loop, are held shorter.
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./support/source-files.js";
import { REPO_ROOT } from "./support/workspace.js";

const MOST_LINES = 80;

/** Each function of `file` longer than MOST_LINES, as `file:line (lines)`. */
function longFunctions(file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const lines = source.getLineAndCharacterOfPosition(node.end).line - first + 1;
      if (lines > MOST_LINES) found.push(`${path.relative(REPO_ROOT, file)}:${first + 1} (${lines} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** src/'s files as written: the checkers derived from the schemas are generated. */
const written = () =>
  sourceFiles(path.join(REPO_ROOT, "src")).filter((f) => !f.endsWith(".check.ts") && !f.endsWith(".d.ts"));

const lineCount = (file: string) => fs.readFileSync(file, "utf8").split("\n").length - 1;

describe("functions in src/", () => {
  it(`are at most ${MOST_LINES} lines each`, () => {
    expect(written().flatMap(longFunctions)).toEqual([]);
  });
});

describe("files in src/", () => {
  it("are at most 500 lines each", () => {
    const long = written().filter((f) => lineCount(f) > 500);
    expect(long.map((f) => `${path.relative(REPO_ROOT, f)} (${lineCount(f)} lines)`)).toEqual([]);
  });

  it("hold jp q's command to 250 lines and the turn loop's control under 300", () => {
    expect(lineCount(path.join(REPO_ROOT, "src/cli/commands/q.ts"))).toBeLessThanOrEqual(250);
    expect(lineCount(path.join(REPO_ROOT, "src/turn/loop.ts"))).toBeLessThan(300);
  });
});
