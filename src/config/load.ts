// Owns loading and layering configuration, lowest first: the shipped
// defaults, the user's file, the workspace file, JP_* environment variables,
// the conversation's config deltas, -c/--cfg values, then command flags.
import { clampSettings } from "./bounds.js";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileLayers, withExtended } from "./extends.js";
import { cfgLayer, readTomlFile, type Layer } from "./layers.js";
import { ConfigError } from "./errors.js";
import { forbiddenKeyPath, withoutForbiddenKeys } from "../events/keys.js";
import { carryJpConfig, mergeJpFiles, readRecordedDelta } from "./from-jp.js";
import { EMPTY_JP_PROMPT } from "./jp-prompt.js";
import { keyPath, valueAt } from "./paths.js";
import { resolveModelAlias } from "./providers.js";
import { checkConfig, isConfig } from "./schema.check.js";
import { envLayer, tableAt } from "./env-layer.js";
import type { Config } from "./schema.js";
import { isPlain, restrictConversationDelta, serverNames, toolNames, type Plain } from "./trust.js";
import { applyWorkspaceTrust, type WorkspaceTrust } from "./workspace-trust.js";
export type { WorkspaceTrust } from "./workspace-trust.js";
import { isJpWorkspace } from "../store/workspace.js";
import { PACKAGE_ROOT } from "./package-root.js";
import { xdgDir } from "../user-cache.js";
import { grouped } from "../numbers.js";

export type { Layer } from "./layers.js";

export interface ResolvedConfig {
  config: Config;
  /** Which layer set each leaf, by dotted key path (rules as `…rules[2]`). */
  origins: Map<string, string>;
  layers: Layer[];
  /** Tools the conversation's config names that jp cannot serve, as `name (why)`. */
  leftOutTools: string[];
  /** A line for each setting held to its range (config/bounds). */
  clamped: string[];
  /** A line for each key of a recorded config left out (one that could reach Object.prototype). */
  ignored: string[];
  /** The configuration before the command's flags (files, the conversation, -c): what -m changed from. */
  beforeFlags: Config;
  trust: WorkspaceTrust;
}

export const DEFAULT_CONFIG_FILE = path.join(PACKAGE_ROOT, "config/default.toml");

/** One error listing every problem found, so a config is fixed in one pass. */
function configProblems(problems: readonly string[]): ConfigError {
  if (problems.length === 1) return new ConfigError(problems[0]!);
  return new ConfigError(
    `the configuration has ${problems.length} problems:\n${problems.map((p) => `  - ${p}`).join("\n")}`,
  );
}

/** Drop keys and values this version does not know (config deltas recorded by JP or older versions). */
export function pruneToSchema(value: Plain): Plain {
  const copy = structuredClone(value);
  const assistant = copy.assistant;
  const model = isPlain(assistant) && isPlain(assistant.model) ? assistant.model : undefined;
  if (
    model &&
    isPlain(model.id) &&
    typeof model.id.provider === "string" &&
    typeof model.id.name === "string"
  ) {
    model.id = `${model.id.provider}/${model.id.name}`;
  }
  for (let attempt = 0; attempt < 200; attempt++) {
    const issue = checkConfig(copy);
    if (!issue) return copy;
    const parentPath = issue.code === "unrecognized_keys" ? issue.path : issue.path.slice(0, -1);
    const parent = valueAt(copy, parentPath);
    if (!isPlain(parent)) return {};
    // Pruning removes exactly the keys the schema named: computed by design.
    /* eslint-disable @typescript-eslint/no-dynamic-delete */
    if (issue.code === "unrecognized_keys") for (const k of issue.keys ?? []) delete parent[k];
    else if (issue.path.length === 0) return {};
    else delete parent[String(issue.path.at(-1))];
    /* eslint-enable @typescript-eslint/no-dynamic-delete */
  }
  return {};
}

