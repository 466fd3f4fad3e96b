// Casts (`x as T`) tell the compiler to stop checking. Their number in src/ is
// held here and may only go down: under 20, each where the types cannot say it
// (zod's internals, the line validator's output, Node's web-stream bridge).
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "./support/source-files.js";
import { REPO_ROOT } from "./support/workspace.js";

/** Lower it when casts go away; never raise it. */
const CAST_BUDGET = 13;

function casts(file: string): number {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) {
      // `as const` narrows instead of overriding the checker, and `as unknown` only widens
      // (`x as unknown as T` is one cast, counted at its `as T`).
      const narrowsOnly = ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === "const";
      const widens = node.type.kind === ts.SyntaxKind.UnknownKeyword;
      if (!narrowsOnly && !widens) count += 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return count;
}

describe("casts in src/", () => {
  it(`stay within the budget of ${CAST_BUDGET}`, () => {
    const total = sourceFiles(path.join(REPO_ROOT, "src")).reduce((n, f) => n + casts(f), 0);
    expect(total, "a change added casts: narrow the types instead").toBeLessThanOrEqual(CAST_BUDGET);
  });
});
