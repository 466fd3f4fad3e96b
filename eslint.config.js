// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import globals from "globals";
import regexp from "eslint-plugin-regexp";

/** Imports against the direction of the arrows of docs/architecture.md §2. */
const ABOVE_SERVICE = [
  { group: ["**/cli/*"], message: "nothing below cli/ imports it (docs/architecture.md §2)" },
];
const ABOVE_TURN = [
  ...ABOVE_SERVICE,
  { group: ["**/service/*"], message: "only cli/ imports service/ (docs/architecture.md §2)" },
];
const UPWARD = [
  ...ABOVE_TURN,
  { group: ["**/turn/*"], message: "only cli/ and service/ import turn/ (docs/architecture.md §2)" },
];
/**
 * llm/'s public face: what the layers beside and above it may import. Every
 * other module of llm/ (the provider rooms, the wire, the Chat Completions
 * mapping) is llm/'s own.
 */
const LLM_PUBLIC = [
  "types",
  "errors",
  "create-provider",
  "capabilities",
  "model-info",
  "model-table",
  "provider-summary",
  "pricing",
  "price-data",
  "summarize",
  "title",
  "attachments",
  "redact",
  "reasoning-binding",
  "usage",
  "assemble",
  "tool-choice",
  "tool-changes",
  "retry",
];
const PROVIDER_DETAILS = [
  {
    group: ["**/llm/**", ...LLM_PUBLIC.map((f) => `!**/llm/${f}.js`)],
    message: `provider details stay in llm/; use its public face (${LLM_PUBLIC.map((f) => `llm/${f}`).join(", ")})`,
  },
];
/** For the modules that take nothing of the providers but through their callers. */
const NO_LLM = [
  { group: ["**/llm/**"], message: "tools/ and tokens/ import nothing of llm/: take it through the caller" },
];

/**
 * The same rules for `import()`, which no-restricted-imports does not see: a
 * lazy import of a provider's wire module or of a higher layer is still one.
 */
const dynamicImports = (/** @type {{ group: string[]; message: string }[]} */ patterns) =>
  patterns.flatMap(({ group, message }) => {
    const regex = (/** @type {string} */ glob) =>
      glob
        .replace(/^!?\*\*\//, "")
        .replace(/[.]/g, "\\.")
        .replace(/\//g, "\\/")
        .replace(/\*\*$/, "\0")
        .replace(/\*/g, "[^/]*")
        .replace("\0", ".*");
    // A `!glob` exempts what it matches from the globs before it (gitignore's sense, as no-restricted-imports reads it).
    const exempt = group.filter((g) => g.startsWith("!")).map(regex);
    const unless = exempt.length > 0 ? `(?!.*(?:${exempt.join("|")})$)` : "";
    return group
      .filter((g) => !g.startsWith("!"))
      .map((glob) => ({ selector: `ImportExpression[source.value=/^${unless}.*${regex(glob)}$/]`, message }));
  });

/**
 * A zone of the layering: `patterns` refused to `files` as static imports and
 * as `import()`; `typeOnly` adds patterns for static imports alone (those that
 * allow type imports, which `import()` cannot be).
 */
const zone = (
  /** @type {string} */ files,
  /** @type {{ group: string[]; message: string }[]} */ patterns,
  /** @type {{ group: string[]; message: string; allowTypeImports: boolean }[]} */ typeOnly = [],
) => ({
  files: [files],
  rules: {
    "@typescript-eslint/no-restricted-imports": ["error", { patterns: [...patterns, ...typeOnly] }],
    "no-restricted-syntax": ["error", ...dynamicImports(patterns)],
  },
});

export default tseslint.config(
  // *.check.ts is written by scripts/schema-checks.mjs; test/schema-checks.test.ts holds it to the schemas.
  { ignores: ["dist/", "node_modules/", "coverage/", "src/**/*.check.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // The source, its tests and the typed examples are checked with type information, strictly.
    files: ["src/**/*.ts", "test/**/*.ts", "docs/**/*.ts"],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      // Numbers read naturally in messages ("turns 2–8"); objects and unions may still not be interpolated.
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
      // With noUncheckedIndexedAccess every index may be undefined; `!` marks the places whose bounds were checked.
      "@typescript-eslint/no-non-null-assertion": "off",
      "@typescript-eslint/switch-exhaustiveness-check": [
        "error",
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // A pattern that reads on from each start for what never comes is quadratic in a user's text
    // (300 KB of hex held `compact --dry-run` for minutes): jp's patterns may not do it. Where the
    // input is bounded (a flag, a number), a comment says so.
    files: ["src/**/*.ts"],
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-move": ["error", { ignoreSticky: false, ignorePartial: false }],
      "regexp/no-super-linear-backtracking": "error",
    },
  },
  // the arrows of docs/architecture.md §2:
  // cli → service → turn → {llm, tools, mcp, render, store, config, tokens} → {net, chat, compaction} → events.
  // Nothing below cli imports it, nothing below service, nothing below turn; provider details stay in llm/.
  zone("src/{llm,tools,mcp,render,store,config,tokens}/**/*.ts", [...UPWARD, ...PROVIDER_DETAILS]),
  // Tools and token counting are given what they need of the providers (their keys, the reasoning a
  // compaction loses) by their callers: they import nothing of llm/, its public face included.
  zone("src/{tools,tokens}/**/*.ts", [...UPWARD, ...NO_LLM]),
  // A tool hands its preview's words in through its deps; it may name their data types.
  zone(
    "src/tools/**/*.ts",
    [...UPWARD, ...NO_LLM],
    [{ group: ["**/render/*"], allowTypeImports: true, message: "tools get rendering through their deps" }],
  ),
  zone("src/turn/**/*.ts", [...ABOVE_TURN, ...PROVIDER_DETAILS]),
  zone("src/service/**/*.ts", [...ABOVE_SERVICE, ...PROVIDER_DETAILS]),
  {
    // The pure core must not reach for I/O, the clock or the environment.
    files: ["src/{events,compaction,chat}/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["node:*", "fs", "path", "os", "child_process"], message: "the pure core does no I/O" },
            {
              group: [
                "cli",
                "turn",
                "service",
                "llm",
                "tools",
                "mcp",
                "render",
                "store",
                "config",
                "tokens",
              ].map((d) => `**/${d}/*`),
              message: "the core imports only events/, compaction/ and chat/",
            },
          ],
        },
      ],
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
