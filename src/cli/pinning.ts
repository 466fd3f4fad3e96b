// What `pin` and `unpin` share: the options, the append under the turn lock, and the report.
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import type { Context } from "./context.js";
import { pinEvent, pinnedTurns } from "../service/pin.js";

function turnNumber(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError("a turn number, 1 or more");
  return n;
}

interface PinOptions {
  turn: number;
  note?: string;
  json?: boolean;
}

export function registerPinning(
  parent: Command,
  ctx: Context,
  what: { name: string; description: string; pinned: boolean },
): void {
  parent
    .command(`${what.name} [id]`)
    .description(`${what.description} (default: the active conversation)`)
    .requiredOption("--turn <n>", "the turn, 1-based as `print` numbers it", turnNumber)
    .option("--note <text>", "why, in one sentence")
    .option("--json", "print { id, turn, pinned, pinned_turns }")
    .action((id: string | undefined, opts: PinOptions) => {
      const store = ctx.store();
      const ref = store.resolve(id);
      // A turn in progress is waited for: the pin lands between turns.
      const held = store.holdTurn(ref);
      let pinned: number[];
      try {
        const events = store.readEvents(ref);
        const event = pinEvent(events, opts.turn, what.pinned, {
          timestamp: ctx.clock.now().toISOString(),
          ...(opts.note ? { note: opts.note } : {}),
        });
        store.append(ref, [event]);
        pinned = pinnedTurns([...events, event]);
      } finally {
        held.release();
      }
      if (opts.json) {
        ctx.out(
          JSON.stringify({ id: ref.id, turn: opts.turn, pinned: what.pinned, pinned_turns: pinned }, null, 2),
        );
        return;
      }
      ctx.out(
        what.pinned
          ? `Pinned turn ${opts.turn} of ${ref.id}: no compaction changes it.`
          : `Unpinned turn ${opts.turn} of ${ref.id}.`,
      );
    });
}
