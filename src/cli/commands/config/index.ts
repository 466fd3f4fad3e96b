// `jp config show`: the resolved configuration.
import type { Command } from "commander";
import type { Context } from "../../context.js";

function flatten(value: unknown, prefix = "", out: [string, unknown][] = []): [string, unknown][] {
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value) && prefix === "conversation.compaction.rules") {
    value.forEach((rule, i) => out.push([`${prefix}[${i}]`, rule]));
  } else {
    out.push([prefix, value]);
  }
  return out;
}

export function register(config: Command, ctx: Context): void {
  config
    .command("show")
    .description(
      "show the resolved configuration (workspace, user, environment, -c and the active conversation)",
    )
    .option("--origin", "show which layer set each value")
    .option("--json", "print as JSON (with --origin: { config, origins })")
    .option("--id <id>", "include the config deltas of this conversation (default: the active one, if any)")
    .action(async (opts: { origin?: boolean; json?: boolean; id?: string }) => {
      const ws = ctx.maybeWorkspace();
      const store = ws ? ctx.store() : undefined;
      let conversation;
      if (store && (opts.id || store.activeId())) {
        try {
          conversation = store.resolve(opts.id);
        } catch (error) {
          if (opts.id) throw error;
        }
      }
      const resolved = await ctx.config({ conversation });
      if (opts.json) {
        ctx.out(
          JSON.stringify(
            opts.origin
              ? { config: resolved.config, origins: Object.fromEntries(resolved.origins) }
              : resolved.config,
            null,
            2,
          ),
        );
        return;
      }
      const rows = flatten(resolved.config);
      const width = Math.max(...rows.map(([k]) => k.length));
      ctx.out(
        rows
          .map(([k, v]) => {
            const origin = opts.origin ? ctx.color.dim(`  # ${resolved.origins.get(k) ?? "?"}`) : "";
            return `${k.padEnd(width)} = ${JSON.stringify(v)}${origin}`;
          })
          .join("\n"),
      );
      // Said on stderr only when they change (cli/said-warnings.ts); listed here every time.
      const notes = [...resolved.ignored, ...resolved.clamped];
      if (notes.length) ctx.out(["", ...notes.map((n) => ctx.color.dim(`# ${n}`))].join("\n"));
    });
}
