// `jp workspace untrust [DIR]`: read a workspace as data again.
import type { Command } from "commander";
import { untrustWorkspace } from "../../../trusted-workspaces.js";
import { visible } from "../../../render/visible.js";
import type { Context } from "../../context.js";
import { workspaceNamed } from "../../workspace-trust.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("untrust")
    .argument("[dir]", "the workspace (default: --workspace or the nearest .jp/)")
    .description("stop trusting a workspace: its configuration and conversations are read as data")
    .action((dir: string | undefined) => {
      const ws = workspaceNamed(ctx, dir);
      const was = untrustWorkspace(ws.root, ctx.env);
      ctx.out(
        was
          ? `the workspace at ${visible(ws.root)} is no longer trusted`
          : `the workspace at ${visible(ws.root)} was not trusted`,
      );
    });
}
