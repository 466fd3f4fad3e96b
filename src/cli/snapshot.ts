// Owns jp's start-up snapshot: the CLI bundle's start-up chunks loaded once,
// at build time, into a V8 heap that Node saves to a file
// (`node --build-snapshot`, https://nodejs.org/api/cli.html#--build-snapshot-entry).
// A command started from it (`node --snapshot-blob FILE`, as bin/jp does when
// the file fits the node that runs it) deserialises that heap instead of
// reading, compiling and running the chunks, every function of them
// compiled already.
//
// Built by scripts/bundle.js, which runs this file as the snapshot's entry
// with the chunks to load as arguments. Node's snapshot builder offers only
// its built-in modules to `require`, so the chunks (CommonJS, see
// scripts/bundle.js) are compiled here and each one's `require` of another
// chunk answered from the ones loaded. At run time every chunk loaded here is
// put into Node's module cache under its file name first, so a chunk loaded
// later from disk (a lazy one, through Node's own loader and the compiled-code
// cache) shares the very same modules.
//
// A module that reads the environment, the working folder or the terminal
// while it loads would keep the build's answer for good: the build fails
// instead (`guardLoadTime`), naming what was read.
import * as fs from "node:fs";
import Module from "node:module";
import os from "node:os";
import * as path from "node:path";
import * as v8 from "node:v8";
import * as vm from "node:vm";

interface LoadedChunk {
  exports: object;
}
type Require = (id: string) => object;

/** The chunks loaded into the heap, by absolute file name, in the order they loaded. */
const chunks = new Map<string, LoadedChunk>();
/** Node's built-in `require` of the snapshot builder, then a real one at run time. */
let requireOutside: Require = (id) => {
  throw new Error(`${id} is required outside a snapshot`);
};

/**
 * Node's modules that its snapshot builder cannot load (node:http fails in
 * Node 20's) or whose state is bound to the process (sockets, child
 * processes): their own property names, given by the build. A chunk that
 * requires one gets a stand-in whose properties load the module on first use,
 * at run time.
 */
const deferredBuiltins = new Map<string, string[]>();

function standIn(id: string, names: string[]): object {
  const standing = {};
  for (const name of names)
    Object.defineProperty(standing, name, {
      enumerable: true,
      get: (): unknown => {
        if (v8.startupSnapshot.isBuildingSnapshot())
          throw new Error(`a chunk uses ${id}'s ${name} while it loads; the snapshot cannot hold ${id}`);
        const value: unknown = Reflect.get(requireOutside(id), name);
        return value;
      },
    });
  return standing;
}

/** What a chunk's `require(id)` of something outside the bundle gives. */
function requireBuiltin(id: string): object {
  if (!v8.startupSnapshot.isBuildingSnapshot()) return requireOutside(id);
  const names = deferredBuiltins.get(id.replace(/^node:/, ""));
  return names ? standIn(id, names) : requireOutside(id);
}

/** Run before the first chunk a command loads from disk: the compiled-code cache, which only such a chunk needs. */
let beforeDiskLoad: (() => void) | undefined;

/** A chunk's exports: the loaded one, else read and run from disk. */
function load(file: string): object {
  const loaded = chunks.get(file);
  if (loaded) return loaded.exports;
  if (!v8.startupSnapshot.isBuildingSnapshot()) {
    const before = beforeDiskLoad;
    beforeDiskLoad = undefined;
    before?.();
    return requireOutside(file);
  }
  const chunk: LoadedChunk = { exports: {} };
  chunks.set(file, chunk);
  const dir = path.dirname(file);
  const run = vm.compileFunction(
    fs.readFileSync(file, "utf8"),
    ["exports", "require", "module", "__filename", "__dirname"],
    { filename: file },
  );
  const chunkRequire: Require = (id) => (id.startsWith(".") ? load(path.join(dir, id)) : requireBuiltin(id));
  run.call(chunk.exports, chunk.exports, chunkRequire, chunk, file, dir);
  return chunk.exports;
}

