// Owns asking the user whether they trust a workspace, and saying what an
// untrusted one's files and conversations were not let do. The record itself
// is the user's own (trusted-workspaces.ts); what a workspace would do is
// config/workspace-trust.ts's.
import * as fs from "node:fs";
import * as path from "node:path";
import type { WorkspaceTrust } from "../config/workspace-trust.js";
import { JpError } from "../errors.js";
import { counted } from "../render/words.js";
import { visible } from "../render/visible.js";
import { createTerminalPrompter } from "../tools/prompter.js";
import { trustEntry, trustWorkspace, untrustedPowers } from "../trusted-workspaces.js";
import { findWorkspace, type Workspace } from "../store/workspace.js";
import type { Context } from "./context.js";

/** A workspace whose files would run something, asked about where nobody can answer. */
export class UntrustedWorkspaceError extends JpError {
  constructor(root: string, powers: readonly string[]) {
    super(
      "workspace.untrusted",
      `the workspace at ${root} is not trusted, and its configuration would ${powers.length === 1 ? "do this" : `do ${powers.length} things`}: ${powers.join("; ")}`,
      {
        hint: `run \`jp workspace trust\` in it once you have read what it does (\`jp workspace status\` lists it), or run jp at a terminal to be asked`,
        exitCode: 2,
      },
    );
  }
}

/** The one line an untrusted workspace gets: what was left out, and how to trust. */
export function untrustedLine(trust: WorkspaceTrust): string {
  const parts = [
    ...(trust.powers.length
      ? [`what its configuration would run or send your keys to (${counted(trust.powers.length, "setting")})`]
      : []),
    ...(trust.withheldDeltas
      ? [`the conversation's recorded config (${counted(trust.withheldDeltas, "change")}, the repository's)`]
      : []),
  ];
  return `this workspace is not trusted: jp leaves out ${parts.join(" and ")} and uses your own config; \`jp workspace status\` shows it, \`jp workspace trust\` uses it`;
}

/** What the workspace would do, as the prompt and `jp workspace status` show it, new lines marked. */
export function powerLines(root: string, powers: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const entry = trustEntry(root, env);
  const fresh = new Set(untrustedPowers(entry, powers) ?? powers);
  return powers.map((power) => `  ${entry && fresh.has(power) ? "(new) " : ""}${visible(power)}`);
}

/**
 * Ask at the terminal whether the user trusts the workspace, showing what it
 * would do; true once they said yes (and it is recorded). Where nobody can
 * answer, a workspace that would run something or send a key is an error
 * saying how to trust it; one whose conversation alone was held back goes on.
 */
export async function askTrust(ctx: Context, trust: WorkspaceTrust): Promise<boolean> {
  const root = ctx.workspace().root;
  const prompter = createTerminalPrompter({
    stdin: () => ctx.stdin,
    stdinIsTTY: await ctx.stdinIsTTY(),
    stderr: ctx.stderr,
    env: ctx.env,
    safe: visible,
  });
  if (!prompter.interactive) {
    if (trust.powers.length > 0) throw new UntrustedWorkspaceError(root, trust.powers);
    return false;
  }
  // What is asked and recorded is the whole workspace's, its personas included, not this command's alone.
  const powers = [...new Set([...trust.powers, ...(await powersOf(ctx, ctx.workspace()))])];
  const lines = [
    `jp has not been told to trust the workspace at ${visible(root)}.`,
    ...(powers.length ? ["Its configuration would:", ...powerLines(root, powers, ctx.env)] : []),
    ...(trust.withheldDeltas
      ? [
          `Its conversation recorded ${counted(trust.withheldDeltas, "config change")} (model, instructions, tools).`,
        ]
      : []),
    "Untrusted, jp uses your own configuration and leaves these out.",
  ];
  prompter.say(lines.join("\n"));
  const answer = await prompter.choose("Trust this workspace? [y,n]", ["y", "n"], {
    help: "y: trust it (recorded in your own state; asked again when what it runs or where it sends keys changes)\nn: go on without it this time",
    onEnd: "n",
  });
  if (answer !== "y") return false;
  trustWorkspace(root, powers, ctx.env, ctx.clock.now());
  return true;
}

/** The workspace a `jp workspace` command is about: DIR, else the current one, whoever owns it. */
export function workspaceNamed(ctx: Context, dir: string | undefined): Workspace {
  return findWorkspace({
    ...(dir !== undefined ? { explicit: dir } : ctx.workspaceOption ? { explicit: ctx.workspaceOption } : {}),
    env: ctx.env,
    cwd: ctx.cwd,
    foreign: true,
  });
}

/**
 * The TOML files below a workspace's folder other than its own config: the
 * -c files (personas) it holds, in `config.d/` or JP's `config_load_paths`.
 * Conversations' folders hold none and are not walked.
 */
function personaFiles(dir: string): string[] {
  const own = path.join(dir, "config.toml");
  const out: string[] = [];
  const walk = (folder: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory() && depth < 4 && !entry.name.startsWith(".") && entry.name !== "conversations")
        walk(file, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(".toml") && file !== own) out.push(file);
    }
  };
  walk(dir, 0);
  return out.sort();
}

/**
 * What the workspace's own files would run and where they would send keys:
 * its config, and each persona it holds taken with it (as `-c NAME` would),
 * so that trusting the workspace covers its personas too.
 */
export async function powersOf(ctx: Context, ws: Workspace): Promise<string[]> {
  const { collectLayers } = await import("./runtime.js");
  const powersWith = (cfg: string[]) =>
    collectLayers({ cwd: ctx.cwd, env: ctx.env, workspaceDir: ws.dir, cfg }).trust.powers;
  const powers = new Set(powersWith([]));
  for (const file of personaFiles(ws.dir)) {
    try {
      for (const power of powersWith([file])) powers.add(power);
    } catch {
      // A file that is no configuration jp can read grants nothing: -c NAME would refuse it.
    }
  }
  return [...powers];
}
