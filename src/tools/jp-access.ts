// Owns a tool's `access.fs` as JP hands it to a tool: the rules compiled into
// jp_tool's AccessPolicy (workspace-relative, symlinks resolved), which a JP
// tool reads from {{context}} and checks before it touches a file.
import * as fs from "node:fs";
import * as path from "node:path";
import type { ToolConfig } from "../config/schema.js";

type AccessConfig = NonNullable<ToolConfig["access"]>;
type FsRuleConfig = NonNullable<AccessConfig["fs"]>[number];

const CAPABILITIES = ["read", "write", "create", "update", "delete", "execute"] as const;

/** jp_tool's FsRule on the wire. */
export interface FsRule {
  lexical_path: string;
  external: boolean;
  approved_target: string | null;
  read?: boolean;
  write?: boolean;
  create?: boolean;
  update?: boolean;
  delete?: boolean;
  execute?: boolean;
}

/** jp_tool's AccessPolicy: an empty `fs` is the whole workspace, any rule makes the rest denied. */
export interface AccessPolicy {
  fs: FsRule[];
  net: never[];
  env: never[];
}

export type CompiledAccess = { policy: AccessPolicy; warnings: string[] } | { error: string };

/** `path` as a workspace-relative path with `.` and `..` collapsed, or undefined when it leaves the workspace. */
function lexicalRelative(rulePath: string): string | undefined {
  if (path.isAbsolute(rulePath)) return undefined;
  const parts: string[] = [];
  for (const part of rulePath.split(/[\\/]+/)) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === undefined) return undefined;
    } else parts.push(part);
  }
  return parts.join("/");
}

/** The real path of `target`, resolving as much of it as exists (a rule may name a file not made yet). */
function realPathOf(target: string): string {
  const rest: string[] = [];
  let at = target;
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return target;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

function withCapabilities(rule: FsRuleConfig, lexical: string): FsRule {
  const out: FsRule = { lexical_path: lexical, external: false, approved_target: null };
  for (const capability of CAPABILITIES) {
    const granted = rule[capability];
    if (granted !== undefined) out[capability] = granted;
  }
  return out;
}

/**
 * A tool's `access` compiled as JP compiles it (jp_cli's access/compile.rs):
 * each rule's path made workspace-relative with the symlinks in it resolved.
 * A rule outside the workspace is an error, for running the tool with less
 * than it declared would widen its access. An `external` rule needs JP's
 * approval of its target, which jp does not keep: it is left out with a
 * warning, and when nothing is left, nothing is granted.
 */
export function compileAccess(access: AccessConfig, root: string): CompiledAccess {
  const rules = access.fs ?? [];
  const realRoot = realPathOf(root);
  const compiled: FsRule[] = [];
  const warnings: string[] = [];
  for (const rule of rules) {
    const lexical = lexicalRelative(rule.path);
    if (lexical === undefined) return { error: `access.fs path "${rule.path}" is not inside the workspace` };
    if (rule.external === true) {
      warnings.push(
        `access.fs rule "${lexical}" is left out: it reaches outside the workspace (external), and jp does not approve such targets`,
      );
      continue;
    }
    const real = path.relative(realRoot, realPathOf(path.join(root, lexical)));
    if (real.startsWith("..") || path.isAbsolute(real))
      return { error: `access.fs path "${rule.path}" resolves outside the workspace` };
    compiled.push(withCapabilities(rule, real.split(path.sep).join("/")));
  }
  // Rules declared but none left: deny everything rather than read as "the whole workspace".
  if (compiled.length === 0 && rules.length > 0)
    compiled.push({ lexical_path: "", external: false, approved_target: null });
  return { policy: { fs: compiled, net: [], env: [] }, warnings };
}
