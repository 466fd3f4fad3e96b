// The library entry: the event model and the compaction core, usable without the CLI.
export * from "./events/index.js";
export * from "./compaction/index.js";
export { JpError } from "./errors.js";
