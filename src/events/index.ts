export * from "./schema.js";
export * from "./turns.js";
export * from "./fork.js";
export * from "./usage.js";
export * from "./keys.js";
export * from "./json.js";
