// Owns keeping V8's compiled code of the CLI bundle between runs, so a command
// does not parse the chunks it loads anew each time (a plain `jp q` loads some
// 750 KB of them). Node 22 does this for every module with
// module.enableCompileCache; on Node 20 the bundle's chunks (CommonJS, see
// scripts/bundle.js) are compiled here with V8's code cache instead.
//
// The cache sits in the user's cache folder, in a folder only the user can
// write (and every folder above it, from the cache root down): code read
// from it runs as jp. V8 checks only a source's length against its cached
// code, so a folder is made per build of the bundle (the bundle's
// package.json names its build) and per Node version, and each file carries
// the version of the chunk it was made from (its size and modification time)
// and a checksum of itself: another's file, a chunk changed in place, or a
// flipped bit, is compiled afresh instead of crashing V8. A marker left by a
// process that died while loading cached code drops the folder's cache once.
//
// Loaded by bin/jp before the bundle; it imports only Node's built-ins and
// two small modules of jp's (user-cache, remove-file).
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { userCacheDir } from "../user-cache.js";
import { removeFile } from "../remove-file.js";

interface CommonJsModule {
  exports: unknown;
}
type Compile = (this: CommonJsModule, content: string, filename: string, ...rest: unknown[]) => unknown;

function isCompile(value: unknown): value is Compile {
  return typeof value === "function";
}

/** Folders of builds not used for this long are removed when a new build's folder is made. */
const UNUSED_BUILD_MS = 30 * 24 * 3600 * 1000;

