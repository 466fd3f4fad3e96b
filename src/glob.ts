// Owns globs: `*` within a name, `**` across folders, `?` one character, the
// way config `extends` and `jp q -a` name files.
import * as fs from "node:fs";
import * as path from "node:path";

const GLOB_CHARS = /[*?[]/;

export function isGlob(entry: string): boolean {
  return GLOB_CHARS.test(entry);
}

/** A glob as a regular expression over `/`-separated relative paths. */
function globPattern(glob: string): RegExp {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      // `**/` matches no folder too.
      out += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else out += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${out}$`);
}

/** Files under `dir` whose path relative to it matches `pattern`, sorted. */
function matchingFiles(dir: string, pattern: RegExp): string[] {
  if (!fs.existsSync(dir)) return [];
  const entries = fs.readdirSync(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"))
    .filter((relative) => pattern.test(relative))
    .sort()
    .map((relative) => path.join(dir, relative));
}

/** The files a glob names, relative to `base`; the search starts at its fixed folders. */
export function globFiles(glob: string, base: string): string[] {
  const parts = glob.split("/");
  const fixed = parts.slice(
    0,
    parts.findIndex((p) => GLOB_CHARS.test(p)),
  );
  const start = path.resolve(base, ...fixed);
  return matchingFiles(start, globPattern(parts.slice(fixed.length).join("/")));
}
