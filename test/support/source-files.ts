// The TypeScript files under a folder, for the tests that read src/ as source (casts, function length).
import * as fs from "node:fs";
import * as path from "node:path";

export function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) =>
      e.isDirectory()
        ? sourceFiles(path.join(dir, e.name))
        : e.name.endsWith(".ts")
          ? [path.join(dir, e.name)]
          : [],
    );
}
