// Derives plain-JavaScript checkers from zod schemas, so that reading a log
// or a config file does not load zod (about 50 ms at start-up) when the input
// is valid. The zod schemas stay the one source of truth: this reads their
// definitions and writes src/events/schema.check.ts,
// src/config/schema.check.ts, src/tools/compact-args.check.ts and
// src/tools/recall-args.check.ts (helpers they
// share: src/events/schema-issues.ts). test/schema-checks.test.ts fails when
// a written file is not what the schemas give, and checks with random values
// that each checker accepts exactly what zod accepts and reports zod's first
// issue.
//
//   node scripts/schema-checks.mjs --write     (after changing a schema)
//   node scripts/schema-checks.mjs --check     (what the build runs: fails when a file is stale)
//
// A checker returns undefined for a valid value, or the first issue zod would
// report: its path, its code, zod's message and, for unknown keys, the keys.
// Checks zod cannot describe (refine, custom) must be test functions of a
// registry (events/checks.ts, config/checks.ts), by which the written code
// calls them; a schema with an unnamed one, or with a zod type this does not
// know, makes the script fail rather than write a checker that differs.
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const def = (schema) => schema._zod.def;
const checksOf = (schema) => (def(schema).checks ?? []).map((c) => c._zod.def);
const json = (value) => JSON.stringify(value);

/**
 * Writes one function per distinct schema: `(v) => SchemaIssue[] | undefined`,
 * undefined when `v` is valid, else every issue zod reports, in zod's order
 * and with zod's rules for what runs after what: an issue that aborts (a
 * wrong type) stops its value's further checks; one that does not (unknown
 * keys, a failed refinement or bound) lets them run; a union whose branches
 * all fail reports the one branch that did not abort, if there is exactly one.
 */
class Writer {
  /** @param {Map<Function, {expr: string, message: string}>} named  checks zod cannot describe, by function */
  constructor(named) {
    this.named = named;
    this.functions = new Map(); // schema -> function name
    this.byBody = new Map(); // function body -> function name
    this.bodies = [];
    this.keySets = [];
  }

  /** The name of the function that checks `schema`: one per schema object, and one per distinct body. */
  fn(schema) {
    let name = this.functions.get(schema);
    if (name) return name;
    const body = this.body(schema);
    name = this.byBody.get(body);
    if (!name) {
      name = `check${this.byBody.size}`;
      this.byBody.set(body, name);
      this.bodies.push(
        `function ${name}(v: unknown): SchemaIssue[] | undefined {\n  let out: SchemaIssue[] | undefined;\n${body}  return out;\n}\n`,
      );
    }
    this.functions.set(schema, name);
    return name;
  }

  /** Statements that gather the issues of `v` in `out` (or return them, when nothing more runs). */
  body(schema) {
    const d = def(schema);
    switch (d.type) {
      case "optional":
        return `  if (v === undefined) return undefined;\n  out = ${this.fn(d.innerType)}(v);\n`;
      case "unknown":
      case "any":
        return "";
      case "never":
        return `  return [invalidType("never", v)];\n`;
      case "pipe":
        // The second schema sees the value only when the first passed it.
        return `  out = ${this.fn(d.in)}(v);\n  if (out) return out;\n  out = ${this.fn(d.out)}(v);\n`;
      case "string":
        return `  if (typeof v !== "string") return [invalidType("string", v)];\n${this.lengthChecks(schema, "string", "characters")}${this.refinements(schema)}`;
      case "boolean":
        return `  if (typeof v !== "boolean") return [invalidType("boolean", v)];\n`;
      case "number":
        return `  if (typeof v !== "number" || !Number.isFinite(v)) return [invalidType("number", v)];\n${this.numberChecks(schema)}`;
      case "literal":
      case "enum": {
        const values = d.type === "literal" ? d.values : Object.values(d.entries);
        return `  if (${values.map((x) => `v !== ${json(x)}`).join(" && ")}) return [${this.invalidValue(values)}];\n`;
      }
      case "custom": {
        const named = this.namedCheck(d.fn);
        return `  if (!${named.expr}.test(v)) out = add(out, custom(${named.message}));\n`;
      }
      case "object":
        return this.object(schema) + this.refinements(schema);
      case "record": {
        if (def(d.keyType).type !== "string" || checksOf(d.keyType).length)
          throw new Error("schema-checks: only records keyed by z.string() are supported");
        return (
          `  if (!isPlainRecord(v)) return [invalidType("record", v)];\n` +
          `  for (const key of Object.keys(v)) out = merge(out, key, ${this.fn(d.valueType)}(v[key]));\n` +
          this.refinements(schema)
        );
      }
      case "array":
        return (
          `  if (!Array.isArray(v)) return [invalidType("array", v)];\n` +
          `  for (let i = 0; i < v.length; i++) out = merge(out, i, ${this.fn(d.element)}(v[i]));\n` +
          this.lengthChecks(schema, "array", "items") +
          this.refinements(schema)
        );
      case "union": {
        const branches = d.options.map((o) => this.fn(o));
        // Each branch runs only while the ones before it failed: the first that passes wins.
        let chain = "  out = pickBranch([";
        chain += `${branches[0]}(v)`;
        for (let i = 1; i < branches.length; i++) chain += `, () => ${branches[i]}(v)`;
        chain += "]);\n";
        return chain + this.refinements(schema);
      }
      default:
        throw new Error(
          `schema-checks: zod type '${d.type}' is not supported; add it to scripts/schema-checks.mjs`,
        );
    }
  }

