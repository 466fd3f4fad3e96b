// Owns reading configuration layers from TOML files and -c/--cfg values,
// without validating them: cheap enough for every command to check its -c
// values, which load.ts then validates and merges.
import { messageOf } from "../errors.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse as parseToml, TomlError } from "smol-toml";
import { ConfigError } from "./errors.js";
import { FORBIDDEN_KEYS } from "../events/keys.js";
import type { Plain } from "./trust.js";
import { setValueAt } from "./paths.js";
import { grouped } from "../numbers.js";

export interface Layer {
  /** Shown by `config show --origin`, e.g. `workspace (.jp/config.toml)`. */
  name: string;
  /** The file a value came from, named in errors. */
  file?: string;
  value: Record<string, unknown>;
  /** The absolute path of the file read, when the layer is a file (its `extends` are relative to it). */
  path?: string;
}

/** A config file larger than this is refused: JP's own largest are a few kilobytes. */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/**
 * A config file's text. Only a regular file of bounded size is read: a FIFO,
 * a device (`/dev/zero`) or a folder is refused before anything is read, and
 * opening does not wait for a FIFO's writer.
 */
function configText(file: string, shown: string): string {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw new ConfigError(`cannot read config file ${shown}: ${messageOf(error)}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile())
      throw new ConfigError(
        `config file ${shown} is not a regular file`,
        "name a TOML file (not a folder, device or pipe)",
      );
    if (stat.size > MAX_CONFIG_BYTES)
      throw new ConfigError(
        `config file ${shown} is ${grouped(stat.size)} bytes, more than jp reads (${MAX_CONFIG_BYTES / 1024 / 1024} MiB)`,
        "split it, or name the right file",
      );
    return fs.readFileSync(fd, "utf8");
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError(`cannot read config file ${shown}: ${messageOf(error)}`);
  } finally {
    fs.closeSync(fd);
  }
}

export function readTomlFile(file: string, shown = file): Plain {
  const text = configText(file, shown);
  try {
    return parseToml(text);
  } catch (error) {
    if (error instanceof TomlError) {
      const first = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
      throw new ConfigError(
        `${shown}:${error.line}:${error.column}: ${first}`,
        "fix the TOML syntax at that line and column",
      );
    }
    throw error;
  }
}

/** The folders a `-c NAME` is looked for in, first to last: `.jp/config.d/`, then each `config_load_paths` folder. */
function cfgFolders(options: { workspaceDir?: string; loadPaths?: readonly string[] }): string[] {
  return [
    ...(options.workspaceDir ? [path.join(options.workspaceDir, "config.d")] : []),
    ...(options.loadPaths ?? []),
  ];
}

/** The TOML files of `folder`, each as `-c` names it (`dev`, or `skill/web` one folder down). */
function cfgFilesIn(folder: string, others: ReadonlySet<string>): { name: string; file: string }[] {
  const out: { name: string; file: string }[] = [];
  const walk = (dir: string, prefix: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // A folder named but missing offers nothing, as -c finds nothing there.
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isFile() && entry.name.endsWith(".toml"))
        out.push({ name: `${prefix}${entry.name.slice(0, -".toml".length)}`, file: full });
      // A subfolder that is a load path itself offers its files by their short names there.
      else if (entry.isDirectory() && depth > 0 && !others.has(full))
        walk(full, `${prefix}${entry.name}/`, depth - 1);
    }
  };
  walk(folder, "", 1);
  return out;
}

/**
 * The names `-c NAME` finds a file by (JP's personas, `dev`; `skill/web` one
 * folder down), each with the file it reads: the first folder holding a name wins, as in cfgLayer.
 */
export function cfgFileNames(options: {
  workspaceDir?: string;
  loadPaths?: readonly string[];
}): { name: string; file: string }[] {
  const folders = cfgFolders(options);
  const byName = new Map<string, string>();
  for (const folder of folders)
    for (const { name, file } of cfgFilesIn(folder, new Set(folders)))
      if (!byName.has(name)) byName.set(name, file);
  return [...byName].map(([name, file]) => ({ name, file }));
}

/** A `-c/--cfg` value: `key=value`, a file path, or a name in `.jp/config.d/` or a `config_load_paths` folder. */
export function cfgLayer(
  spec: string,
  options: { cwd: string; workspaceDir?: string; loadPaths?: readonly string[] },
): Layer {
  // Messages name the argument; a value of any length is cut so the message stays one line.
  const shownSpec = spec.length > 80 ? `${spec.slice(0, 77)}…` : spec;
  const eq = spec.indexOf("=");
  if (eq > 0 && !fs.existsSync(path.resolve(options.cwd, spec))) {
    const key = spec.slice(0, eq).trim();
    const raw = spec.slice(eq + 1);
    if (!/^[A-Za-z0-9_*'-]+(\.[A-Za-z0-9_*'-]+)*$/.test(key))
      throw new ConfigError(`-c ${shownSpec}: '${key}' is not a key path`, "write -c key.path=value");
    let parsed: unknown;
    try {
      parsed = parseToml(`v = ${raw}`).v;
    } catch {
      parsed = raw;
    }
    const value: Plain = {};
    const keys = key.split(".").map((k) => k.replace(/^'(.*)'$/, "$1"));
    const forbidden = keys.find((k) => FORBIDDEN_KEYS.has(k));
    if (forbidden !== undefined)
      throw new ConfigError(
        `-c ${shownSpec}: key ${forbidden} is not allowed`,
        "give a configuration key path",
      );
    setValueAt(value, keys, parsed);
    return { name: `-c ${shownSpec}`, value };
  }
  const direct = path.resolve(options.cwd, spec);
  if (fs.existsSync(direct) && fs.statSync(direct).isFile())
    return { name: `-c ${shownSpec}`, file: spec, value: readTomlFile(direct, spec), path: direct };
  const fileName = spec.endsWith(".toml") ? spec : `${spec}.toml`;
  const folders = cfgFolders(options);
  for (const folder of folders) {
    const named = path.join(folder, fileName);
    if (!fs.existsSync(named)) continue;
    const shown = path.relative(options.cwd, named) || named;
    return {
      name: `-c ${shownSpec} (${shown})`,
      file: shown,
      value: readTomlFile(named, shown),
      path: named,
    };
  }
  const looked = folders.map((f) => `${path.relative(options.cwd, f) || f}/`).join(", ");
  throw new ConfigError(
    `-c ${shownSpec}: no such file, and no ${fileName} in ${looked || ".jp/config.d/"}`,
    "give a TOML file, a name in .jp/config.d/ or a config_load_paths folder, or key=value",
  );
}
