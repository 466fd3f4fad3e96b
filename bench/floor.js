// The least a fresh process must do for bench/cli's two large-input figures,
// run as its own `node` process so it pays what `bin/jp` pays (Node's start, a
// cold JIT, a heap that grows from nothing) and nothing of jp's:
//
//   node bench/floor.js read FILE   bench/read's bare read + parse of the log
//   node bench/floor.js send FILE   the same, then the parsed events serialised
//                                   to one JSON request body in UTF-8
//   node bench/floor.js import FILE OUT
//                                   JP's events.json (one JSON array) read and
//                                   parsed whole, each element written to OUT as
//                                   a JSON line in 8 MB writes, then OUT synced
//                                   to disk: what any import of it must do
//
// bench/cli reports them beside the figures whose baselines are measured
// warm inside the benchmark's own process, so a limit below its floor shows.
import * as fs from "node:fs";
import { bareRead } from "./read.js";

const [what, file, out] = process.argv.slice(2);
if (!file || !(what === "read" || what === "send" || (what === "import" && out))) {
  console.error("usage: node bench/floor.js read|send FILE, or node bench/floor.js import FILE OUT");
  process.exit(2);
}
if (what === "import") {
  const events = JSON.parse(fs.readFileSync(file, "utf8"));
  const fd = fs.openSync(out, "w");
  let pending = "";
  for (const event of events) {
    pending += `${JSON.stringify(event)}\n`;
    if (pending.length >= 8 << 20) {
      fs.writeSync(fd, pending);
      pending = "";
    }
  }
  fs.writeSync(fd, pending);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  process.exit(0);
}
const events = bareRead(file);
if (what === "send") {
  const body = Buffer.from(
    JSON.stringify({ model: "m", max_tokens: 1, messages: events, stream: true }),
    "utf8",
  );
  if (body.length === 0) process.exit(1);
}
