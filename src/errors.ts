// Owns the base error type every layer's user-facing errors extend (docs/architecture.md §10).

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

const CHECK_MODE = "check the owner and mode of the path (`ls -l`)";
const FREE_SPACE = "free some space and run the command again";
const CHECK_PATH = "check the path";

/** What the operating system said, in words, and what a user can do about it. */
const SYSTEM_ERRORS: Record<string, { says: string; hint: string }> = {
  EACCES: { says: "permission denied", hint: CHECK_MODE },
  EPERM: { says: "operation not permitted", hint: CHECK_MODE },
  EISDIR: { says: "is a folder where a file belongs", hint: "move the folder out of the way" },
  ENOTDIR: { says: "a part of the path is a file, not a folder", hint: CHECK_PATH },
  ENOENT: { says: "does not exist", hint: CHECK_PATH },
  ENOSPC: { says: "no space left on the device", hint: FREE_SPACE },
  EDQUOT: { says: "disk quota exceeded", hint: FREE_SPACE },
  EFBIG: { says: "file too large", hint: "check `ulimit -f` and the file system's limits" },
  EROFS: { says: "read-only file system", hint: "run jp where the workspace can be written" },
  EMFILE: { says: "too many open files", hint: "raise `ulimit -n` and run the command again" },
  ELOOP: { says: "too many levels of symbolic links", hint: "check the links on the path" },
  EIO: { says: "input/output error", hint: "check the disk; the file system reported a fault" },
  ENAMETOOLONG: { says: "file name too long", hint: "use a shorter path" },
};

const VERBS: Record<string, string> = {
  scandir: "list",
  opendir: "list",
  mkdir: "create",
  mkdtemp: "create",
  unlink: "remove",
  rmdir: "remove",
  rm: "remove",
  stat: "inspect",
  lstat: "inspect",
  fstat: "inspect",
  copyfile: "copy",
  symlink: "link",
};

/**
 * An operating-system error (a Node system error carrying `code` and
 * `syscall`) as a one-line JpError naming the path, or undefined when
 * `error` is something else.
 */
export function fromSystemError(error: unknown): JpError | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = field(error, "code");
  const syscall = field(error, "syscall");
  const path = field(error, "path");
  const dest = field(error, "dest");
  if (code === undefined || syscall === undefined) return undefined;
  const known = SYSTEM_ERRORS[code];
  const says = known?.says ?? error.message;
  const verb = VERBS[syscall] ?? syscall;
  const what =
    path === undefined
      ? `${verb} failed`
      : `cannot ${verb} ${path}${dest === undefined ? "" : ` to ${dest}`}`;
  return new JpError(`system.${code.toLowerCase()}`, `${what}: ${says}`, {
    hint: known?.hint ?? `the operating system reported ${code}`,
    cause: error,
  });
}

/** The `code` of an operating-system error (ENOENT, EEXIST…), or undefined for anything else. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error ? field(error, "code") : undefined;
}

/** A string field a Node system error may carry (`code`, `syscall`, `path`, `dest`). */
function field(error: Error, name: "code" | "syscall" | "path" | "dest"): string | undefined {
  const value: unknown = Reflect.get(error, name);
  return typeof value === "string" ? value : undefined;
}

/** An error's message, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * For the `default` of a switch that must handle every member of a closed
 * union (the event kinds): a member added later fails to compile there.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`unhandled ${what}: ${String(value)}`);
}
