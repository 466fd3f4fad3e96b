// The library's API report: every name src/index.ts exports, with its kind and
// its type (for interfaces and types, their members as declared), one per line. test/index.test.ts compares it with
// api/jp-api.txt; `node scripts/api-report.mjs --write` updates that file after
// a change to the API was meant.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const REPORT_FILE = path.join(ROOT, "api/jp-api.txt");

/** The body of a symbol's declaration on one line, comments left out: an interface's `{ … }`, a type's right-hand side. */
function declarationText(symbol, is) {
  const declaration = symbol.declarations?.find(is);
  if (!declaration) return "";
  const node = ts.isTypeAliasDeclaration(declaration) ? declaration.type : declaration;
  const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });
  const text = printer.printNode(ts.EmitHint.Unspecified, node, declaration.getSourceFile());
  // An interface's type parameters, `extends` and members: what follows its name.
  const name = ts.isInterfaceDeclaration(declaration) ? declaration.name.text : "";
  const body = name ? text.slice(text.indexOf(name) + name.length) : text;
  return body.replace(/\s+/g, " ").trim();
}

export function apiReport() {
  const entry = path.join(ROOT, "src/index.ts");
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  const program = ts.createProgram([entry], config.options);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(entry));
  const lines = checker.getExportsOfModule(module).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const name = exported.getName();
    const specifier = exported.declarations?.find(ts.isExportSpecifier);
    const typeOnly = specifier !== undefined && (specifier.isTypeOnly || specifier.parent.parent.isTypeOnly);
    const flags = symbol.flags;
    if (!typeOnly && flags & ts.SymbolFlags.Class) return `class ${name}`;
    if (!typeOnly && flags & ts.SymbolFlags.Function) {
      // The signature as written: the declared types, not their expansions.
      const declaration = symbol.declarations.find(ts.isFunctionDeclaration);
      const body = declaration.body ? declaration.body.getStart() : declaration.getEnd();
      const source = declaration.getSourceFile().text;
      const signature = source.slice(declaration.name.getStart(), body).replace(/\s+/g, " ").trim();
      return `function ${signature}`;
    }
    if (!typeOnly && flags & ts.SymbolFlags.Variable) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, symbol.valueDeclaration);
      return `const ${name}: ${checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation)}`;
    }
    // Interfaces and type aliases with their members as written: a changed member changes the report.
    if (flags & ts.SymbolFlags.Interface)
      return `interface ${name} ${declarationText(symbol, ts.isInterfaceDeclaration)}`;
    return `type ${name} = ${declarationText(symbol, ts.isTypeAliasDeclaration)}`;
  });
  return lines.sort().join("\n") + "\n";
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = apiReport();
  if (process.argv.includes("--write")) fs.writeFileSync(REPORT_FILE, report);
  else process.stdout.write(report);
}
