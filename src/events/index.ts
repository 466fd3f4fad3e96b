export * from "./kinds.js";
// The schemas' types only: the zod schemas themselves are not loaded at run time.
export type * from "./schema.js";
export * from "./turns.js";
export * from "./places.js";
export * from "./fork.js";
export * from "./usage.js";
export * from "./metadata.js";
export * from "./keys.js";
export * from "./repair.js";
export * from "./json.js";
export * from "./attachments.js";
