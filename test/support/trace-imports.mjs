// Preloaded with `node --import`: records the URL of every module the process
// loads (one per line) in the file named by JP_TRACE_IMPORTS.
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      export async function load(url, context, next) {
        appendFileSync(${JSON.stringify(process.env.JP_TRACE_IMPORTS)}, url + "\\n");
        return next(url, context);
      }
    `),
);
