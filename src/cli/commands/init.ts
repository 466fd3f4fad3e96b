// `jp init [DIR]`: create a workspace.
import type { Command } from "commander";
import type { Context } from "../context.js";
import * as path from "node:path";
import { initWorkspace } from "../../store/workspace.js";

export function register(program: Command, ctx: Context): void {
  program
    .command("init [dir]")
    .description("create a jp workspace (.jp/) in DIR (default: --workspace or the current folder)")
    .action((dir: string | undefined) => {
      // `jp -w DIR init` means DIR, not the folder it was typed in.
      const { workspace, created } = initWorkspace(path.resolve(ctx.cwd, dir ?? ctx.workspaceOption ?? "."));
      ctx.out(
        created
          ? `Initialized jp workspace in ${workspace.dir}`
          : `Workspace already exists in ${workspace.dir}`,
      );
    });
}