export interface LoadOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The workspace's `.jp/` folder, when there is one. */
  workspaceDir?: string;
  /** The `delta` of each config_delta event of the conversation, in order. */
  deltas?: Plain[];
  cfg?: string[];
  /**
   * Values set by command flags (`-m` sets assistant.model.id); or what they
   * set given the configuration without them (a bare `-r` turns thinking on
   * only where the configuration leaves it off), so it is read once.
   */
  flags?: Plain | ((before: Config) => Plain | undefined);
  /**
   * Whether the user trusts the workspace with what its files would do
   * (`powers`). Untrusted, the workspace's files are read as data (see
   * workspace-trust.ts) and the conversation's recorded config is not
   * applied. Without it, the workspace is trusted (the caller decided).
   */
  trusted?: (powers: readonly string[]) => boolean;
}

/** The folders `config_load_paths` (`given`) names, from the workspace root (outside one, from `cwd`). */
export function loadPathFolders(given: unknown, options: { cwd: string; workspaceDir?: string }): string[] {
  const root = options.workspaceDir ? path.dirname(options.workspaceDir) : options.cwd;
  return (Array.isArray(given) ? given : []).flatMap((p) =>
    typeof p === "string" ? [path.resolve(root, p)] : [],
  );
}

/** The folders `-c NAME` looks in: `config_load_paths` of the user's and workspace's files (the last set wins). */
function configLoadPaths(layers: readonly Layer[], options: LoadOptions): string[] {
  return loadPathFolders(
    layers.findLast((l) => Array.isArray(l.value.config_load_paths))?.value.config_load_paths,
    options,
  );
}

export { isJpWorkspace };

/**
 * A JP workspace's config (its file and what it extends), read as JP's, in
 * place: what maps onto jp is used (init --from-jp's mapping), and what jp
 * has no use for is named in one line, never an error. JP's files are only read.
 */
function jpWorkspaceLayer(read: readonly Layer[], names: readonly string[]): { layer: Layer; note?: string } {
  const merged = mergeJpFiles(read.map((layer) => layer.value));
  const { config, notCarried } = carryJpConfig(merged);
  // JP's config_load_paths name where its -c files (personas) are: jp looks there too.
  const value = Array.isArray(merged.config_load_paths)
    ? { ...config, config_load_paths: merged.config_load_paths }
    : config;
  const layer = { name: `JP workspace (${names.join(", ")}, read as JP's)`, file: names[0], value };
  if (notCarried.length === 0) return { layer };
  const named = notCarried.map((line) => line.split(":", 1)[0] ?? line);
  const shown = named.slice(0, 4).join(", ");
  return {
    layer,
    note: `this is a JP workspace: jp reads its configuration as JP's and leaves out ${notCarried.length} setting${notCarried.length === 1 ? "" : "s"} it has no use for (${shown}${named.length > 4 ? ", …" : ""}); \`jp init --from-jp . --print\` lists each with why`,
  };
}

/**
 * A JP workspace's config and what it extends. A file that says nothing of
 * `extends` extends JP's default, every file in the `config.d/` beside it
 * (jp reads the TOML ones), read before it so that its own values win.
 */
function jpFileLayers(file: string, shown: (absolute: string) => string): Layer[] {
  const shownFile = shown(file);
  const value = readTomlFile(file, shownFile);
  const withDefault = Object.hasOwn(value, "extends") ? value : { ...value, extends: ["config.d/**/*.toml"] };
  return withExtended(
    { name: `workspace (${shownFile})`, file: shownFile, value: withDefault, path: file },
    "workspace",
    shown,
  );
}

/** Keys only JP's configuration has: a file holding one was written for JP. */
const JP_ONLY_KEYS = ["style", "editor", "template", "plugins", "config_load_paths", "inherit"];

function writtenForJp(value: Plain): boolean {
  const providers = value.providers;
  return (
    JP_ONLY_KEYS.some((key) => Object.hasOwn(value, key)) ||
    (isPlain(providers) && Object.hasOwn(providers, "llm"))
  );
}

export function userConfigFile(env: NodeJS.ProcessEnv): string {
  return path.join(xdgDir(env, "XDG_CONFIG_HOME", ".config"), "jp", "config.toml");
}

/**
 * The layers of a conversation's recorded config (`deltas`), pushed onto
 * `layers`: what a conversation may set, limited by what the user's own
 * layers (`own`) define (see trust.ts). Says in `ignored` what was left out
 * of them; returns the tools they name that jp cannot serve.
 */
