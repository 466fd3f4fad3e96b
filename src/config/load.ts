// Owns loading and layering configuration, lowest first: the shipped
// defaults, the user's file, the workspace file, JP_* environment variables,
// the conversation's config deltas, -c/--cfg values, then command flags.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { parse as parseToml, TomlError } from "smol-toml";
import type { z } from "zod";
import { ConfigError } from "./errors.js";
import { FORBIDDEN_KEYS, forbiddenKeyPath } from "../events/keys.js";
import { Config } from "./schema.js";
import { closest, keysAt, scalarPaths, schemaAt, schemaType } from "./zod-walk.js";
import { isPlain, restrictConversationDelta, toolNames, type Plain } from "./trust.js";

export interface Layer {
  /** Shown by `config show --origin`, e.g. `workspace (.jp/config.toml)`. */
  name: string;
  /** The file a value came from, named in errors. */
  file?: string;
  value: Record<string, unknown>;
}

export interface ResolvedConfig {
  config: Config;
  /** Which layer set each leaf, by dotted key path (rules as `…rules[2]`). */
  origins: Map<string, string>;
  layers: Layer[];
  /** Tools the conversation's config names that jp cannot serve, as `name (why)`. */
  leftOutTools: string[];
}

const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, "config/default.toml");

export function readTomlFile(file: string, shown = file): Plain {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`cannot read config file ${shown}: ${(error as Error).message}`);
  }
  try {
    return parseToml(text) as Plain;
  } catch (error) {
    if (error instanceof TomlError) {
      const first = error.message.split("\n")[0]!.replace(/^Invalid TOML document: /, "");
      throw new ConfigError(
        `${shown}:${error.line}:${error.column}: ${first}`,
        "fix the TOML syntax at that line and column",
      );
    }
    throw error;
  }
}

function describeAccepted(schema: z.ZodType | undefined): string {
  const description = schema?.description;
  const values = (schema as unknown as { options?: unknown[] } | undefined)?.options;
  if (Array.isArray(values) && values.every((v) => typeof v === "string")) return values.join(", ");
  return description ?? (schema ? schemaType(schema) : "a known key");
}

function keyPath(p: readonly PropertyKey[]): string {
  return p
    .map((k) => (typeof k === "number" ? `[${k}]` : String(k)))
    .join(".")
    .replace(/\.\[/g, "[");
}

type Issue = z.core.$ZodIssue;

/** The most specific issue: inside a union, the branch that got furthest. */
function deepestIssue(issues: readonly Issue[]): Issue {
  let best = issues[0]!;
  for (const issue of issues) {
    // Issues inside a union branch carry paths relative to the union.
    const candidates =
      issue.code === "invalid_union"
        ? issue.errors.map((branch) => {
            const inner = deepestIssue(branch);
            return { ...inner, path: [...issue.path, ...inner.path] } as Issue;
          })
        : [issue];
    for (const c of candidates)
      if (c.path.length > best.path.length || best.code === "invalid_union") best = c;
  }
  return best;
}

/** Validate one layer against the schema; the error names the file (or layer), the key path and what is accepted. */
function rejectForbiddenKeys(layer: Layer): void {
  const forbidden = forbiddenKeyPath(layer.value);
  if (forbidden !== undefined) {
    throw new ConfigError(
      `${layer.file ?? layer.name}: key ${forbidden} is not allowed`,
      "__proto__, constructor and prototype cannot be configuration keys; remove it",
    );
  }
}

export function validateLayer(layer: Layer): void {
  rejectForbiddenKeys(layer);
  const result = Config.safeParse(layer.value);
  if (result.success) return;
  const where = layer.file ?? layer.name;
  const issue = deepestIssue(result.error.issues);
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0]!;
    const full = keyPath([...issue.path, key]);
    const known = keysAt(Config, issue.path as (string | number)[]);
    const suggestion = closest(key, known);
    throw new ConfigError(
      `${where}: unknown key ${full}${suggestion ? `; did you mean ${keyPath([...issue.path, suggestion])}?` : ""}`,
      known.length ? `keys accepted here: ${known.join(", ")}` : undefined,
    );
  }
  const target = schemaAt(Config, issue.path as (string | number)[]);
  const value = issue.path.reduce<unknown>(
    (v, k) => (isPlain(v) || Array.isArray(v) ? (v as Plain)[k as string] : undefined),
    layer.value,
  );
  const got = value === undefined ? undefined : JSON.stringify(value);
  const accepted =
    issue.code === "invalid_value" ? issue.values.map((v) => String(v)).join(", ") : describeAccepted(target);
  throw new ConfigError(
    `${where}: ${keyPath(issue.path)} must be ${issue.code === "invalid_value" ? "one of " : ""}${accepted}; got ${got === undefined ? "nothing" : got}`,
  );
}

