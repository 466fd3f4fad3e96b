// Preloaded with `node --import`: records the URL of every module the process
// loads (one per line) in the file named by JP_TRACE_IMPORTS: ES modules as
// they load, CommonJS files (the CLI bundle's chunks) from require's cache at exit.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const trace = process.env.JP_TRACE_IMPORTS;
register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      export async function load(url, context, next) {
        appendFileSync(${JSON.stringify(trace)}, url + "\\n");
        return next(url, context);
      }
    `),
);
const { cache } = createRequire(import.meta.url);
process.on("exit", () => {
  appendFileSync(
    trace,
    Object.keys(cache)
      .map((file) => `${pathToFileURL(file).href}\n`)
      .join(""),
  );
});
