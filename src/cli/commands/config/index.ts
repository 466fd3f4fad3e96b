// `jp config show`: the resolved configuration.
import type { Command } from "commander";
import type { Context } from "../../context.js";
import { grouped } from "../../../numbers.js";
import { counted } from "../../../render/words.js";

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

/** The longest a value is shown without --full: a JP persona's system prompt is some 16,000 characters on one line. */
export const SHOWN_VALUE_CHARS = 120;

/** A value as a row shows it: its JSON, cut (and said to be) where it is longer than a row can hold, unless `full`. */
function shownValue(value: unknown, full: boolean): { text: string; cut: boolean } {
  const text = JSON.stringify(value);
  if (full || text.length <= SHOWN_VALUE_CHARS) return { text, cut: false };
  // Never half of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(text[SHOWN_VALUE_CHARS - 1] ?? "")
    ? SHOWN_VALUE_CHARS - 1
    : SHOWN_VALUE_CHARS;
  return { text: `${text.slice(0, end)}… (${grouped(text.length)} characters)`, cut: true };
}

export function register(config: Command, ctx: Context): void {
  config
    .command("show")
    .description(
      "show the resolved configuration (workspace, user, environment, -c and the active conversation)",
    )
    .option("--origin", "show which layer set each value")
    .option("--json", "print as JSON (with --origin: { config, origins })")
    .option(
      "--full",
      `show every value whole (a value longer than ${SHOWN_VALUE_CHARS} characters is cut otherwise)`,
    )
    .option("--id <id>", "include the config deltas of this conversation (default: the active one, if any)")
    .action(async (opts: { origin?: boolean; json?: boolean; full?: boolean; id?: string }) => {
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
      let cut = 0;
      ctx.out(
        rows
          .map(([k, v]) => {
            const origin = opts.origin ? ctx.color.dim(`  # ${resolved.origins.get(k) ?? "?"}`) : "";
            const value = shownValue(v, opts.full === true);
            if (value.cut) cut++;
            return `${k.padEnd(width)} = ${value.text}${origin}`;
          })
          .join("\n"),
      );
      // Said on stderr only when they change (cli/said-warnings.ts); listed here every time.
      const notes = [...resolved.ignored, ...resolved.clamped];
      if (cut > 0)
        notes.push(
          `${counted(cut, "value")} cut at ${SHOWN_VALUE_CHARS} characters: --full shows ${cut === 1 ? "it" : "them"} whole (--json too)`,
        );
      if (notes.length) ctx.out(["", ...notes.map((n) => ctx.color.dim(`# ${n}`))].join("\n"));
    });
}
