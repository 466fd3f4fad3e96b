// Owns the errors a person can cause when writing bounds, positions or rules.
import { JpError } from "../errors.js";

/** A mistake in a `-k/--compact` spec or a rule bound. */
export class RuleSyntaxError extends JpError {
  constructor(message: string, hint?: string) {
    super("compaction.rule_syntax", message, { hint, exitCode: 2 });
  }
}

/** A mistake in a CLI turn position (`--from`, `--to`, `--turn`, `--first`, `--last`). */
export class PositionSyntaxError extends JpError {
  constructor(message: string, hint?: string) {
    super("compaction.position_syntax", message, { hint, exitCode: 2 });
  }
}

/** A summary that would have to widen a supplied summary. */
export class SummaryOverlapError extends JpError {
  constructor(message: string, hint: string) {
    super("compaction.summary_overlap", message, { hint });
  }
}