/** The build the bundle's package.json names; none when it names none. */
function buildOf(bundleDir: string): string | undefined {
  try {
    const manifest: unknown = JSON.parse(fs.readFileSync(path.join(bundleDir, "package.json"), "utf8"));
    const build: unknown =
      typeof manifest === "object" && manifest !== null && Reflect.get(manifest, "jpBuild");
    return typeof build === "string" && /^[0-9a-f]{16,}$/.test(build) ? build : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `dir` is a folder of this user's that no one else may write to. */
function isPrivateFolder(dir: string): boolean {
  const stat = fs.lstatSync(dir);
  const owner = process.getuid?.();
  return stat.isDirectory() && (owner === undefined || stat.uid === owner) && (stat.mode & 0o022) === 0;
}

/**
 * Whether every folder above `dir` is one git would call safe: owned by this
 * user or root, and none that others may write to without the sticky bit
 * (in such a folder another user could rename the cache away and put their
 * own in its place).
 */
function ancestorsSafe(dir: string): boolean {
  const owner = process.getuid?.();
  if (owner === undefined) return true;
  // Folders not made yet are made by jp, privately: the walk starts at the nearest one there is.
  let start = path.resolve(dir);
  while (!fs.existsSync(start) && path.dirname(start) !== start) start = path.dirname(start);
  try {
    const real = fs.realpathSync(start);
    for (let at = real === path.resolve(dir) ? path.dirname(real) : real; ; at = path.dirname(at)) {
      const stat = fs.lstatSync(at);
      if (stat.uid !== owner && stat.uid !== 0) return false;
      if ((stat.mode & 0o002) !== 0 && (stat.mode & 0o1000) === 0) return false;
      if (path.dirname(at) === at) return true;
    }
  } catch {
    return false;
  }
}

/**
 * The cache folder of this build and Node, made when missing; none when it,
 * or any folder from the cache root `base` down to it, cannot be trusted, or
 * it cannot be made (a read-only home only costs each start its parsing).
 */
function cacheFolder(base: string, root: string, build: string): string | undefined {
  const dir = path.join(root, `${process.version}-${process.arch}-${build}`);
  try {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(root, { recursive: true, mode: 0o700 });
      fs.mkdirSync(dir, { mode: 0o700 });
      removeUnusedBuilds(root, dir);
    }
    const chain = [base];
    for (let at = dir; at !== base && at.startsWith(base); at = path.dirname(at)) chain.push(at);
    return chain.every(isPrivateFolder) && ancestorsSafe(base) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** A process that died while V8 read cached code (a marker of its pid is left): the folder's cache is dropped. */
function dropAfterCrash(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    const pid = /^loading-(\d+)$/.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    for (const file of fs.readdirSync(dir))
      if (file.endsWith(".v8cache") || file === name) removeFile(path.join(dir, file));
    return;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // Another user's live process is alive too.
    return error instanceof Error && "code" in error && error.code === "EPERM";
  }
}

function removeUnusedBuilds(root: string, current: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(root)) {
    const dir = path.join(root, name);
    if (dir !== current && now - fs.statSync(dir).mtimeMs > UNUSED_BUILD_MS)
      fs.rmSync(dir, { recursive: true, force: true });
  }
}

const MAGIC = Buffer.from("jpV8cache2\n");
/** The version of the chunk the code was made from, as text. */
const VERSION = 32;
/** Its checksum, padded so the code that follows starts on a 4-byte boundary. */
const SEAL = 5;
const HEAD = MAGIC.length + VERSION + SEAL;
/** No chunk's cached code comes near this; a larger file is not one jp wrote. */
const MOST_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * FNV-1a over the data's 32-bit words, then its last bytes. It guards against
 * a flipped bit or a torn write, not against a writer (the folder is the
 * user's own): any one changed word changes it, since each step is invertible.
 * No digest of node:crypto, whose loading alone cost every start 2.5 ms.
 */
function checksum(data: Buffer): Buffer {
  const words = data.length >>> 2;
  const aligned = data.byteOffset % 4 === 0 ? data : Buffer.from(data);
  const view = new Int32Array(aligned.buffer, aligned.byteOffset, words);
  let hash = 0x811c9dc5;
  for (let i = 0; i < words; i++) hash = Math.imul(hash ^ view[i]!, 0x01000193);
  for (let i = words * 4; i < data.length; i++) hash = Math.imul(hash ^ data[i]!, 0x01000193);
  const seal = Buffer.alloc(SEAL);
  seal.writeInt32LE(hash);
  return seal;
}

/**
 * What names one version of a chunk file: its size and modification time (a
 * chunk changed in place moves it; two installs of one build made from one
 * package share it). Cheaper than a digest of its content, which the chunks
 * of one `jp q` (about 1 MB) took some 1.5 ms to make.
 */
function versionOf(filename: string): Buffer {
  const stat = fs.statSync(filename, { bigint: true });
  // At most 10 + 1 + 16 hex digits: it fits its field.
  return Buffer.from(`${stat.size.toString(16)}:${stat.mtimeNs.toString(16)}`.padEnd(VERSION));
}

/**
 * The cached code of `source` in `file`, when the file is the user's own, a
 * regular file only the user may write, and holds what jp wrote for this very
 * version of the source, unchanged: anything else is compiled afresh.
 */
function readCache(file: string, source: Buffer): Buffer | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const owner = process.getuid?.();
    if (!stat.isFile() || (owner !== undefined && stat.uid !== owner) || (stat.mode & 0o022) !== 0)
      return undefined;
    if (stat.size > MOST_CACHE_BYTES) return undefined;
    const bytes = fs.readFileSync(fd);
    if (bytes.length <= HEAD || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
    const data = bytes.subarray(HEAD);
    const made = bytes.subarray(MAGIC.length, MAGIC.length + VERSION);
    const sealed = bytes.subarray(MAGIC.length + VERSION, HEAD);
    return made.equals(source) && sealed.equals(checksum(data)) ? data : undefined;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Write what V8 compiled of each script, whole or not at all: another jp may be reading it. */
function writeCaches(made: { script: vm.Script; file: string; source: Buffer }[]): void {
  for (const { script, file, source } of made) {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      const data = script.createCachedData();
      fs.writeFileSync(temp, Buffer.concat([MAGIC, source, checksum(data), data]), { mode: 0o600 });
      fs.renameSync(temp, file);
    } catch {
      removeFile(temp);
    }
  }
}

/**
 * Compile the chunks of `bundleDir` with V8's code cache from now on. Nothing
 * changes when the cache cannot be used: no build named, a folder that is not
 * private, `NODE_DISABLE_COMPILE_CACHE=1` (Node's own switch), or `JP_DEBUG=1`
 * (stack traces are mapped to src/ only for code Node compiles itself).
 */
export function enableCompileCache(bundleDir: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.NODE_DISABLE_COMPILE_CACHE === "1" || env.JP_DEBUG === "1") return;
  const jpCache = userCacheDir(env);
  const root = path.join(jpCache, "compile-cache");
  // Node 22 keeps every module's compiled code, checked against its content.
  const nodeCache: unknown = Reflect.get(Module, "enableCompileCache");
  if (typeof nodeCache === "function") {
    if (!ancestorsSafe(root)) return;
    Reflect.apply(nodeCache, Module, [path.join(root, "node")]);
    return;
  }
  const build = buildOf(bundleDir);
  const original: unknown = Reflect.get(Module.prototype, "_compile");
  if (build === undefined || !isCompile(original)) return;
  const dir = cacheFolder(path.dirname(jpCache), root, build);
  if (dir === undefined) return;
  try {
    dropAfterCrash(dir);
  } catch {
    return;
  }
  const marker = path.join(dir, `loading-${process.pid}`);
  // One marker for each run of loads: chunks require each other synchronously, so it
  // goes once the loads that began with the first cached one are done.
  let marked = false;
  const mark = () => {
    if (marked) return;
    fs.writeFileSync(marker, "");
    marked = true;
    process.nextTick(() => {
      removeFile(marker);
      marked = false;
    });
  };
  const inBundle = `${path.resolve(bundleDir)}${path.sep}`;
  const made: { script: vm.Script; file: string; source: Buffer }[] = [];
  const compile: Compile = function (this: CommonJsModule, content, filename, ...rest) {
    if (!filename.startsWith(inBundle) || filename.includes(path.sep, inBundle.length))
      return original.call(this, content, filename, ...rest);
    const file = path.join(dir, `${path.basename(filename)}.v8cache`);
    const source = versionOf(filename);
    const cachedData = readCache(file, source);
    // The wrapper CommonJS gives every file, on the file's first line: its line numbers stay.
    // Marked while V8 reads cached code: a crash there leaves the marker, and the next run starts clean.
    if (cachedData) mark();
    const script = new vm.Script(
      `(function (exports, require, module, __filename, __dirname) { ${content}\n})`,
      {
        filename,
        ...(cachedData ? { cachedData } : {}),
        // A chunk's import() (its require()s are CommonJS's) loads as it would outside the cache.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      },
    );
    if (cachedData === undefined || script.cachedDataRejected === true) made.push({ script, file, source });
    const wrapped: unknown = script.runInThisContext();
    if (typeof wrapped !== "function") throw new Error(`${filename} did not compile to a function`);
    const require = Module.createRequire(filename);
    return Reflect.apply(wrapped, this.exports, [
      this.exports,
      require,
      this,
      filename,
      path.dirname(filename),
    ]);
  };
  Reflect.set(Module.prototype, "_compile", compile);
  // Made after the command ran, the cache holds the functions it compiled, not only the chunks' top level.
  process.once("exit", () => {
    writeCaches(made);
  });
}
