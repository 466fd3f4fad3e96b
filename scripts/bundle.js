// Bundles the compiled-from-source CLI into dist/cli.bundle/ with esbuild.
// Start-up cost is dominated by resolving and loading hundreds of ESM files;
// one bundle with code splitting loads a handful, and every `await import()`
// (provider SDKs, tokenizer, summariser, execa) stays a lazily loaded chunk.
import { build } from "esbuild";
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

const result = await build({
  absWorkingDir: root,
  entryPoints: { main: "src/cli/main.ts" },
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
  // CommonJS dependencies (commander) call require() for Node's built-ins;
  // an ESM bundle has no require of its own. Made on first use: every chunk
  // carries this line, and most never require anything.
  banner: {
    js: 'import { createRequire as __jpCreateRequire } from "node:module"; let __jpRequire; const require = (id) => (__jpRequire ??= __jpCreateRequire(import.meta.url))(id);',
  },
  logLevel: "warning",
  plugins: [lazyChildProcessForCommander()],
});
// The metafile says which chunk holds which module; the start-up test reads it.
fs.writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(result.metafile));
