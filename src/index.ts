// The library entry: the event model and the store, usable without the CLI.
export * from "./events/index.js";
export { JpError } from "./errors.js";