/** Node's module cache answers for each loaded chunk, so that a chunk loaded later shares them. */
function shareWithNodesLoader(bundle: string): void {
  const nodeRequire = Module.createRequire(path.join(bundle, "main.js"));
  for (const [file, chunk] of chunks) {
    const cached = new Module(file);
    cached.filename = file;
    cached.loaded = true;
    cached.exports = chunk.exports;
    nodeRequire.cache[file] = cached;
  }
  requireOutside = nodeRequire;
}

function callExport(exports: object, name: string, ...args: unknown[]): void {
  const exported: unknown = Reflect.get(exports, name);
  if (typeof exported !== "function") throw new Error(`jp's bundle has no ${name}: run \`npm run build\``);
  Reflect.apply(exported, exports, args);
}

/**
 * Runs `loadChunks` with every read of what differs between the build and a
 * command (the environment, the working folder, the home folder, the standard
 * streams) failing the build with its name.
 */
export function guardLoadTime(loadChunks: () => void): void {
  const env = process.env;
  const refuse = (what: string): never => {
    throw new Error(`a chunk reads ${what} while it loads: the snapshot would keep the build's value`);
  };
  const restore: (() => void)[] = [];
  const guard = (owner: object, key: string, what: string) => {
    const before = Object.getOwnPropertyDescriptor(owner, key);
    Object.defineProperty(owner, key, { configurable: true, get: () => refuse(what) });
    restore.push(() =>
      before ? Object.defineProperty(owner, key, before) : Reflect.deleteProperty(owner, key),
    );
  };
  process.env = new Proxy(env, { get: (_, key) => refuse(`process.env.${String(key)}`) });
  restore.push(() => (process.env = env));
  guard(process, "cwd", "the working folder");
  guard(os, "homedir", "the home folder");
  guard(os, "tmpdir", "the temporary folder");
  guard(Date, "now", "the time");
  for (const stream of ["stdin", "stdout", "stderr"]) guard(process, stream, `process.${stream}`);
  try {
    loadChunks();
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}

if (v8.startupSnapshot.isBuildingSnapshot()) {
  requireOutside = require;
  const [dir, ...names] = process.argv.slice(2);
  if (!dir || names.length === 0) throw new Error("usage: snapshot.js BUNDLE_DIR CHUNK...");
  const bundle = fs.realpathSync(dir);
  const deferred: unknown = JSON.parse(process.env.JP_SNAPSHOT_DEFERRED ?? "{}");
  for (const [id, names] of Object.entries(deferred ?? {}))
    if (Array.isArray(names)) deferredBuiltins.set(id, names.map(String));
  // Compiled whole as they load, every function's bytecode is in the heap: a command does not
  // compile what it calls first (`jp q` some 12 ms sooner; the file grows from 6.6 to 8 MB, which
  // costs `ls` and `--help` 2–4 ms). Laziness is back on before the heap is saved: a snapshot
  // runs only with the V8 flags it was saved with, and a command runs with the default ones.
  v8.setFlagsFromString("--no-lazy");
  try {
    guardLoadTime(() => {
      for (const name of names) load(path.join(bundle, name));
    });
  } finally {
    v8.setFlagsFromString("--lazy");
  }
  v8.startupSnapshot.setDeserializeMainFunction(() => {
    // bin/jp runs `node --snapshot-blob FILE -- BUNDLE_DIR ARGS...`. The chunks held here are known
    // by their paths at the build: from a bundle moved since, none is found and each loads from disk.
    const [found = "", ...args] = process.argv.slice(process.argv[1] === "--" ? 2 : 1);
    shareWithNodesLoader(bundle);
    const here = fs.realpathSync(found);
    beforeDiskLoad = () => {
      callExport(load(path.join(here, "compile-cache.js")), "enableCompileCache", here);
    };
    callExport(load(path.join(here, "main.js")), "launch", args);
  });
}
