// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // The pure core must not reach for I/O, the clock or the environment.
    files: ["src/events/**/*.ts", "src/compaction/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: ["node:*", "fs", "path", "os", "child_process"] }],
      "no-restricted-globals": ["error", "process", "setTimeout", "setInterval", "console", "performance"],
      "no-restricted-properties": ["error", { object: "Date", property: "now" }],
    },
  },
  {
    files: [
      "bin/*",
      "bench/**/*.{js,mjs}",
      "test/**/*.{js,mjs}",
      "docs/**/*.{js,mjs}",
      "scripts/**/*.{js,mjs}",
    ],
    languageOptions: { globals: globals.node },
  },
);