  object(schema) {
    const d = def(schema);
    let out = `  if (!isObject(v)) return [invalidType("object", v)];\n`;
    for (const [key, child] of Object.entries(d.shape)) {
      const value = /^[A-Za-z_$][\w$]*$/.test(key) ? `v.${key}` : `v[${json(key)}]`;
      const type = def(child).type;
      const simple = this.simple(child, "x");
      if (type === "unknown" || type === "any")
        out += `  if (!(${json(key)} in v)) out = merge(out, ${json(key)}, [invalidType("nonoptional", undefined)]);\n`;
      else if (simple === "undefined") continue;
      else if (simple)
        out += `  {\n    const x = ${value};\n    out = merge(out, ${json(key)}, ${simple});\n  }\n`;
      else if (type === "optional" && !checksOf(child).length)
        // An optional field checks its inner schema here, not in a function of its own.
        out += `  out = merge(out, ${json(key)}, optional(${this.fn(def(child).innerType)}, ${value}));\n`;
      else out += `  out = merge(out, ${json(key)}, ${this.fn(child)}(${value}));\n`;
    }
    const catchall = d.catchall && def(d.catchall).type;
    if (catchall === "never") {
      const set = `KEYS${this.keySets.length}`;
      this.keySets.push(`const ${set} = new Set(${json(Object.keys(d.shape))});\n`);
      out += `  const unknown = Object.keys(v).filter((k) => !${set}.has(k));\n  if (unknown.length) out = add(out, unrecognized(unknown));\n`;
    } else if (catchall !== undefined && catchall !== "unknown") {
      // Keys the shape does not name are each checked against the catchall, after the shape's.
      const set = `KEYS${this.keySets.length}`;
      this.keySets.push(`const ${set} = new Set(${json(Object.keys(d.shape))});\n`);
      out += `  for (const key of Object.keys(v)) if (!${set}.has(key)) out = merge(out, key, ${this.fn(d.catchall)}(v[key]));\n`;
    }
    return out;
  }

  /**
   * For a field of a plain type without checks (most of them): an expression
   * of its issues, written in the object's own function. Fewer functions are
   * less code to load and to compile on first use.
   */
  simple(schema, x) {
    const d = def(schema);
    if (checksOf(schema).length) return undefined;
    switch (d.type) {
      case "optional": {
        const inner = this.simple(d.innerType, x);
        return inner === undefined || inner === "undefined"
          ? inner
          : `${x} === undefined ? undefined : ${inner}`;
      }
      case "unknown":
      case "any":
        return "undefined";
      case "string":
      case "boolean":
        return `typeof ${x} === "${d.type}" ? undefined : [invalidType("${d.type}", ${x})]`;
      case "literal":
      case "enum": {
        const values = d.type === "literal" ? d.values : Object.values(d.entries);
        return `${values.map((v) => `${x} !== ${json(v)}`).join(" && ")} ? [${this.invalidValue(values)}] : undefined`;
      }
      default:
        return undefined;
    }
  }

