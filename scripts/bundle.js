// Bundles the compiled-from-source CLI into dist/cli.bundle/ with esbuild.
// Start-up cost is dominated by resolving and loading hundreds of ESM files;
// one bundle with code splitting loads a handful, and every `await import()`
// (provider SDKs, tokenizer, summariser, execa) stays a lazily loaded chunk.
// The chunks are then made CommonJS: Node loads a CommonJS file synchronously,
// where each ES module costs an asynchronous resolve, read and link (about
// 20 ms of every command's start on the machines we measured).
import { build, buildSync } from "esbuild";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import { createRequire } from "node:module";
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

/** Node's modules the snapshot holds stand-ins for (see src/cli/snapshot.ts). */
const DEFERRED_BUILTINS = [
  "http",
  "https",
  "http2",
  "net",
  "tls",
  "dgram",
  "zlib",
  "readline",
  "child_process",
  "worker_threads",
  "crypto",
  "tty",
];
const require = createRequire(import.meta.url);

/**
 * The start-up snapshot (src/cli/snapshot.ts): every chunk that main.js
 * reaches, statically or by import(), save those holding a package loaded on
 * demand. bin/jp starts from it when snapshot.key names the node that runs it
 * (its path and size: a snapshot runs only on the Node.js build that made it).
 */
function buildSnapshot(metafile) {
  const outputs = metafile.outputs;
  const chunks = Object.keys(outputs).filter((file) => file.endsWith(".js"));
  const onDemand = (file) =>
    Object.keys(outputs[file].inputs).some((i) => ON_DEMAND.some((p) => i.startsWith(p)));
  // Left out: a chunk with such a package, and every chunk that loads one of those as it loads.
  const left = new Set(chunks.filter(onDemand));
  for (let grew = true; grew;) {
    grew = false;
    for (const file of chunks)
      if (
        !left.has(file) &&
        outputs[file].imports.some((i) => i.kind !== "dynamic-import" && left.has(i.path))
      ) {
        left.add(file);
        grew = true;
      }
  }
  const start = ["compile-cache.js", "main.js"].map((name) => path.relative(root, path.join(outdir, name)));
  const reached = new Set();
  for (const pending = [...start]; pending.length;) {
    const file = pending.pop();
    if (reached.has(file) || left.has(file)) continue;
    reached.add(file);
    for (const next of outputs[file].imports) if (next.path in outputs) pending.push(next.path);
  }
  // The entry is one file that requires only Node's modules: all the snapshot builder offers it.
  const entry = path.join(outdir, "snapshot.js");
  buildSync({
    absWorkingDir: root,
    entryPoints: ["src/cli/snapshot.ts"],
    outfile: entry,
    bundle: true,
    // A script: the builder gives it `require` but no `module`.
    format: "iife",
    platform: "node",
    target: "node20",
    legalComments: "none",
    logLevel: "warning",
  });
  const blob = path.join(outdir, "snapshot.blob");
  const deferred = Object.fromEntries(
    DEFERRED_BUILTINS.map((id) => [id, Object.getOwnPropertyNames(require(`node:${id}`))]),
  );
  const built = spawnSync(
    process.execPath,
    [
      "--snapshot-blob",
      blob,
      "--build-snapshot",
      entry,
      outdir,
      ...[...reached].map((file) => path.basename(file)),
    ],
    // The builder warns of every built-in module it has not verified; what runs from the snapshot is tested.
    {
      cwd: outdir,
      stdio: ["ignore", "inherit", "pipe"],
      encoding: "utf8",
      env: { ...process.env, NODE_NO_WARNINGS: "1", JP_SNAPSHOT_DEFERRED: JSON.stringify(deferred) },
    },
  );
  if (built.status !== 0) throw new Error(`building the start-up snapshot failed:\n${built.stderr}`);
  fs.writeFileSync(
    path.join(outdir, "snapshot.key"),
    `${process.execPath} ${fs.statSync(process.execPath).size}\n`,
  );
}

/**
 * Packages a command loads only when it needs them: they stay out of the
 * start-up snapshot (its size is paid by every command's start), as the
 * start-up test keeps them out of the start-up chunks.
 */
const ON_DEMAND = [
  "node_modules/@anthropic-ai/sdk/",
  "node_modules/openai/",
  "node_modules/@google/genai/",
  "node_modules/gpt-tokenizer/",
  "node_modules/zod/",
  "node_modules/execa/",
  "node_modules/@inquirer/",
  "node_modules/marked",
  "node_modules/@modelcontextprotocol/sdk/",
  "node_modules/https-proxy-agent/",
];

buildSnapshot(result.metafile);