/** Drop keys and values this version does not know (config deltas recorded by JP or older versions). */
export function pruneToSchema(value: Plain): Plain {
  const copy = structuredClone(value);
  const model = (copy.assistant as Plain | undefined)?.model as Plain | undefined;
  if (
    model &&
    isPlain(model.id) &&
    typeof model.id.provider === "string" &&
    typeof model.id.name === "string"
  ) {
    model.id = `${model.id.provider}/${model.id.name}`;
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    const result = Config.safeParse(copy);
    if (result.success) return copy;
    const issue = result.error.issues[0]!;
    const parentPath = issue.code === "unrecognized_keys" ? issue.path : issue.path.slice(0, -1);
    const parent = parentPath.reduce<unknown>((v, k) => (v as Plain)?.[k as string], copy) as
      Plain | undefined;
    if (!parent) return {};
    if (issue.code === "unrecognized_keys") for (const k of issue.keys) delete parent[k];
    else if (issue.path.length === 0) return {};
    else delete parent[issue.path.at(-1) as string];
  }
  return {};
}

function envLayer(env: NodeJS.ProcessEnv): Layer | undefined {
  const value: Plain = {};
  const names: string[] = [];
  for (const { path: keys, type } of scalarPaths(Config)) {
    const name = `JP_${keys.join("_").toUpperCase()}`;
    const raw = env[name];
    if (raw === undefined || raw === "") continue;
    let parsed: unknown = raw;
    if (type === "number" || (type === "union" && /^\d+$/.test(raw))) parsed = Number(raw);
    else if (type === "boolean") parsed = raw === "true" || raw === "1";
    let node = value;
    for (const k of keys.slice(0, -1)) node = (node[k] ??= {}) as Plain;
    node[keys.at(-1)!] = parsed;
    names.push(name);
  }
  return names.length ? { name: `environment (${names.join(", ")})`, value } : undefined;
}

/** A `-c/--cfg` value: `key=value`, a file path, or a name in `.jp/config.d/`. */
export function cfgLayer(spec: string, options: { cwd: string; workspaceDir?: string }): Layer {
  // Messages name the argument; a value of any length is cut so the message stays one line.
  const shownSpec = spec.length > 80 ? `${spec.slice(0, 77)}…` : spec;
  const eq = spec.indexOf("=");
  if (eq > 0 && !fs.existsSync(path.resolve(options.cwd, spec))) {
    const key = spec.slice(0, eq).trim();
    const raw = spec.slice(eq + 1);
    if (!/^[A-Za-z0-9_*'-]+(\.[A-Za-z0-9_*'-]+)*$/.test(key))
      throw new ConfigError(`-c ${shownSpec}: '${key}' is not a key path`, "write -c key.path=value");
    let parsed: unknown;
    try {
      parsed = (parseToml(`v = ${raw}`) as Plain).v;
    } catch {
      parsed = raw;
    }
    const value: Plain = {};
    const keys = key.split(".").map((k) => k.replace(/^'(.*)'$/, "$1"));
    const forbidden = keys.find((k) => FORBIDDEN_KEYS.has(k));
    if (forbidden !== undefined)
      throw new ConfigError(
        `-c ${shownSpec}: key ${forbidden} is not allowed`,
        "give a configuration key path",
      );
    let node = value;
    for (const k of keys.slice(0, -1)) node = (node[k] = {}) as Plain;
    node[keys.at(-1)!] = parsed;
    return { name: `-c ${shownSpec}`, value };
  }
  const direct = path.resolve(options.cwd, spec);
  if (fs.existsSync(direct) && fs.statSync(direct).isFile())
    return { name: `-c ${shownSpec}`, file: spec, value: readTomlFile(direct, spec) };
  if (options.workspaceDir) {
    const named = path.join(options.workspaceDir, "config.d", spec.endsWith(".toml") ? spec : `${spec}.toml`);
    if (fs.existsSync(named)) {
      const shown = path.relative(options.cwd, named) || named;
      return { name: `-c ${shownSpec} (${shown})`, file: shown, value: readTomlFile(named, shown) };
    }
  }
  throw new ConfigError(
    `-c ${shownSpec}: no such file, and no ${shownSpec}.toml in .jp/config.d/`,
    "give a TOML file, a name in .jp/config.d/, or key=value",
  );
}

export interface LoadOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The workspace's `.jp/` folder, when there is one. */
  workspaceDir?: string;
  /** The `delta` of each config_delta event of the conversation, in order. */
  deltas?: Plain[];
  cfg?: string[];
  /** Values set by command flags (`-m` sets assistant.model.id). */
  flags?: Plain;
}

export function userConfigFile(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), ".config");
  return path.join(base, "jp", "config.toml");
}