  invalidValue(values) {
    const message =
      values.length === 1
        ? `Invalid input: expected ${json(values[0])}`
        : `Invalid option: expected one of ${values.map(json).join("|")}`;
    return `{ path: [], code: "invalid_value", message: ${json(message)}, abort: true }`;
  }

  /** refine() checks: they run unless an issue so far aborted. */
  refinements(schema) {
    return checksOf(schema)
      .filter((c) => c.check === "custom")
      .map((c) => {
        const named = this.namedCheck(c.fn);
        return `  if (!aborted(out) && !${named.expr}.test(v)) out = add(out, custom(${named.message}));\n`;
      })
      .join("");
  }

  namedCheck(fn) {
    const named = fn && this.named.get(fn);
    if (!named)
      throw new Error(
        "schema-checks: a refine or custom check whose function is not in the registry; name it there",
      );
    return named;
  }

  /** Length bounds run whatever came before (zod runs them on anything with a length). */
  lengthChecks(schema, origin, unit) {
    let out = "";
    for (const c of checksOf(schema)) {
      if (c.check === "min_length")
        out += `  if (v.length < ${c.minimum}) out = add(out, { path: [], code: "too_small", message: ${json(`Too small: expected ${origin} to have >=${c.minimum} ${unit}`)} });\n`;
      else if (c.check === "max_length")
        out += `  if (v.length > ${c.maximum}) out = add(out, { path: [], code: "too_big", message: ${json(`Too big: expected ${origin} to have <=${c.maximum} ${unit}`)} });\n`;
      else if (c.check !== "custom")
        throw new Error(`schema-checks: ${origin} check '${c.check}' is not supported`);
    }
    return out;
  }

  /** Number checks in order; a non-integer aborts the rest. */
  numberChecks(schema) {
    let out = "";
    for (const c of checksOf(schema)) {
      if (c.check === "number_format" && c.format === "safeint") {
        out +=
          `  if (!Number.isInteger(v)) return add(out, { ...invalidType("int", v), abort: true });\n` +
          `  out = safeIntRange(out, v);\n`;
      } else if (c.check === "greater_than") {
        const op = c.inclusive ? ">=" : ">";
        out += `  if (!(v ${op} ${c.value})) out = add(out, { path: [], code: "too_small", message: ${json(`Too small: expected number to be ${op}${c.value}`)} });\n`;
      } else if (c.check === "less_than") {
        const op = c.inclusive ? "<=" : "<";
        out += `  if (!(v ${op} ${c.value})) out = add(out, { path: [], code: "too_big", message: ${json(`Too big: expected number to be ${op}${c.value}`)} });\n`;
      } else if (c.check !== "custom")
        throw new Error(`schema-checks: number check '${c.check}' is not supported`);
    }
    return out + this.refinements(schema);
  }
}

/**
 * The source of a checker module.
 * @param {{ header: string, imports: string[], issues: string, roots: Record<string, unknown>, exportRoots?: boolean, named: Map<Function, {expr: string, message: string}>, extra?: (fns: Record<string, string>) => string }} spec
 */
/** What the written checkers call, from src/events/schema-issues.ts. */
const HELPERS = [
  "firstIssue",
  "optional",
  "safeIntRange",
  "add",
  "aborted",
  "custom",
  "invalidType",
  "isObject",
  "isPlainRecord",
  "merge",
  "pickBranch",
  "unrecognized",
];

export function checkerSource({
  header,
  imports,
  issues,
  roots,
  exportRoots = true,
  named,
  extra = () => "",
}) {
  const writer = new Writer(named);
  const fns = Object.fromEntries(Object.entries(roots).map(([name, schema]) => [name, writer.fn(schema)]));
  const exports = exportRoots
    ? Object.entries(fns).map(
        ([name, fn]) =>
          `/** The first issue zod would report for \`value\` against ${name}, or undefined when it is valid. */\nexport const ${name} = firstIssue(${fn});\n`,
      )
    : [];
  const code = writer.bodies.join("\n");
  const rest = [exports.join("\n"), extra(fns)].filter(Boolean).join("\n");
  const used = HELPERS.filter((name) => new RegExp(`\\b${name}\\(`).test(code + rest));
  return [
    `// Written by scripts/schema-checks.mjs from the zod schemas: do not edit.\n${header}`,
    [
      `import { ${[...used, "type SchemaIssue"].join(", ")} } from "${issues}";`,
      ...imports,
      `export type { SchemaIssue } from "${issues}";`,
    ].join("\n") + "\n",
    writer.keySets.join(""),
    code,
    rest,
  ]
    .filter(Boolean)
    .join("\n");
}