function conversationLayers(
  deltas: readonly Plain[],
  own: readonly Layer[],
  layers: Layer[],
  ignored: string[],
): Set<string> {
  const userTools = new Set(own.flatMap((layer) => toolNames(layer.value)));
  const userServers = new Set(own.flatMap((layer) => serverNames(layer.value)));
  const leftOut = new Set<string>();
  // JP's prompt is merged across the deltas, as JP merges it, and rendered once per delta that changes it.
  let prompt = EMPTY_JP_PROMPT;
  deltas.forEach((recorded, i) => {
    // A recorded config is data: a key that could reach Object.prototype is left out, never an error.
    const { value: clean, dropped } = withoutForbiddenKeys(recorded);
    for (const key of dropped)
      ignored.push(`the conversation's recorded config (delta ${i + 1}) has a key ${key}; jp leaves it out`);
    const read = readRecordedDelta(isPlain(clean) ? clean : {}, prompt);
    prompt = read.prompt;
    // A tool the user's own config defines runs as defined there.
    for (const { name, why } of read.leftOut) if (!userTools.has(name)) leftOut.add(`${name} (${why})`);
    // Deltas apply only in a trusted workspace: there, a persona's tools stay on.
    const restricted = restrictConversationDelta(read.delta, userTools, userServers, true);
    for (const tool of restricted.leftOut) leftOut.add(tool);
    const value = pruneToSchema(restricted.value);
    if (Object.keys(value).length) layers.push({ name: `conversation (config delta ${i + 1})`, value });
  });
  return leftOut;
}

export function collectLayers(options: LoadOptions): {
  layers: Layer[];
  leftOutTools: string[];
  ignored: string[];
  trust: WorkspaceTrust;
} {
  const layers: Layer[] = [
    {
      name: "default (built in)",
      file: "config/default.toml",
      value: readTomlFile(DEFAULT_CONFIG_FILE, "config/default.toml"),
    },
  ];
  const user = userConfigFile(options.env);
  const shown = (file: string) => path.relative(options.cwd, file) || file;
  const notes: string[] = [];
  if (fs.existsSync(user)) {
    const read = fileLayers(user, "user", (f) => f);
    // JP documents the same file: one JP wrote is read as JP's, what jp has no use for named once.
    if (read.some((layer) => writtenForJp(layer.value))) {
      const asJp = jpWorkspaceLayer(read, [user]);
      layers.push({ ...asJp.layer, name: `user (${user}, read as JP's)` });
      if (asJp.note) notes.push(asJp.note.replace("this is a JP workspace", `${user} is JP's`));
    } else layers.push(...read);
  }
  // A JP workspace's files (its config, then each -c file, with what they extend), read together as JP's.
  let jp: { files: Layer[]; names: string[]; at: number } | undefined;
  if (options.workspaceDir) {
    const file = path.join(options.workspaceDir, "config.toml");
    if (fs.existsSync(file)) {
      const jpWorkspace = isJpWorkspace(options.workspaceDir);
      const read = jpWorkspace ? jpFileLayers(file, shown) : fileLayers(file, "workspace", shown);
      if (jpWorkspace) {
        jp = { files: read, names: [shown(file)], at: layers.length };
        layers.push(jpWorkspaceLayer(read, jp.names).layer);
      } else layers.push(...read);
    }
  }
  const env = envLayer(options.env);
  if (env) layers.push(env);
  const loadPaths = configLoadPaths(layers, options);
  const cfgLayers = (options.cfg ?? []).flatMap((spec) => {
    const layer = cfgLayer(spec, { ...options, loadPaths });
    const read = withExtended(layer, `-c ${spec}`, shown);
    // A JP persona merges into JP's prompt and tools as JP merges it.
    if (!jp || layer.path === undefined) return read;
    jp.files.push(...read);
    jp.names.push(`-c ${spec}`);
    return [];
  });
  if (jp) {
    const asJp = jpWorkspaceLayer(jp.files, jp.names);
    layers[jp.at] = asJp.layer;
    if (asJp.note) notes.push(asJp.note);
  }
  const trust = applyWorkspaceTrust(
    layers,
    cfgLayers,
    options.workspaceDir,
    options.trusted,
    options.deltas?.length ?? 0,
  );
  const ignored: string[] = [...notes];
  // An untrusted workspace's conversation is the repository's: its recorded config is not applied.
  const deltas = trust.trusted ? (options.deltas ?? []) : [];
  const leftOut = conversationLayers(deltas, [...layers, ...cfgLayers], layers, ignored);
  layers.push(...cfgLayers);
  return { layers, leftOutTools: [...leftOut], ignored, trust };
}

