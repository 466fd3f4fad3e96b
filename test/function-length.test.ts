// A function that grows past 80 lines is split where its steps are: held here
// for every function, method and arrow in src/ (the derived checkers aside).
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

describe("functions in src/", () => {
  it(`are at most ${MOST_LINES} lines each`, () => {
    const written = sourceFiles(path.join(REPO_ROOT, "src")).filter(
      (f) => !f.endsWith(".check.ts") && !f.endsWith(".d.ts"),
    );
    expect(written.flatMap(longFunctions)).toEqual([]);
  });
});
