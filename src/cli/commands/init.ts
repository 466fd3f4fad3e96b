// `jp init [DIR]`: create a workspace, optionally with a JP workspace's
// configuration carried over (`--from-jp`).
import type { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "smol-toml";
import { fileLayers } from "../../config/extends.js";
// Types only: the module itself loads with --from-jp.
import type * as FromJpModule from "../../config/from-jp.js";
import { isPlain, type Plain } from "../../config/trust.js";
import { UsageError } from "../../errors.js";
import { visible } from "../../render/visible.js";
import { initWorkspace } from "../../store/workspace.js";
import { trustWorkspace } from "../../trusted-workspaces.js";
import type { Context } from "../context.js";
import { powersOf } from "../workspace-trust.js";

interface InitOptions {
  fromJp?: string;
  allowOutside?: boolean;
  output?: string;
  print?: boolean;
}

/** The config file of a JP workspace: DIR/.jp/config.toml, or DIR/config.toml when DIR is the .jp folder. */
function jpConfigFile(ctx: Context, dir: string): string {
  const root = path.resolve(ctx.cwd, dir);
  for (const file of [path.join(root, ".jp", "config.toml"), path.join(root, "config.toml")])
    if (fs.existsSync(file)) return file;
  throw new UsageError(
    `no JP configuration in ${dir}`,
    "give the folder holding JP's .jp/ (with .jp/config.toml)",
  );
}

/** Where `extends` may read when carrying over: within JP-DIR unless --allow-outside; what is skipped is named. */
function extendsBounds(opts: InitOptions & { fromJp: string }, ctx: Context, skipped: string[]) {
  if (opts.allowOutside) return undefined;
  return {
    within: path.resolve(ctx.cwd, opts.fromJp),
    outside: (outside: string, from: string) => {
      skipped.push(
        `${outside} (extended by ${from}): outside ${opts.fromJp}, not read; --allow-outside reads it`,
      );
    },
  };
}

/** JP's personas: each `NAME.toml` directly in a folder of `config_load_paths` (relative to the workspace root), as `-c NAME` finds them. */
function jpPersonas(merged: Plain, configFile: string): { name: string; file: string }[] {
  const root = path.dirname(path.dirname(configFile));
  const folders = Array.isArray(merged.config_load_paths) ? merged.config_load_paths : [];
  const found = new Map<string, string>();
  for (const folder of folders) {
    if (typeof folder !== "string") continue;
    const dir = path.resolve(root, folder);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) continue;
    for (const entry of fs.readdirSync(dir).sort())
      if (entry.endsWith(".toml") && !found.has(entry.slice(0, -5)))
        found.set(entry.slice(0, -5), path.join(dir, entry));
  }
  return [...found].map(([name, file]) => ({ name, file }));
}

type FromJp = typeof FromJpModule;

interface CarriedFile {
  /** Where it is written, relative to the workspace root. */
  target: string;
  /** The persona it carries; none for the workspace's own configuration. */
  persona?: string;
  config: Plain;
  notCarried: string[];
  review: string[];
}

/**
 * The lines of every file, each said once: a persona's with `-c NAME: `, and a
 * line several personas share (the skill files they all extend) with all
 * their names, not once per persona.
 */
function saidOnce(files: readonly CarriedFile[], lines: (file: CarriedFile) => string[]): string[] {
  const owners = new Map<string, string[]>();
  for (const file of files)
    for (const line of lines(file)) owners.set(line, [...(owners.get(line) ?? []), file.persona ?? ""]);
  return [...owners].map(([line, of]) => {
    if (of.length === 1 && of[0] === "") return line;
    return `${of.map((name) => (name ? `-c ${name}` : "the workspace")).join(", ")}: ${line}`;
  });
}

/**
 * One persona carried as a jp `-c NAME` file: its own settings, and the
 * system prompt JP would use with it (the workspace's merged with its own).
 */
function carryPersona(
  persona: { name: string; file: string },
  workspace: readonly Plain[],
  shown: (file: string) => string,
  bounds: ReturnType<typeof extendsBounds>,
  jp: FromJp,
): CarriedFile {
  const own = fileLayers(persona.file, `-c ${persona.name}`, shown, bounds).map((layer) => layer.value);
  const carried = jp.carryJpConfig(jp.mergeJpFiles(own));
  const config = carried.config;
  const touchesPrompt = own.some((value) => isPlain(value.assistant) && jp.hasJpPrompt(value.assistant));
  const whole = jp.mergeJpFiles([...workspace, ...own]).assistant;
  if (touchesPrompt && isPlain(whole) && typeof whole.system_prompt === "string")
    config.assistant = {
      ...(isPlain(config.assistant) ? config.assistant : {}),
      system_prompt: whole.system_prompt,
    };
  return {
    target: path.join(".jp", "config.d", `${persona.name}.toml`),
    persona: persona.name,
    config,
    notCarried: carried.notCarried,
    review: carried.review,
  };
}