/** How many keys all layers may hold together: JP's own workspace config has a few hundred. */
export const MAX_SETTINGS = 20_000;

/** Refuse layers holding more keys in all than jp reads, before any is checked or merged. */
function checkSettingsCount(layers: readonly Layer[]): void {
  let settings = 0;
  const stack: unknown[] = layers.map((l) => l.value);
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== "object" || node === null) continue;
    // An array's values are its items: one walk for tables and lists.
    const children: unknown[] = Object.values(node);
    settings += children.length;
    if (settings > MAX_SETTINGS)
      throw new ConfigError(
        `the configuration holds more than ${grouped(MAX_SETTINGS)} settings, more than jp reads`,
        "check what the config files and their extends bring in (`jp config show --origin` names each layer)",
      );
    stack.push(...children);
  }
}

/** Merge layers: tables deeply, rules appended (the built-in default rule dropped once any layer has rules). */
export function mergeLayers(
  layers: Layer[],
): Omit<ResolvedConfig, "leftOutTools" | "clamped" | "ignored" | "beforeFlags" | "trust"> {
  const merged: Plain = {};
  const origins = new Map<string, string>();
  let rules: { rule: unknown; layer: string }[] = [];
  let rulesAreDefault = true;

  const mergeInto = (target: Plain, source: Plain, prefix: string, layer: string) => {
    for (const [key, value] of Object.entries(source)) {
      const p = prefix ? `${prefix}.${key}` : key;
      if (p === "conversation.compaction.rules") {
        const strategy = isPlain(value) ? value.strategy : "append";
        const given = isPlain(value) ? value.value : value;
        const list: unknown[] = Array.isArray(given) ? given : [];
        const incoming = list.map((rule) => ({ rule, layer }));
        if (layer.startsWith("default")) rules = incoming;
        else if (strategy === "replace" || rulesAreDefault) {
          rules = incoming;
          rulesAreDefault = false;
        } else rules.push(...incoming);
        continue;
      }
      // JP's lists of attachments add up across layers (its MergeableVec), each entry once.
      if (p === "conversation.attachments" && Array.isArray(value)) {
        const before: unknown[] = Array.isArray(target[key]) ? target[key] : [];
        const seen = new Set(before.map((a) => JSON.stringify(a)));
        const added: unknown[] = value.filter((a) => !seen.has(JSON.stringify(a)));
        target[key] = [...before, ...added];
        origins.set(p, layer);
        continue;
      }
      if (isPlain(value)) {
        mergeInto(tableAt(target, key), value, p, layer);
      } else {
        // Only a table replaced by a value leaves origins below it to forget: the scan is that rare case's alone.
        if (isPlain(target[key]))
          for (const existing of [...origins.keys()])
            if (existing.startsWith(`${p}.`)) origins.delete(existing);
        target[key] = structuredClone(value);
        origins.set(p, layer);
      }
    }
  };
  for (const layer of layers) mergeInto(merged, layer.value, "", layer.name);
  const compaction = tableAt(tableAt(merged, "conversation"), "compaction");
  compaction.rules = rules.map((r) => r.rule);
  rules.forEach((r, i) => origins.set(`conversation.compaction.rules[${i}]`, r.layer));
  if (!isConfig(merged)) {
    const issue = checkConfig(merged);
    throw new ConfigError(
      `the merged configuration is invalid at ${keyPath(issue?.path ?? [])}: ${issue?.message ?? "schema mismatch"}`,
    );
  }
  return { config: merged, origins, layers };
}

/**
 * Every layer, checked and merged. A layer with a problem is explained by
 * problems.ts, which loads zod; a valid config never does.
 */