/** Every checker module, by its path in the repository, from the given schema modules, formatted as the repository formats code. */
export async function checkerFiles(schemas) {
  const prettier = await import("prettier");
  const files = unformattedCheckerFiles(schemas);
  for (const [file, source] of Object.entries(files)) {
    const filepath = path.join(ROOT, file);
    files[file] = await prettier.format(source, { ...(await prettier.resolveConfig(filepath)), filepath });
  }
  return files;
}

function unformattedCheckerFiles({
  events,
  eventChecks,
  config,
  configChecks,
  compactArgs,
  recallArgs,
  toJSONSchema,
}) {
  const kinds = Object.keys(events.KNOWN_SCHEMAS);
  const eventNamed = registry("EVENT_CHECKS", eventChecks.EVENT_CHECKS);
  const configNamed = registry("CONFIG_CHECKS", configChecks.CONFIG_CHECKS);
  return {
    "src/events/schema.check.ts": checkerSource({
      header: "// The event kinds' checkers: reading a log needs no zod.\n",
      imports: [
        'import { EVENT_CHECKS } from "./checks.js";',
        'import type { EventKind } from "./schema.js";',
      ],
      issues: "./schema-issues.js",
      roots: events.KNOWN_SCHEMAS,
      // Reached through KNOWN_EVENT_CHECKERS only.
      exportRoots: false,
      named: eventNamed,
      extra: (fns) =>
        "/** The checker of each known kind: the first issue zod would report, or undefined when valid. */\n" +
        "export const KNOWN_EVENT_CHECKERS: Readonly<Record<EventKind, (value: unknown) => SchemaIssue | undefined>> = {\n" +
        kinds.map((kind) => `  ${kind}: firstIssue(${fns[kind]}),\n`).join("") +
        "};\n",
    }),
    "src/config/schema.check.ts": checkerSource({
      header: "// The configuration's checker: loading a valid config needs no zod.\n",
      imports: ['import { CONFIG_CHECKS } from "./checks.js";', 'import type { Config } from "./schema.js";'],
      issues: "../events/schema-issues.js",
      roots: { checkConfig: config.Config },
      named: configNamed,
      extra: () =>
        "/** Whether `value` is a valid configuration. */\n" +
        "export function isConfig(value: unknown): value is Config {\n  return checkConfig(value) === undefined;\n}\n\n" +
        `/** Every scalar key path reachable through tables only, with its leaf type (JP_* variables). */\nexport const CONFIG_SCALAR_PATHS: readonly { path: readonly string[]; type: string }[] = ${json(scalarPaths(config.Config))};\n`,
    }),
    "src/tools/compact-args.check.ts": checkerSource({
      header: "// The compact tool's checker and JSON Schema: a call needs no zod.\n",
      imports: ['import type { CompactArgs } from "./compact-args.js";'],
      issues: "../events/schema-issues.js",
      roots: { checkCompactArgs: compactArgs.Args },
      named: new Map(),
      extra: () =>
        "/** Whether `value` is a valid call. */\n" +
        "export function isCompactArgs(value: unknown): value is CompactArgs {\n  return checkCompactArgs(value) === undefined;\n}\n\n" +
        "/** The fields a rule accepts. */\n" +
        `export const RULE_FIELDS: readonly string[] = ${json(Object.keys(compactArgs.Rule.shape))};\n\n` +
        "/** The arguments' JSON Schema as the provider receives it. */\n" +
        `export const COMPACT_PARAMETERS: Record<string, unknown> = ${json(withoutDialect(toJSONSchema(compactArgs.Args)))};\n`,
    }),
    "src/tools/recall-args.check.ts": checkerSource({
      header: "// The recall tool's checker and JSON Schema: a call needs no zod.\n",
      imports: ['import type { RecallArgs } from "./recall-args.js";'],
      issues: "../events/schema-issues.js",
      roots: { checkRecallArgs: recallArgs.Args },
      named: new Map(),
      extra: () =>
        "/** Whether `value` is a valid call. */\n" +
        "export function isRecallArgs(value: unknown): value is RecallArgs {\n  return checkRecallArgs(value) === undefined;\n}\n\n" +
        "/** The arguments' JSON Schema as the provider receives it. */\n" +
        `export const RECALL_PARAMETERS: Record<string, unknown> = ${json(withoutDialect(toJSONSchema(recallArgs.Args)))};\n`,
    }),
  };
}

