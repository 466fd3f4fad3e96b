// Owns `extends` in a config file, as JP writes it: more files read before
// the file itself (so its own values win), named by paths or globs relative
// to it (`"mcp/tools/**/*.toml"`). Each file read becomes a layer of its own,
// so `jp config show --origin` names the file a value came from.
import * as fs from "node:fs";
import * as path from "node:path";
import { globFiles, isGlob } from "../glob.js";
import { ConfigError } from "./errors.js";
import { readTomlFile, type Layer } from "./layers.js";

/** How deep a chain of `extends` jp follows, and how many files they may reach in all. */
export const MAX_EXTENDS_DEPTH = 32;
export const MAX_EXTENDED_FILES = 1000;

/** Whether `file`, its links resolved, lies inside `dir`. */
function isInside(dir: string, file: string): boolean {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  const relative = path.relative(real(dir), real(file));
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/** The files one `extends` entry names, relative to the folder of the file that extends. */
function extendedFiles(entry: string, from: string, shownFrom: string): string[] {
  const absolute = path.resolve(path.dirname(from), entry);
  if (!isGlob(entry)) {
    if (!fs.existsSync(absolute))
      throw new ConfigError(
        `${shownFrom}: extends names ${entry}, which does not exist (looked for ${absolute})`,
        "give a path relative to the file that extends it, or remove the entry",
      );
    return [absolute];
  }
  return globFiles(entry, path.dirname(from));
}

/** The layers of one config file: those it extends (depth first, in the order given), then the file itself. */
export function fileLayers(
  file: string,
  kind: string,
  shown: (absolute: string) => string,
  bounds?: ExtendsBounds,
): Layer[] {
  const shownFile = shown(file);
  return withExtended(
    { name: `${kind} (${shownFile})`, file: shownFile, value: readTomlFile(file, shownFile), path: file },
    kind,
    shown,
    new Set(),
    0,
    bounds,
  );
}

/** Where `extends` may read: files outside `within` are skipped, each told to `outside`. */
export interface ExtendsBounds {
  within: string;
  outside: (file: string, from: string) => void;
}

/**
 * A file's layer preceded by the layers of the files it extends. `shown`
 * names a file for people, relative to where jp runs; `kind` prefixes the
 * layer names ("workspace", "user").
 */
export function withExtended(
  layer: Layer,
  kind: string,
  shown: (absolute: string) => string,
  seen: ReadonlySet<string> = new Set(),
  depth = 0,
  bounds?: ExtendsBounds,
): Layer[] {
  const extendsValue = layer.value.extends;
  if (extendsValue === undefined || layer.path === undefined) return [layer];
  const shownFile = layer.file ?? layer.name;
  if (depth >= MAX_EXTENDS_DEPTH)
    throw new ConfigError(
      `${shownFile}: extends goes ${MAX_EXTENDS_DEPTH} files deep, more than jp follows`,
      "extend fewer files in a chain (a file may extend many at once)",
    );
  if (!Array.isArray(extendsValue) || extendsValue.some((e) => typeof e !== "string"))
    throw new ConfigError(`${shownFile}: extends must be a list of paths`, 'write extends = ["other.toml"]');
  const from = layer.path;
  const inner = new Set([...seen, from]);
  const extended = extendsValue.flatMap((entry: string) =>
    extendedFiles(entry, from, shownFile).flatMap((file) => {
      // A file extended twice, or extending itself, is read once.
      if (inner.has(file)) return [];
      inner.add(file);
      if (bounds && !isInside(bounds.within, file)) {
        bounds.outside(shown(file), shownFile);
        return [];
      }
      if (inner.size > MAX_EXTENDED_FILES)
        throw new ConfigError(
          `${shownFile}: extends reaches more than ${MAX_EXTENDED_FILES} files, more than jp reads`,
          "narrow the globs of extends",
        );
      const shownExtended = shown(file);
      const value = readTomlFile(file, shownExtended);
      const name = `${kind} (${shownExtended}, extended by ${shownFile})`;
      return withExtended(
        { name, file: shownExtended, value, path: file },
        kind,
        shown,
        inner,
        depth + 1,
        bounds,
      );
    }),
  );
  return [...extended, layer];
}
