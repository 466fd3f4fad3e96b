// `jp init [DIR]`: create a workspace, optionally with a JP workspace's
// configuration carried over (`--from-jp`).
import type { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "smol-toml";
import { fileLayers } from "../../config/extends.js";
import type { Plain } from "../../config/trust.js";
import { UsageError } from "../../errors.js";
import { initWorkspace } from "../../store/workspace.js";
import type { Context } from "../context.js";

interface InitOptions {
  fromJp?: string;
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

/** A JP workspace's config, its `extends` read as JP reads them, merged. */
function readJpConfig(ctx: Context, dir: string, mergePlain: (a: Plain, b: Plain) => Plain): Plain {
  const file = jpConfigFile(ctx, dir);
  const layers = fileLayers(file, "JP", (f) => path.relative(ctx.cwd, f) || f);
  return layers.reduce<Plain>((merged, layer) => mergePlain(merged, layer.value), {});
}

async function carryOver(ctx: Context, root: string, opts: InitOptions & { fromJp: string }): Promise<void> {
  const { carryJpConfig, mergePlain } = await import("../../config/from-jp.js");
  const { config, notCarried } = carryJpConfig(readJpConfig(ctx, opts.fromJp, mergePlain));
  const text = `# Carried over from the JP workspace in ${opts.fromJp} by jp init --from-jp.\n\n${stringify(config)}\n`;
  if (opts.print) ctx.out(text.trimEnd());
  else {
    const target = path.resolve(ctx.cwd, opts.output ?? path.join(root, ".jp", "config.toml"));
    if (fs.existsSync(target) && fs.statSync(target).size > 0)
      throw new UsageError(
        `${path.relative(ctx.cwd, target) || target} exists already; jp does not overwrite it`,
        "write elsewhere with --output FILE (a name in .jp/config.d/ is then used with -c NAME), or see it with --print",
      );
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
    ctx.out(`Wrote jp's configuration to ${path.relative(ctx.cwd, target) || target}`);
  }
  if (notCarried.length)
    ctx.info(
      `not carried over (${notCarried.length}):\n${notCarried.map((line) => `  - ${line}`).join("\n")}`,
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
    .option("--print", "with --from-jp: print the configuration instead of writing it")
    .addHelpText("after", "\nWhat --from-jp cannot carry over is listed on stderr, one line each, with why.")
    .action(async (dir: string | undefined, opts: InitOptions) => {
      // `jp -w DIR init` means DIR, not the folder it was typed in.
      const root = path.resolve(ctx.cwd, dir ?? ctx.workspaceOption ?? ".");
      if ((opts.output || opts.print) && !opts.fromJp)
        throw new UsageError("--output and --print go with --from-jp");
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
    });
}