/**
 * A registry of checks (`{ name: { test, message } }`, the message a text or a
 * function of the value) as the writer finds them: by their test function.
 */
function registry(name, checks) {
  return new Map(
    Object.entries(checks).map(([key, c]) => {
      const expr = `${name}.${key}`;
      const message =
        typeof c.message === "function" ? `${expr}.message(v) ?? "Invalid input"` : json(c.message);
      return [c.test, { expr, message }];
    }),
  );
}

function withoutDialect({ $schema: _dialect, ...schema }) {
  return schema;
}

/** The schema without optional wrappers. */
function unwrap(schema) {
  let s = schema;
  while (["optional", "default", "nullable", "prefault"].includes(def(s).type)) s = def(s).innerType;
  return s;
}

function scalarPaths(root, prefix = []) {
  const d = def(unwrap(root));
  if (d.type !== "object") return [{ path: prefix, type: d.type }];
  return Object.entries(d.shape).flatMap(([key, child]) => {
    const type = def(unwrap(child)).type;
    if (type === "record" || type === "array") return [];
    return scalarPaths(child, [...prefix, key]);
  });
}

/** The schema modules from src/, bundled by esbuild into one module (so each check function is one object). */
async function loadSchemas() {
  const { build } = await import("esbuild");
  const entry =
    [
      "events/schema",
      "events/checks",
      "config/schema",
      "config/checks",
      "tools/compact-args",
      "tools/recall-args",
    ]
      .map((m, i) => `export * as m${i} from "./src/${m}.ts";`)
      .join("\n") + '\nexport { toJSONSchema } from "zod";';
  const out = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    write: false,
    format: "esm",
    platform: "node",
    logLevel: "warning",
    // The schemas do not use the checkers written from them, but modules they import may:
    // those imports get stand-ins, so that the checkers can be written before they exist.
    plugins: [
      {
        name: "checkers-not-yet-written",
        setup(b) {
          b.onResolve({ filter: /schema\.check\.js$/ }, (args) => ({
            path: args.path,
            namespace: "stand-in",
          }));
          b.onLoad({ filter: /.*/, namespace: "stand-in" }, () => ({
            contents:
              "export const KNOWN_EVENT_CHECKERS = {}; export const checkConfig = () => undefined; export const CONFIG_SCALAR_PATHS = [];",
          }));
        },
      },
    ],
  });
  const dir = fs.mkdtempSync(path.join(ROOT, "node_modules/.schema-checks-"));
  try {
    const file = path.join(dir, "schemas.mjs");
    fs.writeFileSync(file, out.outputFiles[0].text);
    const { m0, m1, m2, m3, m4, m5, toJSONSchema } = await import(file);
    return {
      events: m0,
      eventChecks: m1,
      config: m2,
      configChecks: m3,
      compactArgs: m4,
      recallArgs: m5,
      toJSONSchema,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const files = await checkerFiles(await loadSchemas());
  const stale = [];
  for (const [file, source] of Object.entries(files)) {
    const target = path.join(ROOT, file);
    if (process.argv.includes("--write")) fs.writeFileSync(target, source);
    else if (process.argv.includes("--check")) {
      if (fs.readFileSync(target, "utf8") !== source) stale.push(file);
    } else process.stdout.write(`// ${file}\n${source}\n`);
  }
  // The build runs --check: a schema changed without its checker fails the build, not only a test.
  if (stale.length > 0) {
    console.error(
      `${stale.join(", ")}: not what the schemas give; run node scripts/schema-checks.mjs --write`,
    );
    process.exit(1);
  }
}
