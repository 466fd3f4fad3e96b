// The least a fresh process must do for bench/cli's two large-input figures,
// run as its own `node` process so it pays what `bin/jp` pays (Node's start, a
// cold JIT, a heap that grows from nothing) and nothing of jp's:
//
//   node bench/floor.js read FILE   bench/read's bare read + parse of the log
//   node bench/floor.js send FILE   the same, then the parsed events serialised
//                                   to one JSON request body in UTF-8
//
// bench/cli reports them beside the figures whose baselines are measured
// warm inside the benchmark's own process, so a limit below its floor shows.
import { bareRead } from "./read.js";

const [what, file] = process.argv.slice(2);
if ((what !== "read" && what !== "send") || !file) {
  console.error("usage: node bench/floor.js read|send FILE");
  process.exit(2);
}
const events = bareRead(file);
if (what === "send") {
  const body = Buffer.from(
    JSON.stringify({ model: "m", max_tokens: 1, messages: events, stream: true }),
    "utf8",
  );
  if (body.length === 0) process.exit(1);
}
