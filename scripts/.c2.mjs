import ts from "typescript";
import * as fs from "node:fs";
import * as path from "node:path";
const files = [];
const walk = (d) => { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith(".ts")) files.push(p); } };
walk("src");
for (const f of files) {
  const sf = ts.createSourceFile(f, fs.readFileSync(f, "utf8"), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !(ts.isTypeReferenceNode(node.type) && node.type.typeName.getText() === "const")) {
      const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
      console.log(`${f}:${line + 1}: ${node.getText().replace(/\s+/g, " ").slice(0, 110)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}
