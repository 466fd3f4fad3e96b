// `jp workspace status [DIR]`: whether a workspace is trusted, and what its
// configuration would run and where it would send keys.
import type { Command } from "commander";
import { foreignOwner, trustEntry, untrustedPowers } from "../../../trusted-workspaces.js";
import { visible } from "../../../render/visible.js";
import type { Context } from "../../context.js";
import { powerLines, powersOf, workspaceNamed } from "../../workspace-trust.js";

export function register(parent: Command, ctx: Context): void {
  parent
    .command("status")
    .argument("[dir]", "the workspace (default: --workspace or the nearest .jp/)")
    .option("--json", "print { root, trusted, trusted_at, owner_uid, powers, new_powers }")
    .description("say whether a workspace is trusted, and what its configuration would run and send keys to")
    .action(async (dir: string | undefined, opts: { json?: boolean }) => {
      const ws = workspaceNamed(ctx, dir);
      const entry = trustEntry(ws.root, ctx.env);
      const owner = foreignOwner(ws.dir);
      const powers = await powersOf(ctx, ws);
      const fresh = untrustedPowers(entry, powers) ?? powers;
      const trusted = entry !== undefined && fresh.length === 0;
      if (opts.json) {
        ctx.out(
          JSON.stringify({
            root: ws.root,
            trusted,
            trusted_at: entry?.trusted_at ?? null,
            owner_uid: owner ?? null,
            powers,
            new_powers: fresh,
          }),
        );
        return;
      }
      const state = trusted
        ? `trusted (since ${entry.trusted_at})`
        : entry
          ? "trusted before, but its configuration changed since: asked again"
          : "not trusted: its configuration is read as data, its conversations' recorded config not applied";
      ctx.out(`${visible(ws.root)}: ${state}`);
      if (owner !== undefined) ctx.out(`  its .jp/ belongs to another user (uid ${owner})`);
      if (powers.length === 0) ctx.out("  its configuration runs nothing and sends your keys nowhere");
      for (const line of powerLines(ws.root, powers, ctx.env)) ctx.out(line);
    });
}
