// Owns the configuration jp reads from the environment: `JP_<PATH>` (and
// JP's own `JP_CFG_<PATH>`) for each scalar setting, and an MCP server's
// settings by its name, as JP names them.
import type { Layer } from "./layers.js";
import { CONFIG_SCALAR_PATHS } from "./schema.check.js";
import { isPlain, type Plain } from "./trust.js";

/** The table at `key` of `parent`, made if it is missing (a value that is not a table is replaced). */
export function tableAt(parent: Plain, key: string): Plain {
  const existing = parent[key];
  if (isPlain(existing)) return existing;
  const made: Plain = {};
  parent[key] = made;
  return made;
}

/** A variable's value as the setting's type reads it: numbers and booleans from their words. */
function envValue(raw: string, type: string): unknown {
  if ((type === "number" || type === "union") && /^-?\d+(\.\d+)?$/.test(raw.trim())) return Number(raw);
  if (type === "boolean" && /^(true|1|false|0)$/.test(raw.trim()))
    return raw.trim() === "true" || raw.trim() === "1";
  return raw;
}

/** An MCP server's settings a variable may set, by name (the server is named between, as JP names it). */
const MCP_SERVER_VARIABLES = /^JP_(?:CFG_)?PROVIDERS_MCP_(\w+?)_(OPTIONAL|STARTUP_TIMEOUT_SECS|ALL_TOOLS)$/;

/**
 * `JP_<PATH>` (and JP's own `JP_CFG_<PATH>`) for each scalar setting, and
 * `JP_PROVIDERS_MCP_<SERVER>_OPTIONAL` (…`_STARTUP_TIMEOUT_SECS`, …`_ALL_TOOLS`)
 * for a server's, its name in lower case as JP reads it.
 */
export function envLayer(env: NodeJS.ProcessEnv): Layer | undefined {
  const value: Plain = {};
  const names: string[] = [];
  const set = (keys: readonly string[], parsed: unknown, name: string) => {
    let node = value;
    for (const k of keys.slice(0, -1)) node = tableAt(node, k);
    node[keys.at(-1)!] = parsed;
    names.push(name);
  };
  for (const { path: keys, type } of CONFIG_SCALAR_PATHS) {
    const suffix = keys.join("_").toUpperCase();
    for (const name of [`JP_CFG_${suffix}`, `JP_${suffix}`]) {
      const raw = env[name];
      if (raw !== undefined && raw !== "") set(keys, envValue(raw, type), name);
    }
  }
  for (const [name, raw] of Object.entries(env)) {
    const match = MCP_SERVER_VARIABLES.exec(name);
    if (!match || raw === undefined || raw === "") continue;
    const setting = match[2]!.toLowerCase();
    set(
      ["providers", "mcp", match[1]!.toLowerCase(), setting],
      envValue(raw, setting === "startup_timeout_secs" ? "number" : "boolean"),
      name,
    );
  }
  return names.length ? { name: `environment (${names.join(", ")})`, value } : undefined;
}
