// `jp init [DIR]`: create a workspace, optionally with a JP workspace's
// configuration carried over (`--from-jp`).
import type { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { stringify } from "smol-toml";
import { fileLayers } from "../../config/extends.js";
import type { Plain } from "../../config/trust.js";
import { UsageError } from "../../errors.js";
import { visible } from "../../render/visible.js";
import { initWorkspace } from "../../store/workspace.js";
import type { Context } from "../context.js";

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

/**
 * A JP workspace's config, its `extends` read as JP reads them, merged. Files
 * an `extends` reaches outside the JP folder are not read unless asked
 * (`--allow-outside`); each is named in `skipped`.
 */
function readJpConfig(
  ctx: Context,
  opts: InitOptions & { fromJp: string },
  mergeJpFiles: (values: readonly Plain[]) => Plain,
  skipped: string[],
): Plain {
  const file = jpConfigFile(ctx, opts.fromJp);
  const within = path.resolve(ctx.cwd, opts.fromJp);
  const bounds = opts.allowOutside
    ? undefined
    : {
        within,
        outside: (outside: string, from: string) => {
          skipped.push(
            `${outside} (extended by ${from}): outside ${opts.fromJp}, not read; --allow-outside reads it`,
          );
        },
      };
  const layers = fileLayers(file, "JP", (f) => path.relative(ctx.cwd, f) || f, bounds);
  return mergeJpFiles(layers.map((layer) => layer.value));
}

async function carryOver(ctx: Context, root: string, opts: InitOptions & { fromJp: string }): Promise<void> {
  const { carryJpConfig, mergeJpFiles } = await import("../../config/from-jp.js");
  const skipped: string[] = [];
  const carried = carryJpConfig(readJpConfig(ctx, opts, mergeJpFiles, skipped));
  const { config, review } = carried;
  const notCarried = [...skipped, ...carried.notCarried];
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
    });
}
