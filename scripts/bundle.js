// Bundles the compiled-from-source CLI into dist/cli.bundle/ with esbuild.
// Start-up cost is dominated by resolving and loading hundreds of ESM files;
// one bundle with code splitting loads a handful, and every `await import()`
// (provider SDKs, tokenizer, summariser, execa) stays a lazily loaded chunk.
// The chunks are then made CommonJS: Node loads a CommonJS file synchronously,
// where each ES module costs an asynchronous resolve, read and link (about
// 20 ms of every command's start on the machines we measured).
import { build } from "esbuild";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outdir = path.join(root, "dist/cli.bundle");
fs.rmSync(outdir, { recursive: true, force: true });

/**
 * commander requires node:child_process when it loads, for subcommands that
 * are separate executables, which jp does not have: loading it costs every
 * command some 3 ms. commander gets a stand-in that loads it on first use.
 */
function lazyChildProcessForCommander() {
  return {
    name: "lazy-child-process-for-commander",
    setup(b) {
      b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        args.importer.includes(`${path.sep}node_modules${path.sep}commander${path.sep}`)
          ? { path: "lazy-child-process", namespace: "jp-lazy" }
          : undefined,
      );
      b.onLoad({ filter: /.*/, namespace: "jp-lazy" }, () => ({
        contents:
          'let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require("node:child_process"))[key] });',
        loader: "js",
      }));
    },
  };
}

/** esbuild's copy of a module's exports onto another object: a getter per name, run on every use. */
const COPIED_EXPORT =
  "__defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });";

const result = await build({
  absWorkingDir: root,
  // compile-cache is loaded by bin/jp before main, to compile main's chunks with V8's code cache.
  entryPoints: { main: "src/cli/main.ts", "compile-cache": "src/cli/compile-cache.ts" },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: "linked",
  sourcesContent: false,
  metafile: true,
  legalComments: "none",
  chunkNames: "chunk-[hash]",
  logLevel: "warning",
  plugins: [lazyChildProcessForCommander()],
});
// The metafile says which chunk holds which module; the start-up test reads it.
fs.writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));
await asCommonJs(Object.keys(result.metafile.outputs).filter((file) => file.endsWith(".js")));

/**
 * Rewrite each chunk as CommonJS in place, keeping its name (a package.json
 * in the folder says its .js files are CommonJS) and its source map (esbuild
 * maps through the first build's). Imports become require(), and `import()`
 * of a chunk a require() inside a promise, so a lazy chunk stays lazy.
 */
async function asCommonJs(chunks) {
  const staging = `${outdir}.cjs`;
  fs.rmSync(staging, { recursive: true, force: true });
  // Written first: read as ES modules of a "type": "module" package, the chunks would import
  // each other's default export as Node imports CommonJS (the whole exports object).
  const manifest = path.join(outdir, "package.json");
  fs.writeFileSync(manifest, JSON.stringify({ type: "commonjs" }) + "\n");
  await build({
    absWorkingDir: root,
    entryPoints: chunks,
    outdir: staging,
    bundle: false,
    format: "cjs",
    platform: "node",
    target: "node20",
    supported: { "dynamic-import": false },
    sourcemap: "linked",
    sourcesContent: false,
    legalComments: "none",
    // import.meta has no CommonJS spelling: its one use, the chunk's own URL, is made from __filename.
    define: { "import.meta.url": "__jpChunkUrl" },
    // The banner comes before esbuild's own "use strict", so it says it first: ES modules were strict.
    banner: { js: '"use strict"; const __jpChunkUrl = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
  // The chunk URL costs every chunk's load a pathToFileURL: only the chunks that read it keep it.
  const banner = /^("use strict";) const __jpChunkUrl = [^\n]*/;
  for (const name of fs.readdirSync(staging).filter((n) => n.endsWith(".js"))) {
    const file = path.join(staging, name);
    const code = settledExports(fs.readFileSync(file, "utf8"), name);
    fs.writeFileSync(
      file,
      code.replace(banner, "").includes("__jpChunkUrl") ? code : code.replace(banner, "$1"),
    );
  }
  const hash = createHash("sha256");
  for (const name of fs.readdirSync(staging).sort()) {
    if (name.endsWith(".js")) hash.update(name).update(fs.readFileSync(path.join(staging, name)));
    fs.renameSync(path.join(staging, name), path.join(outdir, name));
  }
  fs.rmSync(staging, { recursive: true });
  // jpBuild names this build's compiled-code cache (src/cli/compile-cache.ts).
  fs.writeFileSync(
    manifest,
    JSON.stringify({ type: "commonjs", jpBuild: hash.digest("hex").slice(0, 24) }) + "\n",
  );
}

/**
 * A chunk whose imported functions are looked up once. CommonJS keeps ES
 * modules' live bindings as getters, two deep (the chunk's exports, then each
 * importer's copy), and every call of another chunk's function runs both: some
 * 50 ms of a `jp q` on a 100 MB conversation, whose events pass through such
 * calls one by one. jp exports no binding it reassigns, so a function, once
 * initialised, is what the name holds for good: the copy's getter replaces
 * itself with it on first use. Anything else (a value not yet initialised
 * while chunks load each other) keeps its getter.
 */
function settledExports(code, name) {
  if (!code.includes("var __copyProps = ")) return code;
  if (!code.includes(COPIED_EXPORT))
    throw new Error(`${name}: esbuild's __copyProps changed; update COPIED_EXPORT in scripts/bundle.js`);
  return code.replace(
    COPIED_EXPORT,
    '__defProp(to, key, { get: () => { const value = from[key]; if (typeof value === "function") __defProp(to, key, { value, enumerable: true }); return value; }, configurable: true, enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });',
  );
}