export function collectLayers(options: LoadOptions): { layers: Layer[]; leftOutTools: string[] } {
  const layers: Layer[] = [
    {
      name: "default (built in)",
      file: "config/default.toml",
      value: readTomlFile(DEFAULT_CONFIG_FILE, "config/default.toml"),
    },
  ];
  const user = userConfigFile(options.env);
  if (fs.existsSync(user)) layers.push({ name: `user (${user})`, file: user, value: readTomlFile(user) });
  if (options.workspaceDir) {
    const file = path.join(options.workspaceDir, "config.toml");
    const shown = path.relative(options.cwd, file) || file;
    if (fs.existsSync(file))
      layers.push({ name: `workspace (${shown})`, file: shown, value: readTomlFile(file, shown) });
  }
  const env = envLayer(options.env);
  if (env) layers.push(env);
  const cfgLayers = (options.cfg ?? []).map((spec) => cfgLayer(spec, options));
  // What a conversation may set is limited by what the user's own layers define (see trust.ts).
  const userTools = new Set([...layers, ...cfgLayers].flatMap((layer) => toolNames(layer.value)));
  const leftOut = new Set<string>();
  (options.deltas ?? []).forEach((delta, i) => {
    rejectForbiddenKeys({ name: `conversation (config delta ${i + 1})`, value: delta });
    const restricted = restrictConversationDelta(delta, userTools);
    for (const tool of restricted.leftOut) leftOut.add(tool);
    const value = pruneToSchema(restricted.value);
    if (Object.keys(value).length) layers.push({ name: `conversation (config delta ${i + 1})`, value });
  });
  layers.push(...cfgLayers);
  if (options.flags && Object.keys(options.flags).length)
    layers.push({ name: "command flags", value: options.flags });
  return { layers, leftOutTools: [...leftOut] };
}

/** Merge layers: tables deeply, rules appended (the built-in default rule dropped once any layer has rules). */
export function mergeLayers(layers: Layer[]): Omit<ResolvedConfig, "leftOutTools"> {
  const merged: Plain = {};
  const origins = new Map<string, string>();
  let rules: { rule: unknown; layer: string }[] = [];
  let rulesAreDefault = true;

  const mergeInto = (target: Plain, source: Plain, prefix: string, layer: string) => {
    for (const [key, value] of Object.entries(source)) {
      const p = prefix ? `${prefix}.${key}` : key;
      if (p === "conversation.compaction.rules") {
        const strategy = isPlain(value) ? (value.strategy as string) : "append";
        const list = (isPlain(value) ? value.value : value) as unknown[];
        const incoming = list.map((rule) => ({ rule, layer }));
        if (layer.startsWith("default")) rules = incoming;
        else if (strategy === "replace" || rulesAreDefault) {
          rules = incoming;
          rulesAreDefault = false;
        } else rules.push(...incoming);
        continue;
      }
      if (isPlain(value)) {
        if (!isPlain(target[key])) target[key] = {};
        mergeInto(target[key] as Plain, value, p, layer);
      } else {
        target[key] = structuredClone(value);
        for (const existing of [...origins.keys()])
          if (existing.startsWith(`${p}.`)) origins.delete(existing);
        origins.set(p, layer);
      }
    }
  };
  for (const layer of layers) mergeInto(merged, layer.value, "", layer.name);
  const conversation = (merged.conversation ??= {}) as Plain;
  const compaction = (conversation.compaction ??= {}) as Plain;
  compaction.rules = rules.map((r) => r.rule);
  rules.forEach((r, i) => origins.set(`conversation.compaction.rules[${i}]`, r.layer));
  const result = Config.safeParse(merged);
  if (!result.success)
    throw new ConfigError(
      `the merged configuration is invalid at ${keyPath(result.error.issues[0]!.path)}: ${result.error.issues[0]!.message}`,
    );
  return { config: result.data, origins, layers };
}

export function loadConfig(options: LoadOptions): ResolvedConfig {
  const { layers, leftOutTools } = collectLayers(options);
  for (const layer of layers) validateLayer(layer);
  const resolved = mergeLayers(layers);
  validateSemantics(resolved.config);
  return { ...resolved, leftOutTools };
}

/** Checks that span keys: auto compaction needs a budget it can compute. */
function validateSemantics(config: Config): void {
  const auto = config.conversation?.compaction?.auto;
  if (
    auto?.enabled &&
    auto.max_tokens === undefined &&
    config.assistant?.model?.context_window === undefined
  ) {
    const model = config.assistant?.model?.id ?? "";
    if (!KNOWN_CONTEXT_WINDOWS.some(([prefix]) => model.includes(prefix))) {
      throw new ConfigError(
        `conversation.compaction.auto is enabled, but the context window of ${model || "the model"} is unknown and no max_tokens is set`,
        "set conversation.compaction.auto.max_tokens or assistant.model.context_window",
      );
    }
  }
}

/** Context windows of common models, by a distinctive part of the model name. */
export const KNOWN_CONTEXT_WINDOWS: [string, number][] = [
  ["claude-opus-5", 200_000],
  ["claude-sonnet-5", 200_000],
  ["claude-haiku-5", 200_000],
  ["claude-fable-5", 200_000],
  ["claude-mythos-5", 200_000],
  ["claude-opus-4", 200_000],
  ["claude-sonnet-4", 200_000],
  ["claude-haiku-4", 200_000],
  ["claude-3", 200_000],
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-5", 400_000],
  ["o3", 200_000],
  ["o4-mini", 200_000],
];

export function contextWindow(config: Config): number | undefined {
  const explicit = config.assistant?.model?.context_window;
  if (explicit !== undefined) return explicit;
  const model = config.assistant?.model?.id ?? "";
  return KNOWN_CONTEXT_WINDOWS.find(([prefix]) => model.includes(prefix))?.[1];
}