async function carryOver(ctx: Context, root: string, opts: InitOptions & { fromJp: string }): Promise<void> {
  const jp = await import("../../config/from-jp.js");
  const skipped: string[] = [];
  const bounds = extendsBounds(opts, ctx, skipped);
  const shown = (f: string) => path.relative(ctx.cwd, f) || f;
  const file = jpConfigFile(ctx, opts.fromJp);
  const workspace = fileLayers(file, "JP", shown, bounds).map((layer) => layer.value);
  const merged = jp.mergeJpFiles(workspace);
  const main = jp.carryJpConfig(merged);
  const files: CarriedFile[] = [
    {
      target: path.relative(
        root,
        path.resolve(ctx.cwd, opts.output ?? path.join(root, ".jp", "config.toml")),
      ),
      config: main.config,
      notCarried: main.notCarried,
      review: main.review,
    },
    ...jpPersonas(merged, file).map((persona) => carryPersona(persona, workspace, shown, bounds, jp)),
  ];
  const notCarried = [...skipped, ...saidOnce(files, (f) => f.notCarried)];
  const review = saidOnce(files, (f) => f.review);
  for (const [i, carried] of files.entries()) {
    const what = i === 0 ? "the JP workspace" : `JP's persona ${path.basename(carried.target, ".toml")}`;
    const text = `# Carried over from ${what} in ${opts.fromJp} by jp init --from-jp.\n\n${stringify(carried.config)}\n`;
    if (opts.print) {
      ctx.out(
        `${i === 0 ? "" : `\n# ${carried.target} (jp -c ${path.basename(carried.target, ".toml")})\n`}${text.trimEnd()}`,
      );
      continue;
    }
    const target = path.resolve(root, carried.target);
    if (fs.existsSync(target) && fs.statSync(target).size > 0) {
      if (i > 0) {
        notCarried.push(`${carried.target} exists already; jp does not overwrite it (see it with --print)`);
        continue;
      }
      throw new UsageError(
        `${path.relative(ctx.cwd, target) || target} exists already; jp does not overwrite it`,
        "write elsewhere with --output FILE (a name in .jp/config.d/ is then used with -c NAME), or see it with --print",
      );
    }
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    ctx.out(
      i === 0
        ? `Wrote jp's configuration to ${path.relative(ctx.cwd, target) || target}`
        : `Wrote persona ${path.basename(target, ".toml")} to ${path.relative(ctx.cwd, target)} (jp -c ${path.basename(target, ".toml")})`,
    );
  }
  if (notCarried.length)
    ctx.info(
      `not carried over (${notCarried.length}):\n${notCarried.map((line) => `  - ${line}`).join("\n")}`,
    );
  // What the JP config's author can make jp do: said every time, to be read before the first jp q.
  if (review.length)
    ctx.info(
      `carried over, review before your first jp q (${review.length}):\n${review.map((line) => `  - ${visible(line)}`).join("\n")}`,
    );
}

export function register(program: Command, ctx: Context): void {
  program
    .command("init [dir]")
    .description("create a jp workspace (.jp/) in DIR (default: --workspace or the current folder)")
    .option(
      "--from-jp <jp-dir>",
      "carry over the configuration of the JP workspace in JP-DIR: MCP servers, tools, aliases, model, reasoning, system prompt, compaction rules",
    )
    .option("--output <file>", "with --from-jp: write the configuration here instead of .jp/config.toml")
    .option(
      "--allow-outside",
      "with --from-jp: also read the files its extends reach outside JP-DIR (by default they are named and skipped)",
    )
    .option("--print", "with --from-jp: print the configuration instead of writing it")
    .addHelpText(
      "after",
      "\nWhat --from-jp cannot carry over is listed on stderr, one line each, with why; so is every carried\nprogram, header, base_url and unattended tool, to be reviewed before the first jp q.",
    )
    .action(async (dir: string | undefined, opts: InitOptions) => {
      // `jp -w DIR init` means DIR, not the folder it was typed in.
      const root = path.resolve(ctx.cwd, dir ?? ctx.workspaceOption ?? ".");
      if ((opts.output || opts.print || opts.allowOutside) && !opts.fromJp)
        throw new UsageError("--output, --print and --allow-outside go with --from-jp");
      // JP's own workspace, here: jp reads it where it is.
      if (opts.fromJp && !opts.print && !opts.output && path.resolve(ctx.cwd, opts.fromJp) === root) {
        const { isJpWorkspace } = await import("../../config/load.js");
        if (isJpWorkspace(path.join(root, ".jp"))) {
          ctx.out(
            "This is a JP workspace: jp reads its configuration where it is, as JP's, so nothing needs converting. `jp config show` shows what jp uses; `jp init --from-jp . --print` lists what it leaves out, and why.",
          );
          return;
        }
      }
      if (opts.fromJp && opts.print) {
        await carryOver(ctx, root, { ...opts, fromJp: opts.fromJp });
        return;
      }
      const { workspace, created } = initWorkspace(root);
      ctx.out(
        created
          ? `Initialized jp workspace in ${workspace.dir}`
          : `Workspace already exists in ${workspace.dir}`,
      );
      if (opts.fromJp) await carryOver(ctx, root, { ...opts, fromJp: opts.fromJp });
      // A workspace the user made is theirs: trusted with what its configuration does now.
      if (created) trustWorkspace(root, await powersOf(ctx, workspace), ctx.env, ctx.clock.now());
    });
}
