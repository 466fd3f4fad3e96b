// Owns keeping V8's compiled code of the CLI bundle between runs, so a command
// does not parse the chunks it loads anew each time (a plain `jp q` loads some
// 750 KB of them). Node 22 does this for every module with
// module.enableCompileCache; on Node 20 the bundle's chunks (CommonJS, see
// scripts/bundle.js) are compiled here with V8's code cache instead.
//
// The cache sits in the user's cache folder, in a folder only the user can
// write: code read from it runs as jp. V8 checks only a source's length
// against its cached code, so a folder is made per build of the bundle (the
// bundle's package.json names its build) and per Node version.
//
// Loaded by bin/jp before the bundle; it imports only Node's built-ins and user-cache.ts.
import * as fs from "node:fs";
import Module from "node:module";
import * as path from "node:path";
import * as vm from "node:vm";
import { userCacheDir } from "../user-cache.js";

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
 * The cache folder of this build and Node, made when missing; none when it
 * cannot be trusted or made (a read-only home only costs each start its parsing).
 */
function cacheFolder(root: string, build: string): string | undefined {
  const dir = path.join(root, `${process.version}-${process.arch}-${build}`);
  try {
    if (!fs.existsSync(dir)) {
      fs.mkdirSync(root, { recursive: true, mode: 0o700 });
      fs.mkdirSync(dir, { mode: 0o700 });
      removeUnusedBuilds(root, dir);
    }
    return isPrivateFolder(root) && isPrivateFolder(dir) ? dir : undefined;
  } catch {
    return undefined;
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

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Write what V8 compiled of each script, whole or not at all: another jp may be reading it. */
function writeCaches(made: { script: vm.Script; file: string }[]): void {
  for (const { script, file } of made) {
    const temp = `${file}.${process.pid}.tmp`;
    try {
      fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temp, file);
    } catch {
      fs.rmSync(temp, { force: true });
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
  const root = path.join(userCacheDir(env), "compile-cache");
  // Node 22 keeps every module's compiled code, checked against its content.
  const nodeCache: unknown = Reflect.get(Module, "enableCompileCache");
  if (typeof nodeCache === "function") {
    Reflect.apply(nodeCache, Module, [path.join(root, "node")]);
    return;
  }
  const build = buildOf(bundleDir);
  const original: unknown = Reflect.get(Module.prototype, "_compile");
  if (build === undefined || !isCompile(original)) return;
  const dir = cacheFolder(root, build);
  if (dir === undefined) return;
  const inBundle = `${path.resolve(bundleDir)}${path.sep}`;
  const made: { script: vm.Script; file: string }[] = [];
  const compile: Compile = function (this: CommonJsModule, content, filename, ...rest) {
    if (!filename.startsWith(inBundle) || filename.includes(path.sep, inBundle.length))
      return original.call(this, content, filename, ...rest);
    const file = path.join(dir, `${path.basename(filename)}.v8cache`);
    const cachedData = readCache(file);
    // The wrapper CommonJS gives every file, on the file's first line: its line numbers stay.
    const script = new vm.Script(
      `(function (exports, require, module, __filename, __dirname) { ${content}\n})`,
      {
        filename,
        ...(cachedData ? { cachedData } : {}),
        // A chunk's import() (its require()s are CommonJS's) loads as it would outside the cache.
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      },
    );
    if (cachedData === undefined || script.cachedDataRejected === true) made.push({ script, file });
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
