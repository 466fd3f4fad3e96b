// `jp workspace trust [DIR]`: let a workspace's own configuration run what it
// names and send keys where it says, and its conversations' recorded config apply.
import type { Command } from "commander";
import { trustWorkspace } from "../../../trusted-workspaces.js";
import { visible } from "../../../render/visible.js";
import type { Context } from "../../context.js";
import { powersOf, workspaceNamed } from "../../workspace-trust.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("trust")
    .argument("[dir]", "the workspace (default: --workspace or the nearest .jp/)")
    .description(
      "trust a workspace: its configuration may run what it names and send your keys where it says; asked again when that changes",
    )
    .action(async (dir: string | undefined) => {
      const ws = workspaceNamed(ctx, dir);
      const powers = await powersOf(ctx, ws);
      trustWorkspace(ws.root, powers, ctx.env, ctx.clock.now());
      ctx.out(`trusted the workspace at ${visible(ws.root)}`);
      for (const power of powers) ctx.out(`  ${visible(power)}`);
    });
}
