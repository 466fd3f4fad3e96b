// Owns the base error type every layer's user-facing errors extend (DESIGN §10).

export type ExitCode = 0 | 1 | 2 | 130;

export class JpError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly exitCode: ExitCode;
  /** What else happened because of the error (shown after the hint, one line each). */
  readonly notes: string[] = [];

  constructor(
    code: string,
    message: string,
    options: { hint?: string; cause?: unknown; exitCode?: ExitCode } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? 1;
  }
}

export class UsageError extends JpError {
  constructor(message: string, hint?: string) {
    super("usage", message, { hint, exitCode: 2 });
  }
}