export async function loadConfig(options: LoadOptions): Promise<ResolvedConfig> {
  const { layers, leftOutTools, ignored, trust } = collectLayers(options);
  await checkLayers(layers);
  const before = resolveLayers(layers);
  const flags = typeof options.flags === "function" ? options.flags(before.config) : options.flags;
  if (!flags || Object.keys(flags).length === 0)
    return { ...before, leftOutTools, ignored, beforeFlags: before.config, trust };
  const flagged = [...layers, { name: "command flags", value: flags }];
  await checkLayers(flagged);
  return { ...resolveLayers(flagged), leftOutTools, ignored, beforeFlags: before.config, trust };
}

/** Throws every problem of `layers` at once (explained by problems.ts, which loads zod). */
async function checkLayers(layers: Layer[]): Promise<void> {
  checkSettingsCount(layers);
  const checked = layers.map((layer, i) => asChecked(layer, [...layers.slice(0, i), ...layers.slice(i + 1)]));
  if (checked.some((l) => forbiddenKeyPath(l.value) !== undefined || checkConfig(l.value) !== undefined)) {
    const { layerProblems } = await import("./problems.js");
    throw configProblems(checked.flatMap(layerProblems));
  }
}

/** What checked `layers` make: merged, model aliases resolved, settings held to their ranges (a line each). */
function resolveLayers(
  layers: Layer[],
): Omit<ResolvedConfig, "leftOutTools" | "ignored" | "beforeFlags" | "trust"> {
  const resolved = mergeLayers(layers);
  resolveModelAliases(resolved.config);
  return { ...resolved, clamped: clampSettings(resolved.config) };
}

/** The MCP servers a layer's value names, as an object per name. */
function mcpEntries(value: Plain): Record<string, Plain> {
  const providers = isPlain(value.providers) ? value.providers : undefined;
  const mcp = providers && isPlain(providers.mcp) ? providers.mcp : {};
  return Object.fromEntries(Object.entries(mcp).flatMap(([name, v]) => (isPlain(v) ? [[name, v]] : [])));
}

/**
 * A layer as it is checked. A server it changes without defining it (no
 * `type`: `-c providers.mcp.NAME.optional=true`, or the user's file making
 * the workspace's server optional) is checked with what the other layers give
 * that server, as it will be merged; one no other layer defines is checked as
 * it stands, and told to name its type.
 */
function asChecked(layer: Layer, others: readonly Layer[]): Layer {
  const changed = Object.entries(mcpEntries(layer.value)).filter(([, server]) => server.type === undefined);
  if (changed.length === 0) return layer;
  const completed: Record<string, Plain> = {};
  for (const [name, server] of changed) {
    const base = others
      .map((l) => mcpEntries(l.value)[name])
      .filter((s): s is Plain => s !== undefined)
      .reduce<Plain>((merged, s) => ({ ...merged, ...s }), {});
    if (base.type !== undefined) completed[name] = { ...base, ...server };
  }
  const providers = isPlain(layer.value.providers) ? layer.value.providers : {};
  const mcp = isPlain(providers.mcp) ? providers.mcp : {};
  return {
    ...layer,
    value: { ...layer.value, providers: { ...providers, mcp: { ...mcp, ...completed } } },
  };
}

/** Model ids given as aliases (`-m sonnet`), replaced by what `[providers.llm.aliases]` names. */
function resolveModelAliases(config: Config): void {
  for (const model of [config.assistant?.model, config.conversation?.title?.generate?.model])
    if (model?.id !== undefined) model.id = resolveModelAlias(config, model.id);
  const compaction = config.conversation?.compaction;
  const rules = [...(Array.isArray(compaction?.rules) ? compaction.rules : []), compaction?.auto?.rule];
  for (const rule of rules) {
    const summaryModel = rule?.summary?.model;
    if (summaryModel?.id !== undefined) summaryModel.id = resolveModelAlias(config, summaryModel.id);
  }
}

/**
 * The token budget of automatic compaction: `max_tokens`, or `trigger_ratio`
 * of the model's context window (`window`, from its capabilities);
 * undefined when it is off, or when neither is known (the caller says so).
 */
export function compactionBudget(config: Config, window: number | undefined): number | undefined {
  const auto = config.conversation?.compaction?.auto;
  if (!auto?.enabled) return undefined;
  if (auto.max_tokens !== undefined) return auto.max_tokens;
  if (window === undefined) return undefined;
  return Math.floor(window * (auto.trigger_ratio ?? 0.8));
}
